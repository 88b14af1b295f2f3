/* The Lyapunov figure (kinds.h; doc/figures.md): each model's exponents, largest first,
 * with their 95% intervals (1.96 standard errors by batch means), against zero. */
#include "config.h"

#include <math.h>

#include "analysis/jsonout.h"
#include "figure/figdoc.h"

static void one_model(fig_doc *d, plot_panel *p, const fig_spectrum *m, int i)
{
    const gt_lyapunov *l = m->l;
    const int M = l->modes;
    double *v = fig_alloc(d, 3 * (size_t)M * sizeof *v), *y = fig_copy(d, l->exponent, M);
    plot_series *s = fig_series(p);
    if (!v || !y || !s)
        return;
    double *x = v, *lo = v + M, *hi = v + 2 * M; /* all the figure's own: l is not kept */
    for (int j = 0; j < M; j++) {
        x[j] = j + 1;
        const double hw = LYAPUNOV_Z95 * l->se[j];
        lo[j] = l->exponent[j] - hw; /* NAN when there is no standard error */
        hi[j] = l->exponent[j] + hw;
        fig_csv_text(d, m->model);
        fig_csv_count(d, j + 1);
        fig_csv_num(d, l->exponent[j]);
        fig_csv_num(d, l->se[j]);
        fig_csv_num(d, lo[j]);
        fig_csv_num(d, hi[j]);
        fig_csv_end(d);
    }
    const double slow = l->halflife[0];
    const double x1 = l->exponent[0];
    const char *hl = isnan(slow) ? "" : fig_str(d, " (t½ %.1f)", slow);
    *s = (plot_series){.label = fig_str(d, "%s: λ₁ = %s%.4f%s", m->model, x1 < 0 ? "−" : "",
                                        fabs(x1), hl),
                       .line = 1, .colour = fig_colour(i), .dash = i % PLOT_DASHES,
                       .marker = fig_marker(i), .mark_every = 1, .n = M, .x = x,
                       .y = y, .ylo = lo, .yhi = hi};
}

int fig_lyapunov(fig_doc *d, const fig_spectrum *m, int n, const fig_where *w, gt_error *e)
{
    int rc = fig_begin(d, 1, "model,index,exponent,stderr,lo,hi", JSONOUT_JACOBIAN, e);
    if (rc)
        return rc;
    plot_panel *p = &d->plot->panel[0];
    p->x = (plot_axis){.label = "i: the exponents, largest first", .integer = 1};
    p->y = (plot_axis){.label = w->words ? "exponent λᵢ per token"
                                         : "exponent λᵢ per character"};
    const char *names[FIG_MAX_MODELS];
    n = n < FIG_MAX_MODELS ? n : FIG_MAX_MODELS;
    for (int i = 0; i < n; i++) {
        names[i] = m[i].model;
        one_model(d, p, &m[i], i);
    }
    p->ref[p->nref++] = (plot_ref){"0: neither growing nor shrinking", 0, 0, PLOT_DOTTED};
    const gt_lyapunov *l = n > 0 ? m[0].l : NULL;
    char n1[32], n2[32];
    const char *own =
        l ? fig_str(d, "The Lyapunov spectrum of the layer's state along the text (the "
                       "Jacobians of steps 1..%s, the means over steps %s..%s), each exponent "
                       "with its 95%% interval (%.2f standard errors by batch means over %d "
                       "batches)",
                    report_commas(l->steps, n1, sizeof n1),
                    report_commas(l->warmup + 1, n2, sizeof n2), n1, LYAPUNOV_Z95,
                    LYAPUNOV_BATCHES)
          : "The Lyapunov spectrum";
    d->plot->caption = fig_caption(d, own, names, n, w);
    return fig_end(d, e);
}
