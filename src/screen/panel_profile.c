/* The selected unit's profile (doc/measures.md, "A unit's profile") over the panels below
 * the text strip: the text of gatetui --profile, scrolled with the arrows; its progress
 * while a child process computes it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/signals.h"
#include "screen/panel.h"
#include "screen/draw_plot.h"

void panel_profile(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_find *f = &v->find;
    char title[160], note[80], line[1024];
    int known = f->prof_state == FIND_KNOWN;
    snprintf(title, sizeof title, "profile: unit %d, %s, layer %d",
             known ? f->prof_unit : v->unit, signals_name(v->m, known ? f->prof_signal : f->signal),
             known ? f->prof_layer : v->layer);
    if (known)
        snprintf(note, sizeof note, "%d-%d of %d  %s scroll  Enter: to %s  p closes",
                 f->prof_scroll + 1,
                 f->prof_scroll + r.h - 1 < f->prof_lines ? f->prof_scroll + r.h - 1
                                                          : f->prof_lines,
                 f->prof_lines, s->utf8 ? "↑↓" : "up/down", s->utf8 ? "▶" : ">");
    else
        snprintf(note, sizeof note, "p closes");
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1, w = in.w - 1;
    if (f->prof_state == FIND_FAILED) {
        panel_wrap(s, x, in.y + 1, w, in.h - 1, R_ERROR, f->msg);
        return;
    }
    if (!known) {
        double done = 0;
        data_find_progress(f, &done);
        int used = surf_text(s, x, in.y + 1, w, R_NORMAL, "computing the profile ");
        int bw = w - used - 8 > 40 ? 40 : w - used - 8;
        if (bw > 4) {
            surf_text(s, x + used, in.y + 1, 1, R_DIM, "[");
            plot_bar(s, x + used + 1, in.y + 1, bw, done, R_PROGRESS);
            surf_text(s, x + used + 1 + bw, in.y + 1, 1, R_DIM, "]");
        }
        return;
    }
    size_t step;
    int marked = -1; /* the line Enter goes to the step of */
    if (data_find_profile_step(f, &step, &marked) != 0 || marked - f->prof_scroll >= in.h)
        marked = -1;
    const char *p = f->prof_text;
    for (int i = 0; i < f->prof_scroll && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    for (int y = 0; y < in.h && p && *p; y++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        surf_text(s, x, in.y + y, w, R_NORMAL, line);
        if (y == marked - f->prof_scroll)
            surf_put(s, in.x, in.y + y, R_MARK, s->utf8 ? "▶" : ">");
        p = nl ? nl + 1 : NULL;
    }
}
