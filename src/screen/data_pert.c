/* The last edit's perturbation for the screen (see data_pert.h). */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/data_pert.h"

/* r's curves pointed at this view's arrays, its per-unit values at none. */
static void own_curves(gt_data_pert *pv)
{
    const size_t K1 = DATA_PERT_KMAX + 1;
    pv->r.dc = pv->curves;
    pv->r.dh = pv->curves + K1;
    pv->r.fo = pv->curves + 2 * K1;
    pv->r.lin = pv->curves + 3 * K1;
    pv->r.d0 = NULL;
    pv->r.last = pv->r.last_fo = NULL;
}

int data_pert_init(gt_data_pert *pv, const gt_model *m, gt_error *e)
{
    memset(pv, 0, sizeof *pv);
    pv->m = m;
    pv->horizon = DATA_PERT_KDEFAULT;
    pv->p_layer = -1;
    pv->lstm = m->cell->has_c;
    const size_t K1 = DATA_PERT_KMAX + 1, LH = (size_t)m->hidden_total;
    pv->curves = calloc(4 * K1, sizeof *pv->curves);
    pv->h0 = malloc(LH * sizeof *pv->h0);
    pv->c0 = malloc(LH * sizeof *pv->c0);
    pv->orig = malloc(K1 * sizeof *pv->orig);
    pv->now = malloc(K1 * sizeof *pv->now);
    pv->idx = malloc((size_t)m->hidden_max * sizeof *pv->idx); /* any layer's */
    if (!pv->curves || !pv->h0 || !pv->c0 || !pv->orig || !pv->now || !pv->idx) {
        data_pert_free(pv);
        return gt_fail(e, GT_EFAIL, "out of memory for the perturbation");
    }
    own_curves(pv);
    return GT_OK;
}

void data_pert_free(gt_data_pert *pv)
{
    if (pv->m && pv->p_layer >= 0)
        perturb_free(&pv->p);
    free(pv->curves);
    free(pv->h0);
    free(pv->c0);
    free(pv->orig);
    free(pv->now);
    free(pv->idx);
    memset(pv, 0, sizeof *pv);
    pv->p_layer = -1;
}

/* Longest-lasting first; then the larger difference at k = 0; then the unit number (ctx:
 * the result). */
static int by_last(const void *a, const void *b, void *ctx)
{
    int x = *(const int *)a, y = *(const int *)b;
    const gt_perturb_result *r = ctx;
    if (r->last[x] != r->last[y])
        return r->last[x] > r->last[y] ? -1 : 1;
    double dx = fabs(r->d0[x]), dy = fabs(r->d0[y]);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return x - y;
}

void data_pert_model_changed(gt_data_pert *pv)
{
    if (pv->p_layer >= 0)
        perturb_free(&pv->p);
    pv->p_layer = -1;
    pv->valid = 0;
}

int data_pert_update(gt_data_pert *pv, gt_trace *tr, int layer, int K, gt_error *e)
{
    pv->horizon = K < DATA_PERT_KMIN ? DATA_PERT_KMIN : K > DATA_PERT_KMAX ? DATA_PERT_KMAX : K;
    size_t n = trace_edit_count(tr);
    pv->valid = 0;
    pv->ntop = 0;
    if (!n)
        return GT_OK;
    const gt_model *m = pv->m;
    if (pv->p_layer != layer) {
        if (pv->p_layer >= 0)
            perturb_free(&pv->p);
        pv->p_layer = -1;
        int rc = perturb_init(&pv->p, m, layer, DATA_PERT_KMAX, 1, e);
        if (rc)
            return rc;
        pv->p_layer = layer;
    }
    const gt_edit *ed = trace_edit_at(tr, n - 1);
    size_t s = ed->step, T = trace_steps(tr);
    if (pv->all) { /* from the first step still edited (none: nothing differs) */
        s = trace_next_edited(tr, 0);
        if (s >= T)
            return GT_OK;
    }
    size_t len = T - s < (size_t)pv->horizon + 1 ? T - s : (size_t)pv->horizon + 1;
    int rc = trace_state_before(tr, s, pv->h0, pv->c0, e);
    if (rc)
        return rc;
    trace_read(tr, s, len, pv->now);
    pv->nedits = 0;
    if (pv->all) { /* the text as loaded */
        for (size_t i = 0; i < len; i++) {
            pv->orig[i] = (uint16_t)trace_original_at(tr, s + i);
            pv->nedits += pv->orig[i] != pv->now[i];
        }
    } else { /* the text before this edit: the tokens as they are with the edited one put back */
        memcpy(pv->orig, pv->now, len * sizeof *pv->orig);
        pv->orig[0] = (uint16_t)ed->old_tok;
        pv->nedits = 1;
    }
    perturb_set_horizon(&pv->p, pv->horizon);
    const gt_perturb_result *r = perturb_one(&pv->p, pv->h0, pv->c0, pv->orig, pv->now, len);
    if (!r)
        return gt_fail(e, GT_EFAIL, "perturbation at step %zu failed", s);
    const size_t K1 = (size_t)r->K + 1, KM = DATA_PERT_KMAX + 1;
    if (r->dc)
        memcpy(pv->curves, r->dc, K1 * sizeof *pv->curves);
    memcpy(pv->curves + KM, r->dh, K1 * sizeof *pv->curves);
    memcpy(pv->curves + 2 * KM, r->fo, K1 * sizeof *pv->curves);
    memcpy(pv->curves + 3 * KM, r->lin, K1 * sizeof *pv->curves);
    pv->r = *r; /* K and the half-lives; the curves then pointed at the copies */
    own_curves(pv);
    pv->step = s;
    pv->old_tok = pv->orig[0];
    pv->new_tok = pv->now[0];
    pv->layer = layer;
    int H = model_width(m, layer), cnt = 0;
    for (int j = 0; j < H; j++)
        if (r->d0[j] != 0)
            pv->idx[cnt++] = j;
    qsort_r(pv->idx, (size_t)cnt, sizeof *pv->idx, by_last, (void *)r);
    for (int i = 0; i < cnt && i < DATA_PERT_TOP; i++) {
        int j = pv->idx[i];
        pv->top[i] = j;
        pv->top_last[i] = r->last[j];
        pv->top_last_fo[i] = r->last_fo[j];
        pv->top_d0[i] = r->d0[j];
        pv->ntop = i + 1;
    }
    pv->valid = 1;
    return GT_OK;
}

