/* What a figure's caption says of the report's numbers it draws (kinds.h; doc/figures.md):
 * the windows, the edits and the horizon, the intervals, the interventions; the same words
 * for --figure and for the screen's F. */
#include "config.h"

#include <stdio.h>

#include "figure/kinds.h"
#include "gatetui/report.h"

const char *fig_report_what(const gt_compare_col *c, int intervals, const char *interventions,
                            char *buf, size_t n)
{
    char p[32];
    size_t at = (size_t)snprintf(buf, n, "the report's %zu windows of %zu steps, %s edits "
                                         "(window, replacement) at step %d of each, K = %d%s",
                                 c->windows, c->window_len,
                                 report_commas(c->edits, p, sizeof p), c->site, c->K,
                                 intervals ? "; 95% intervals by the jackknife over the windows"
                                           : "");
    if (interventions && interventions[0] && at < n)
        snprintf(buf + at, n - at, "; interventions: %s", interventions);
    return buf;
}
