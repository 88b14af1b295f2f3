/* The perturbation panel's place: the edits made so far, and where the curves of an edit
 * will be drawn. */
#include "config.h"

#include <stdio.h>

#include "panel.h"

void panel_perturb(gt_surface *s, gt_rect r, const gt_view *v)
{
    gt_rect in;
    panel_frame(s, r, "perturbation", NULL, &in);
    int x = in.x + 1, w = in.w - 1;
    size_t n = trace_edit_count(v->tr);
    if (!n) {
        panel_wrap(s, x, in.y, w, in.h, R_DIM, "no edit: press e to change a character");
        return;
    }
    const gt_edit *ed = trace_edit_at(v->tr, n - 1);
    char from[32], to[32], buf[160];
    panel_char_name(v, ed->old_tok, from, sizeof from);
    panel_char_name(v, ed->new_tok, to, sizeof to);
    snprintf(buf, sizeof buf, "edit at step %zu: %s %s %s", ed->step, from,
             s->utf8 ? "→" : "->", to);
    int y = in.y + panel_wrap(s, x, in.y, w, in.h, R_EDIT, buf);
    snprintf(buf, sizeof buf, "%zu edit%s; u undoes the last", n, n == 1 ? "" : "s");
    panel_wrap(s, x, y, w, in.y + in.h - y, R_DIM, buf);
}
