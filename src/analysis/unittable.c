/* The unit table from the report's sums (doc/measures.md, "The unit table"). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/unittable.h"
#include "gatetui/interval.h"
#include "gatetui/perturb.h"
#include "gatetui/stats.h"

/* ln 0.5 / ln sigmoid(b_ih + b_hh) at row `row` of the layer (1.0 without biases). */
static double bias_halflife(const gt_layer *ly, size_t row)
{
    double b = (double)ly->b_ih[row] + (double)ly->b_hh[row];
    return stats_halflife(1.0 / (1.0 + exp(-b)));
}

/* Unit j's measured half-life: its decay sum_pairs |D_j(k)| against k = 0. */
static double measured_halflife(const double *abs_sum, int K, size_t H, size_t j,
                                double *curve)
{
    const size_t K1 = (size_t)K + 1;
    for (size_t k = 0; k < K1; k++)
        curve[k] = abs_sum[k * H + j] + abs_sum[K1 * H + k * H + j];
    double hl = perturb_halflife(curve, K);
    return hl == PERTURB_NONE ? NAN : hl;
}

/* Unit j's measured half-life's interval by the jackknife over the windows that keep pairs
 * (doc/measures.md, "Error bars"): the half-life of its decay summed over every such window
 * but one (the sum over all less that window's); t: a scratch of the full windows' count. */
static void measured_interval(gt_unit_row *u, const gt_report *r, const unittable_sums *s,
                              size_t j, double *curve, double *t)
{
    const size_t H = (size_t)model_width(r->m, r->layer), K1 = (size_t)r->K + 1, n1 = K1 * H;
    const double *all = s->abs_sum;
    size_t n = 0;
    for (size_t w = 0; w < r->full_windows; w++) {
        if (!r->window[w].pairs)
            continue;
        const double *a = s->win_abs + w * 2 * n1;
        for (size_t k = 0; k < K1; k++) {
            size_t i = k * H + j;
            curve[k] = (all[i] - a[i]) + (all[n1 + i] - a[n1 + i]);
        }
        double h = perturb_halflife(curve, r->K);
        t[n++] = h == PERTURB_NONE ? NAN : h;
    }
    interval_jackknife(&u->measured_ci, u->halflife_measured, all[j] + all[n1 + j] > 0, t, n,
                       r->K);
}

int unittable_build(gt_report *r, const unittable_sums *s, gt_error *e)
{
    const gt_model *m = r->m;
    const size_t H = (size_t)model_width(m, r->layer), G = (size_t)r->ngates, P = r->positions;
    const int has_carry = r->carry >= 0 && r->carry < r->ngates; /* an RNN has none */
    r->unit_table = calloc(H, sizeof *r->unit_table);
    double *curve = malloc(((size_t)r->K + 1 + r->full_windows) * sizeof *curve);
    if (!r->unit_table || !curve) {
        free(curve);
        return gt_fail(e, GT_EFAIL, "out of memory for the unit table");
    }
    const gt_layer *ly = &m->layer[r->layer];
    for (size_t j = 0; j < H; j++) {
        gt_unit_row *u = &r->unit_table[j];
        for (size_t g = 0; g < G; g++) {
            double t = 0;
            for (size_t w = 0; w < s->nwin; w++)
                t += s->gate_sum[(w * G + g) * H + j];
            u->mean[g] = t / (double)P;
        }
        u->halflife = u->halflife_bias = u->left = u->right = NAN;
        if (has_carry) {
            size_t lo = 0, hi = 0;
            for (size_t w = 0; w < s->nwin; w++) {
                lo += s->sat[(w * 2) * H + j];
                hi += s->sat[(w * 2 + 1) * H + j];
            }
            u->left = (double)lo / (double)P;
            u->right = (double)hi / (double)P;
            u->halflife = stats_halflife(r->unit_mean[j]);
            u->halflife_bias = bias_halflife(ly, (size_t)r->gate[r->carry].block * H + j);
        }
        u->halflife_measured = s->abs_sum ? measured_halflife(s->abs_sum, r->K, H, j, curve)
                                          : NAN;
        interval_jackknife(&u->measured_ci, NAN, 0, NULL, 0, r->K);
        if (s->abs_sum && s->win_abs && r->window)
            measured_interval(u, r, s, j, curve, curve + r->K + 1);
    }
    free(curve);
    return GT_OK;
}
