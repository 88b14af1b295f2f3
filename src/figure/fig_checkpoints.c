/* The checkpoints figure (kinds.h; doc/figures.md): several models in the order given (the
 * checkpoints of one training run, say), as the table that compares them has them: the
 * readout's loss, the mean carry gate, and an edit's measured half-lives (of c, an LSTM's,
 * and of h, every model's: never one beside the other in a series) and forget-only one
 * with their 95% intervals, three panels over the models' names. The points are joined
 * only where the models are alike (one cell and width: a run's checkpoints); else a line
 * would draw a trend between unrelated models. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "figure/figdoc.h"
#include "gatetui/loss.h"

enum { LOSS, MEAN, CELL, HIDDEN, FORGET, MEASURES };
static const char *const measure_word[MEASURES] = {"loss_bits", "carry_gate_mean",
                                                   "halflife_cell", "halflife_hidden",
                                                   "halflife_forget_only"};

/* Measure q of column c, with its interval's ends (NAN: none, or open). */
static double value_of(const gt_compare_col *c, int q, double *lo, double *hi)
{
    const gt_interval *ci = q == CELL && c->cell ? &c->ci_measured
                            : q == HIDDEN            ? &c->ci_hidden
                            : q == FORGET            ? &c->ci_forget_only
                                                     : NULL;
    *lo = ci && ci->has ? ci->lo : NAN;
    *hi = ci && ci->has ? ci->hi : NAN;
    const gt_loss l = {.nats = c->loss, .count = 1};
    switch (q) {
    case LOSS: return loss_bits(&l);
    case MEAN: return c->mean;
    case CELL: return c->pairs && c->cell ? c->hl_measured : NAN;
    case HIDDEN: return c->pairs ? c->hl_hidden : NAN;
    default: return c->pairs ? c->hl_forget_only : NAN;
    }
}

/* Measure q over the n models as a series of panel p (its rows too). */
static void measure(fig_doc *d, plot_panel *p, const gt_compare_col *c, int n, int q,
                    const char *label, int colour, int dash, int marker, int joined)
{
    double *v = fig_alloc(d, 4 * (size_t)n * sizeof *v);
    plot_series *s = fig_series(p);
    if (!v || !s)
        return;
    double *x = v, *y = v + n, *lo = v + 2 * n, *hi = v + 3 * n;
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = value_of(&c[i], q, &lo[i], &hi[i]);
        fig_csv_text(d, c[i].name);
        fig_csv_count(d, i);
        fig_csv_text(d, measure_word[q]);
        fig_csv_num(d, y[i]);
        fig_csv_num(d, lo[i]);
        fig_csv_num(d, hi[i]);
        fig_csv_end(d);
    }
    const int bars = q == CELL || q == HIDDEN || q == FORGET;
    *s = (plot_series){.label = label, .line = joined, .colour = colour, .dash = dash,
                       .marker = marker, .mark_every = 1, .n = n, .x = x, .y = y,
                       .ylo = bars ? lo : NULL, .yhi = bars ? hi : NULL};
}

int fig_checkpoints(fig_doc *d, const gt_compare_col *c, int n, const fig_where *w,
                    gt_error *e)
{
    int rc = fig_begin(d, 3, "model,index,measure,value,lo,hi", JSONOUT_MEASURES, e);
    if (rc)
        return rc;
    plot_figure *f = d->plot;
    f->height = 520;
    n = n < PLOT_MAX_NAMES ? n : PLOT_MAX_NAMES;
    const char **names = fig_alloc(d, (size_t)(n > 0 ? n : 1) * sizeof *names);
    if (!names)
        return fig_end(d, e);
    for (int i = 0; i < n; i++)
        names[i] = fig_str(d, "%s", c[i].name); /* the figure's own: c is not kept */
    for (int k = 0; k < 3; k++)
        f->panel[k].x = (plot_axis){.names = names, .nnames = n};
    f->panel[2].x.label = "model, in the order given";
    f->panel[0].y.label = w->words ? "loss (bits/token)" : "loss (bits/char)";
    /* the carry gate by its name when every model's is the same: f, an LSTM's; z, a GRU's */
    int f_all = 1, z_all = 1;
    for (int i = 0; i < n; i++) {
        f_all &= !strcmp(c[i].carry, "f");
        z_all &= !strcmp(c[i].carry, "z");
    }
    const char *mean = f_all ? "mean forget gate" : z_all ? "mean update gate" : "mean carry gate",
               *only = f_all ? "forget-only t½" : z_all ? "update-only t½" : "gate-only t½",
               *gates = f_all ? "f" : z_all ? "z" : "f, z";
    f->panel[1].y.label = mean;
    f->panel[2].y.label = "an edit's t½ (steps)";
    int alike = 1, cells = 0; /* one cell and width: a run's checkpoints; any LSTM */
    for (int i = 0; i < n; i++) {
        alike &= !strcmp(c[i].kind, c[0].kind) && c[i].hidden == c[0].hidden;
        cells |= c[i].cell;
    }
    measure(d, &f->panel[0], c, n, LOSS, "loss", 0, PLOT_SOLID, PLOT_CIRCLE, alike);
    measure(d, &f->panel[1], c, n, MEAN, mean, 3, PLOT_SOLID, PLOT_SQUARE, alike);
    if (cells)
        measure(d, &f->panel[2], c, n, CELL, "measured t½ of c", 4, PLOT_SOLID, PLOT_TRIANGLE,
                alike);
    measure(d, &f->panel[2], c, n, HIDDEN, "measured t½ of h", 1, PLOT_DASHED, PLOT_CIRCLE,
            alike);
    measure(d, &f->panel[2], c, n, FORGET, only, 2, PLOT_DOTTED, PLOT_DIAMOND, alike);
    int pairs = 0, bars = 0; /* the half-lives drawn, and their intervals */
    for (int i = 0; i < n; i++) {
        pairs |= c[i].pairs > 0;
        bars |= c[i].ci_measured.has || c[i].ci_hidden.has || c[i].ci_forget_only.has;
    }
    const char *hl = !pairs ? ", and no half-lives after an edit: no model's report has a pair "
                              "(no full window, or no replacement changed the state)"
                     : bars ? ", and the half-lives of the report's mean curves after an edit "
                              "(measured: of c, an LSTM's, and of h) with their 95% intervals"
                            : ", and the half-lives of the report's mean curves after an edit "
                              "(measured: of c, an LSTM's, and of h)";
    if (!alike)
        hl = fig_str(d, "%s; the points are not joined: the models differ in their cells or "
                        "widths, not checkpoints of one run", hl);
    const char *own = fig_str(d, "The models side by side: the readout's loss in bits per %s, "
                                 "the mean carry gate (%s) over the positions%s",
                              w->words ? "token" : "character", gates, hl);
    f->caption = fig_caption(d, own, names, n, w);
    return fig_end(d, e);
}
