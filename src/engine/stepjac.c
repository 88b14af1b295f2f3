/* The derivative of a step (see stepjac.h), formed row by row: the rows and the step's
 * coefficients are the cell's (its descriptor, gatetui/cell.h); here what every cell
 * shares. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "compute/x86.h"
#include "engine/stepjac_impl.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

void stepjac_free(gt_stepjac *s)
{
    if (!s)
        return;
    if (s->whn)
        mat64_free(s->whn);
    if (s->wrT)
        mat64_free(s->wrT);
    free(s->whn);
    free(s->wrT);
    free(s->b_hn);
    free(s);
}

int stepjac_new(gt_stepjac **out, const gt_model *m, int layer, int with_input, gt_error *e)
{
    *out = NULL;
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "tangent map: layer %d, the model has %d", layer, m->layers);
    gt_stepjac *s = calloc(1, sizeof *s);
    if (!s)
        return gt_fail(e, GT_EFAIL, "out of memory for the tangent map of layer %d", layer);
    const gt_layer *ly = &m->layer[layer];
    s->m = m;
    s->layer = layer;
    s->H = ly->hidden;
    s->D = ly->in_dim;
    s->with_input = with_input;
    s->rows = m->cell->state * s->H;
    s->cols = s->H + (with_input ? s->D : 0);
    s->ablated = m->ablated ? m->ablated + ly->off : NULL;
    if (m->cell->sj_init && m->cell->sj_init(s, ly)) {
        stepjac_free(s);
        return gt_fail(e, GT_EFAIL, "out of memory for the tangent map of layer %d", layer);
    }
    *out = s;
    return GT_OK;
}

int stepjac_nrows(const gt_stepjac *s)
{
    return s->rows;
}

int stepjac_ncols(const gt_stepjac *s)
{
    return s->cols;
}

void stepjac_work_at(gt_stepjac_work *w, const gt_stepjac *s, double *v)
{
    const gt_celltype *cl = s->m->cell;
    w->v = v;
    w->f = cl->sj_f >= 0 ? v + (size_t)cl->sj_f * (size_t)s->H : NULL;
    w->u = cl->sj_u >= 0 ? v + (size_t)cl->sj_u * (size_t)s->H : NULL;
}

int stepjac_work_init(gt_stepjac_work *w, const gt_stepjac *s, gt_error *e)
{
    memset(w, 0, sizeof *w);
    /* room for the widest layer's, and for columns of s's or two layers' */
    const size_t H = (size_t)s->m->hidden_max;
    const size_t cols = (size_t)s->cols > 2 * H ? (size_t)s->cols : 2 * H;
    const int second = s->m->cell->rec_blocks < s->m->cell->gates;
    double *v = calloc(STEPJAC_COEFS * H, sizeof *w->v);
    if (second) {
        w->G = malloc(H * cols * sizeof *w->G);
        w->X = malloc(H * H * sizeof *w->X);
    }
    stepjac_work_at(w, s, v);
    if (!w->v || (second && (!w->G || !w->X))) {
        stepjac_work_free(w);
        return gt_fail(e, GT_EFAIL, "out of memory for the tangent map");
    }
    return GT_OK;
}

void stepjac_work_free(gt_stepjac_work *w)
{
    free(w->v);
    free(w->G);
    free(w->X);
    memset(w, 0, sizeof *w);
}

/* An ablated unit's c and h are set to 0 after the step, whatever the state before it: the
 * step is s -> (s after the cell, those units 0), and its derivative's rows of those units
 * (their c's and h's) are 0 (doc/measures.md, "Interventions"). The cell's coefficients that
 * scale a unit's own rows alone (gt_celltype.sj_own) are set to 0 at such a unit, so that
 * every user of the coefficients, M's rows, f and u or the cell's tangent_one, has them 0;
 * the columns, the other units' derivative through h_j, stay as they are. */
static void zero_ablated(const gt_stepjac *s, gt_stepjac_work *w)
{
    const size_t H = (size_t)s->H;
    const unsigned own = s->m->cell->sj_own;
    for (size_t j = 0; j < H; j++) {
        if (!s->ablated[j])
            continue;
        for (size_t b = 0; b < STEPJAC_COEFS; b++)
            if (own >> b & 1u)
                w->v[b * H + j] = 0.0;
    }
}

void stepjac_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    stepjac_work_at(w, s, w->v); /* f and u at this layer's places */
    s->m->cell->sj_prepare(s, w, pt);
    if (s->ablated)
        zero_ablated(s, w);
}

void stepjac_carry(const gt_stepjac *s, const double *gates, double *out)
{
    const size_t H = (size_t)s->H;
    const int carry = s->m->cell->carry;
    for (size_t j = 0; j < H; j++)
        out[j] = carry < 0                        ? NAN
                 : s->ablated && s->ablated[j] ? 0.0
                                               : gates[(size_t)carry * H + j];
}

void stepjac_rows(const gt_stepjac *s, gt_stepjac_work *w, int r0, int r1)
{
    if (s->m->cell->sj_rows && r1 > r0)
        s->m->cell->sj_rows(s, w, r0, r1);
}

void stepjac_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
{
    s->m->cell->sj_row(s, w, r, row);
}

/* For AVX2 and the baseline (compute/x86.h), the same numbers from both. */
GT_CLONES_AVX2 void stepjac_comb3(size_t n, double *restrict out, double a,
                                  const float *restrict W1, double b, const float *restrict W2,
                                  double c, const float *restrict W3)
{
    if (W3) {
        for (size_t j = 0; j < n; j++)
            out[j] = a * W1[j] + b * W2[j] + c * W3[j];
    } else {
        for (size_t j = 0; j < n; j++)
            out[j] = a * W1[j] + b * W2[j];
    }
}
