/* The stats view: the report's tables (doc/measures.md, "The report") for the text as loaded and the layer
 * shown, over the panels below the text strip; in two columns when they fit side by side;
 * "computing" with its progress while the report is computed in the background. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/report.h"
#include "screen/panel.h"
#include "screen/draw_plot.h"

/* Line i (0-based) of text into buf; 0 when there is none. */
static int line_at(const char *text, int i, char *buf, size_t n)
{
    const char *p = text;
    for (; i > 0 && p; i--) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return 0;
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    snprintf(buf, n, "%.*s", (int)len, p);
    return 1;
}


void panel_stats(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_stats *sv = &v->stats;
    int n, width;
    const char *text = data_stats_tables(sv, v->layer, &n, &width);
    char title[320], note[64], buf[4096];
    snprintf(title, sizeof title, "report: %s as loaded, layer %d%s", v->text_name, v->layer,
             sv->joined && sv->joined_layer == v->layer ? ", every model" : "");
    int rows = r.h - 1, cols = text ? layout_text_columns(r, n, width) : 1;
    if (text) {
        int last = v->ui->stats_scroll + cols * rows;
        snprintf(note, sizeof note, "%d-%d of %d  %s scroll  r closes", v->ui->stats_scroll + 1,
                 last < n ? last : n, n, s->utf8 ? "↑↓" : "up/down");
    } else {
        snprintf(note, sizeof note, "r closes");
    }
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1, w = in.w - 1;
    if (!text) {
        panel_stats_computing(s, in, v);
        return;
    }
    int colw = cols == 2 ? (w - 1) / 2 : w;
    for (int c = 0; c < cols; c++)
        for (int y = 0; y < in.h; y++) {
            if (!line_at(text, v->ui->stats_scroll + c * in.h + y, buf, sizeof buf))
                break;
            surf_text(s, x + c * (colw + 1), in.y + y, colw, R_NORMAL, buf);
        }
}

void panel_stats_computing(gt_surface *s, gt_rect in, const gt_view *v)
{
    const gt_data_stats *sv = &v->stats;
    char buf[512];
    int x = in.x + 1, w = in.w - 1, layer;
    double p = data_stats_progress(sv, &layer);
    if (sv->error[0] && !data_stats_busy(sv)) {
        panel_wrap(s, x, in.y + 1, w, in.h - 1, R_ERROR, sv->error);
        return;
    }
    snprintf(buf, sizeof buf, "computing the report of layer %d%s ", v->layer,
             s->utf8 ? "…" : "...");
    int used = surf_text(s, x, in.y + 1, w, R_NORMAL, buf);
    int bw = w - used - 8 > 40 ? 40 : w - used - 8;
    if (layer == v->layer && bw > 4) {
        surf_text(s, x + used, in.y + 1, 1, R_DIM, "[");
        plot_bar(s, x + used + 1, in.y + 1, bw, p, R_PROGRESS);
        surf_text(s, x + used + 1 + bw, in.y + 1, 1, R_DIM, "]");
        surf_printf(s, x + used + bw + 2, in.y + 1, 6, R_NORMAL, " %3.0f%%", 100.0 * p);
    }
    snprintf(buf, sizeof buf,
             "the keys keep working meanwhile; %s or Esc closes the view and stops the "
             "computation. The tables are those of gatetui --report (%d windows of %d "
             "characters from the start of the text).",
             v->ui->overlay == OVERLAY_UNITS ? "U" : "r", REPORT_WINDOWS, REPORT_WINDOW_LEN);
    panel_wrap(s, x, in.y + 3, w, in.h - 3, R_DIM, buf);
}
