/* Cell versus hidden: every unit of the layer as a dot, tanh |c| across and |h| up (|n|
 * across for a GRU, tanh |a| for a tanh RNN). In an LSTM |h| = o tanh |c|, so every dot
 * lies on or under the diagonal, and its distance below it is what the output gate hides;
 * a tanh RNN's dots lie on it (h = tanh a), and those near 1 are saturated. A relu RNN's h
 * is unbounded: |a| across and |h| up, both over the layer's largest |a| (the "max" of the
 * axes), its dots on the diagonal (a > 0) or on the floor (cut to 0). The selected unit is
 * marked. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "screen/panel_cellhid.h"
#include "screen/panel_frame.h"
#include "screen/draw_plot.h"

/* The line under the plot: what the dots of the cell kind say (counts as the report's). */
static void summary(gt_surface *s, int x, int y, int w, const gt_view *v, int hidden, int sat,
                    double sx, double sy)
{
    const int H = model_width(v->m, v->layer);
    char buf[160], b2[64];
    const char *fields[2] = {buf, b2};
    if (v->m->cell->has_c) { /* the units whose output gate hides a cell that is not small */
        snprintf(buf, sizeof buf, "%d/%d hidden by o", hidden, H);
        snprintf(b2, sizeof b2, "(|h|<.1, |c|>.55)");
    } else if (v->m->cell->carry < 0) { /* a plain RNN: its h saturated */
        snprintf(buf, sizeof buf, "%d/%d %s,", sat, H,
                 v->m->rnn_relu ? "at 0 (h = 0)" : "saturated (|h|>.9)");
        snprintf(b2, sizeof b2, "mean |h| %.2f", sy / H);
    } else {
        snprintf(buf, sizeof buf, "mean |n| %.2f,", sx / H);
        snprintf(b2, sizeof b2, "mean |h| %.2f", sy / H);
    }
    panel_fields(s, x, y, w, R_NORMAL, fields, 2, 1);
}

void panel_cellhid(gt_surface *s, gt_rect r, const gt_view *v)
{
    const int H = model_width(v->m, v->layer);
    /* across: the value beside h (c, n or a), or tanh of it when it has no bounds (a relu's
       a: its own scale) */
    const gt_celltype *cl = v->m->cell;
    const gt_cell_signal *x = &cl->signal[cl->beside_h];
    const int lstm = cl->has_c, relu = v->m->rnn_relu, squash = x->tanh_shown && !relu;
    double scale = 1; /* a relu RNN's axes: 0 .. the largest |a| */
    for (int j = 0; relu && j < H; j++)
        if (fabsf(v->g[j]) > scale)
            scale = fabsf(v->g[j]);
    const float *xs = cl->beside_h >= v->m->gates ? v->c : v->g + (size_t)cl->beside_h * H,
                *ys = v->h;
    gt_rect in;
    char note[32];
    snprintf(note, sizeof note, "%s unit %d", s->utf8 ? "◆" : "@", v->unit);
    char title[64]; /* "cell against hidden": the first word of the value's title */
    snprintf(title, sizeof title, "%.*s against hidden", (int)strcspn(x->title, " "), x->title);
    panel_frame(s, r, title, note, &in);
    int lab = 4;                                 /* y labels on the left */
    int ph = in.h - 2, pw = in.w - lab - 1;      /* rows below: x labels, summary */
    if (ph < 1 || pw < 4)
        return;
    int px = in.x + lab, py = in.y;
    const char *axis = s->utf8 ? "│" : "|";
    for (int y = 0; y < ph; y++)
        surf_put(s, px - 1, py + y, R_DIM, axis);
    surf_text(s, in.x, py, lab - 1, R_DIM, relu ? "max" : "1");
    surf_text(s, in.x, py + ph - 1, lab - 1, R_DIM, "0");
    if (ph >= 3)
        surf_text(s, in.x, py + ph / 2, lab - 1, R_DIM, s->utf8 ? "|h|" : "h");

    plot_canvas bound, dots;
    if (plot_canvas_init(&bound, pw, ph, s->utf8) || plot_canvas_init(&dots, pw, ph, s->utf8)) {
        plot_canvas_free(&bound);
        return;
    }
    if (lstm)
        for (int i = 0; i < bound.dw; i++) {
            double fx = (i + 0.5) / bound.dw;
            plot_canvas_dot(&bound, fx, fx);
        }
    int hidden = 0, sat = 0;
    double sx = 0, sy = 0;
    for (int j = 0; j < H; j++) {
        double ax = squash ? fabs(tanh((double)xs[j])) : fabsf(xs[j]) / scale,
               ay = fabsf(ys[j]) / scale;
        plot_canvas_dot(&dots, ax, ay);
        hidden += lstm && ax > 0.5 && ay < 0.1;
        sat += v->m->rnn_relu ? ys[j] == 0 : ay > 0.9; /* as the report counts */
        sx += ax;
        sy += ay;
    }
    if (lstm && s->utf8)
        plot_canvas_draw(&bound, s, px, py, R_DIM);
    plot_canvas_draw(&dots, s, px, py, R_PLOT);
    int cx, cy;
    double sel = squash ? fabs(tanh((double)xs[v->unit])) : fabsf(xs[v->unit]) / scale;
    plot_canvas_cell(&dots, sel, fabsf(ys[v->unit]) / scale, &cx, &cy);
    surf_put(s, px + cx, py + cy, R_MARK, s->utf8 ? "◆" : "@");
    plot_canvas_free(&bound);
    plot_canvas_free(&dots);

    char buf[160];
    int y = py + ph;
    surf_text(s, px - 1, y, 1, R_DIM, "0");
    if (relu)
        snprintf(buf, sizeof buf, "|a|, max %.3g", scale);
    else
        snprintf(buf, sizeof buf, "%s|%s|", squash ? "tanh " : "", x->name);
    surf_text(s, px + (pw - surf_width(buf)) / 2, y, pw, R_DIM, buf);
    if (!relu)
        surf_text(s, px + pw - 1, y, 1, R_DIM, "1");
    summary(s, in.x + 1, y + 1, in.w - 1, v, hidden, sat, sx, sy);
}