double data_pert_ratio(const gt_data_pert *pv, int kmax, int *k_at)
{
    *k_at = -1;
    if (!pv->valid)
        return NAN;
    const int K = kmax >= 1 && kmax < pv->r.K ? kmax : pv->r.K;
    return perturb_ratio(pv->lstm ? pv->r.dc : pv->r.dh, pv->r.fo, K, k_at);
}

void data_pert_unpin(gt_pert_pin *p)
{
    free(p->curves);
    memset(p, 0, sizeof *p);
}

int data_pert_pin_alloc(gt_pert_pin *p, int K, gt_error *e)
{
    data_pert_unpin(p);
    const size_t K1 = (size_t)K + 1;
    p->curves = calloc(4 * K1, sizeof *p->curves);
    if (!p->curves)
        return gt_fail(e, GT_EFAIL, "out of memory for the pinned curves");
    p->r.K = K;
    p->r.dc = p->curves;
    p->r.dh = p->curves + K1;
    p->r.fo = p->curves + 2 * K1;
    p->r.lin = p->curves + 3 * K1;
    return GT_OK;
}

int data_pert_pin(gt_pert_pin *p, const gt_data_pert *pv, const char *what, gt_error *e)
{
    const int K = pv->r.K;
    int rc = data_pert_pin_alloc(p, K, e);
    if (rc)
        return rc;
    const size_t K1 = (size_t)K + 1;
    const double *from[4] = {pv->r.dc, pv->r.dh, pv->r.fo, pv->r.lin};
    for (int i = 0; i < 4; i++)
        memcpy(p->curves + i * K1, from[i], K1 * sizeof *p->curves);
    const gt_perturb_result r = p->r;
    p->r = pv->r;
    p->r.dc = r.dc;
    p->r.dh = r.dh;
    p->r.fo = r.fo;
    p->r.lin = r.lin;
    p->step = pv->step;
    p->old_tok = pv->old_tok;
    p->new_tok = pv->new_tok;
    p->all = pv->all;
    p->nedits = pv->nedits;
    p->layer = pv->layer;
    p->lstm = pv->lstm;
    p->horizon = pv->horizon;
    snprintf(p->what, sizeof p->what, "%s", what ? what : "");
    p->valid = 1;
    return GT_OK;
}

int data_pert_pin_shown(const gt_pert_pin *p, const gt_data_pert *pv)
{
    return p->valid && pv->valid && !data_pert_pin_same(p, pv) && p->layer == pv->layer &&
           p->r.K == pv->r.K;
}

int data_pert_pin_same(const gt_pert_pin *p, const gt_data_pert *pv)
{
    const size_t K1 = (size_t)p->r.K + 1;
    return p->valid && pv->valid && p->step == pv->step && p->old_tok == pv->old_tok &&
           p->new_tok == pv->new_tok && p->all == pv->all && p->layer == pv->layer &&
           p->r.K == pv->r.K && !memcmp(p->r.dh, pv->r.dh, K1 * sizeof *p->r.dh);
}
