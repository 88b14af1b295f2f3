/* The perturbation figure (kinds.h; doc/figures.md): each model's curves after an edit,
 * each divided by its value at k = 0, on a log scale; the curve's kind by its dash and its
 * markers' shape, the model by its colour; each half-life marked where the curve crosses
 * one half, in its curve's shape (an LSTM's c and h, both on the half line, told apart),
 * with its 95% interval as a bar across. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "analysis/jsonout.h"
#include "figure/figdoc.h"
#include "gatetui/cell.h"

static const char *const curve_name[FIG_CURVES] = {"measured c", "measured h", "linearized",
                                                   "forget-only"};
static const char *const curve_word[FIG_CURVES] = {"c", "h", "linearized", "forget_only"};
#define FO 3 /* the carry gate alone: a GRU's is its update gate's */

static const char *name_of(const fig_pert *m, int c)
{
    return c == FO && m->update_gate ? "update-only" : curve_name[c];
}

static const char *word_of(const fig_pert *m, int c)
{
    return c == FO && m->update_gate ? "update_only" : curve_word[c];
}
static const int curve_dash[FIG_CURVES] = {PLOT_SOLID, PLOT_DASHED, PLOT_DASHDOT, PLOT_DOTTED};
static const int curve_marker[FIG_CURVES] = {PLOT_CIRCLE, PLOT_SQUARE, PLOT_TRIANGLE,
                                             PLOT_DIAMOND};

/* "t½ 9.5 [8.3, 10.6]", "t½ > 64" past the horizon, "no t½" where none exists. */
static const char *halflife_text(fig_doc *d, const fig_pert *m, int c)
{
    char ci[64];
    if (isnan(m->hl[c]))
        return m->ci[c].beyond ? fig_str(d, "t½ > %d", m->K) : "no t½";
    interval_text(&m->ci[c], m->K, 1, ci, sizeof ci);
    return fig_str(d, "t½ %.1f%s%s", m->hl[c], m->ci[c].has ? " " : "",
                   m->ci[c].has ? ci : "");
}

/* Model i's curve c: its line (and markers), its half-life's mark and interval, its rows. */
static void one_curve(fig_doc *d, plot_panel *p, const fig_pert *m, int i, int c)
{
    const int K = m->K;
    double *k = fig_alloc(d, (size_t)(K + 1) * sizeof *k);
    double *r = fig_alloc(d, (size_t)(K + 1) * sizeof *r);
    plot_series *s = fig_series(p), *h = fig_series(p);
    if (!k || !r || !s || !h)
        return;
    const double y0 = m->curve[c][0];
    const double lo = m->ci[c].has ? m->ci[c].lo : NAN, hi = m->ci[c].has ? m->ci[c].hi : NAN;
    for (int j = 0; j <= K; j++) {
        k[j] = j;
        r[j] = y0 > 0 ? m->curve[c][j] / y0 : NAN;
        fig_csv_text(d, m->model);
        fig_csv_text(d, word_of(m, c));
        fig_csv_count(d, j);
        fig_csv_num(d, r[j]);
        fig_csv_num(d, m->hl[c]);
        fig_csv_num(d, lo);
        fig_csv_num(d, hi);
        fig_csv_count(d, m->ci[c].beyond);
        fig_csv_end(d);
    }
    *s = (plot_series){.label = fig_str(d, "%s %s: %s", m->model, name_of(m, c),
                                        halflife_text(d, m, c)),
                       .line = 1, .colour = fig_colour(i), .dash = curve_dash[c],
                       .marker = curve_marker[c], .mark_every = K >= 16 ? K / 8 : 2, .n = K + 1,
                       .x = k, .y = r};
    double *hx = fig_alloc(d, 4 * sizeof *hx);
    if (!hx)
        return;
    hx[0] = m->hl[c]; /* NAN: nothing marked */
    hx[1] = 0.5;
    hx[2] = lo;
    hx[3] = hi;
    *h = (plot_series){.colour = fig_colour(i), .marker = curve_marker[c], .big = 1, .n = 1,
                       .x = hx, .y = hx + 1, .xlo = hx + 2, .xhi = hx + 3};
}

/* every model's every curve: its line and its half-life's mark */
_Static_assert(2 * FIG_MAX_MODELS * FIG_CURVES <= PLOT_MAX_SERIES, "room for every curve");

int fig_perturbation(fig_doc *d, const fig_pert *m, int n, const fig_where *w, gt_error *e)
{
    int rc = fig_begin(d, 1, "model,curve,k,ratio,halflife,halflife_lo,halflife_hi,"
                             "beyond_horizon", JSONOUT_MEASURES, e);
    if (rc)
        return rc;
    d->plot->height = 470;
    d->plot->legend_below = 2;
    plot_panel *p = &d->plot->panel[0];
    p->x = (plot_axis){.label = "k: steps after the edit", .integer = 1, .lo = 0};
    p->y = (plot_axis){.label = "difference / its value at k = 0", .log = 1};
    const char *names[FIG_MAX_MODELS];
    int K = 0;
    for (int i = 0; i < n && i < FIG_MAX_MODELS; i++) {
        names[i] = m[i].model;
        K = m[i].K > K ? m[i].K : K;
        for (int c = 0; c < FIG_CURVES; c++)
            if (m[i].curve[c])
                one_curve(d, p, &m[i], i, c);
    }
    p->x.hi = K > 0 ? K : 1;
    int intervals = 0;
    for (int i = 0; i < n && i < FIG_MAX_MODELS; i++)
        for (int c = 0; c < FIG_CURVES; c++)
            intervals |= m[i].curve[c] && m[i].ci[c].has;
    p->ref[p->nref++] = (plot_ref){.label = intervals ? "one half (the half-lives: large markers, "
                                                       "their 95% intervals)"
                                                     : "one half (the half-lives: large markers)",
                                   .level = 0.5, .dash = PLOT_DOTTED};
    d->plot->caption = fig_caption(d, "An edit's difference after k steps over its value at "
                                      "the edit", names, n < FIG_MAX_MODELS ? n : FIG_MAX_MODELS,
                                   w);
    return fig_end(d, e);
}

void fig_pert_of_edit(fig_pert *p, const char *model, const gt_celltype *cell,
                      const gt_perturb_result *r)
{
    *p = (fig_pert){.model = model, .K = r->K,
                    .curve = {cell->has_c ? r->dc : NULL, r->dh, r->lin,
                              cell->carry >= 0 ? r->fo : NULL},
                    .update_gate = !cell->has_c && cell->carry >= 0};
    const double hl[FIG_CURVES] = {r->hl_c, r->hl_h, r->hl_lin, r->hl_fo};
    for (int c = 0; c < FIG_CURVES; c++) {
        p->hl[c] = hl[c] == PERTURB_NONE ? NAN : hl[c];
        p->ci[c] = (gt_interval){NAN, NAN, 0, isnan(p->hl[c]) && p->curve[c] && p->curve[c][0] > 0};
    }
}
