/* The unit table from the report's sums (doc/measures.md, "The unit table"). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/unittable.h"
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

int unittable_build(gt_report *r, const unittable_sums *s, gt_error *e)
{
    const gt_model *m = r->m;
    const size_t H = (size_t)model_width(m, r->layer), G = (size_t)r->ngates, P = r->positions;
    const int has_carry = r->carry >= 0 && r->carry < r->ngates; /* an RNN has none */
    r->unit_table = calloc(H, sizeof *r->unit_table);
    double *curve = malloc(((size_t)r->K + 1) * sizeof *curve);
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
    }
    free(curve);
    return GT_OK;
}
