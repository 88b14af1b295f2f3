/* The half-lives figure (kinds.h; doc/figures.md): each unit's half-life from its mean
 * carry gate against its measured one, log-log, with the diagonal (the edit decays as the
 * gate implies) and the 2x line (the return path doubling it); units whose measured decay
 * lasts past the horizon drawn above it, at the top. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "figure/figdoc.h"

#define PAST 1.15 /* where units past the horizon K are drawn: K times this */

typedef struct counts {
    int drawn, past, none;
} counts;

/* Model i's units: those measured (x, y) and those past the horizon (px, py), their rows. */
static counts one_model(fig_doc *d, plot_panel *p, const fig_units *m, int i, int K)
{
    counts c = {0, 0, 0};
    double *v = fig_alloc(d, 4 * (size_t)m->H * sizeof *v);
    plot_series *s = fig_series(p), *t = fig_series(p);
    if (!v || !s || !t)
        return c;
    double *x = v, *y = v + m->H, *px = v + 2 * m->H, *py = v + 3 * m->H;
    for (int j = 0; j < m->H; j++) {
        const gt_unit_row *u = &m->rows[j];
        const int past = u->measured_ci.beyond;
        const int measured = past || u->halflife_measured > 0;
        if (!isfinite(u->halflife) || !(u->halflife > 0) || !measured) {
            c.none++;
            continue;
        }
        if (past) {
            px[c.past] = u->halflife;
            py[c.past++] = K * PAST;
        } else {
            x[c.drawn] = u->halflife;
            y[c.drawn++] = u->halflife_measured;
        }
        fig_csv_text(d, m->model);
        fig_csv_count(d, j);
        fig_csv_num(d, u->halflife);
        fig_csv_num(d, past ? NAN : u->halflife_measured);
        fig_csv_count(d, past);
        fig_csv_end(d);
    }
    *s = (plot_series){.label = fig_str(d, "%s: %d unit%s", m->model, c.drawn,
                                        c.drawn == 1 ? "" : "s"),
                       .colour = fig_colour(i), .marker = fig_marker(i), .n = c.drawn,
                       .x = x, .y = y};
    *t = (plot_series){.label = c.past ? fig_str(d, "%s: %d past the horizon (at the top)",
                                                 m->model, c.past)
                                       : NULL,
                       .colour = fig_colour(i), .marker = fig_marker(i), .n = c.past, .x = px,
                       .y = py};
    return c;
}

int fig_halflives(fig_doc *d, const fig_units *m, int n, const fig_where *w, gt_error *e)
{
    int rc = fig_begin(d, 1, "model,unit,halflife_gate,halflife_measured,beyond_horizon",
                       JSONOUT_MEASURES, e);
    if (rc)
        return rc;
    plot_panel *p = &d->plot->panel[0];
    int K = 0;
    const char *names[FIG_MAX_MODELS];
    n = n < FIG_MAX_MODELS ? n : FIG_MAX_MODELS;
    for (int i = 0; i < n; i++)
        K = m[i].K > K ? m[i].K : K;
    const char *gates = n > 0 ? m[0].carry : "f"; /* "f", or "f, z" when the models differ */
    for (int i = 1; i < n; i++)
        if (!strstr(gates, m[i].carry))
            gates = fig_str(d, "%s, %s", gates, m[i].carry);
    p->x = (plot_axis){.label = fig_str(d, "half-life from the unit's mean carry gate %s: "
                                           "ln ½ / ln mean (steps)",
                                        gates),
                       .log = 1};
    p->y = (plot_axis){.label = "measured half-life of the unit's own decay (steps)", .log = 1};
    int none = 0;
    for (int i = 0; i < n; i++) {
        names[i] = m[i].model;
        none += one_model(d, p, &m[i], i, K).none;
    }
    p->ref[p->nref++] = (plot_ref){"measured = gate (y = x)", 1, 0, PLOT_SOLID};
    p->ref[p->nref++] = (plot_ref){"measured = 2 × gate (y = 2x)", 2, 0, PLOT_DASHED};
    p->ref[p->nref++] = (plot_ref){fig_str(d, "the horizon K = %d", K), 0, K, PLOT_DOTTED};
    const char *own = fig_str(d, "Each unit's half-life from its mean carry gate against the "
                                 "half-life of its own decay after the report's edits%s",
                              none ? fig_str(d, " (%d unit%s without a measured decay or with "
                                                "a carry gate of 1 not drawn)",
                                             none, none == 1 ? "" : "s")
                                   : "");
    d->plot->caption = fig_caption(d, own, names, n, w);
    return fig_end(d, e);
}
