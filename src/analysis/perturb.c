/* Perturbation curves: an original text and its edits stepped together as one batch, the
 * differences of the chosen layer measured at each step, and the forget-only
 * prediction rolled forward with the original run's carry gates. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/x86.h"
#include "gatetui/perturb.h"

int perturb_init(gt_perturb *p, const gt_model *m, int layer, int kmax, int max_edits,
                 gt_error *e)
{
    memset(p, 0, sizeof *p);
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "perturbation: layer %d, the model has %d", layer,
                       m->layers);
    if (kmax < 0 || max_edits < 1)
        return gt_fail(e, GT_EINPUT, "perturbation: horizon %d, %d edits", kmax, max_edits);
    int rc = batch_init(&p->b, m, layer, 2 * max_edits + 1, e);
    if (rc)
        return rc;
    p->m = m;
    p->layer = layer;
    p->kmax = p->horizon = kmax;
    p->cap = max_edits;
    p->units = 1;
    p->linearized = 1;
    /* the layer's units; T: those of layers 0..layer */
    const size_t H = (size_t)model_width(m, layer), K1 = (size_t)kmax + 1, n = (size_t)max_edits;
    const size_t T = m->layer[layer].off + H;
    if ((rc = tangent_new(&p->tg, m, layer, max_edits, e))) {
        perturb_free(p);
        return rc;
    }
    p->prev = malloc(2 * T * sizeof *p->prev);
    p->pts = malloc(((size_t)layer + 1) * sizeof *p->pts);
    p->res = calloc(n, sizeof *p->res);
    p->store = malloc(n * (4 * K1 + H) * sizeof *p->store);
    p->ibuf = malloc(n * 2 * H * sizeof *p->ibuf);
    p->prod = malloc(H * sizeof *p->prod);
    p->tok = malloc((2 * n + 1) * sizeof *p->tok);
    p->fo_acc = malloc(n * H * sizeof *p->fo_acc);
    p->later = malloc(2 * n * sizeof *p->later);
    if (!p->res || !p->store || !p->ibuf || !p->prod || !p->tok || !p->prev || !p->pts ||
        !p->fo_acc || !p->later) {
        perturb_free(p);
        return gt_fail(e, GT_EFAIL, "out of memory for %d perturbations", max_edits);
    }
    p->inj = p->later + n;
    for (size_t x = 0; x < n; x++) {
        gt_perturb_result *r = &p->res[x];
        double *s = p->store + x * (4 * K1 + H);
        r->dc = m->cell->has_c ? s : NULL;
        r->dh = s + K1;
        r->fo = s + 2 * K1;
        r->d0 = s + 3 * K1;
        r->lin = s + 3 * K1 + H;
        r->last = p->ibuf + x * 2 * H;
        r->last_fo = p->ibuf + x * 2 * H + H;
    }
    return GT_OK;
}

void perturb_free(gt_perturb *p)
{
    batch_free(&p->b);
    tangent_free(p->tg);
    free(p->prev);
    free(p->pts);
    free(p->res);
    free(p->store);
    free(p->ibuf);
    free(p->prod);
    free(p->tok);
    free(p->fo_acc);
    free(p->later);
    memset(p, 0, sizeof *p);
}

int perturb_use_float32(gt_perturb *p, gt_error *e)
{
    int rc = batch_use_float32(&p->b, e);
    return rc ? rc : tangent_use_float32(p->tg, e);
}

void perturb_set_horizon(gt_perturb *p, int horizon)
{
    p->horizon = horizon < 0 ? 0 : horizon > p->kmax ? p->kmax : horizon;
}

double perturb_ratio(const double *measured, const double *forget_only, int K, int *k_at)
{
    *k_at = -1;
    if (!(measured[0] > 0))
        return NAN;
    int k = K;
    while (k > 0 && !(measured[k] >= PERTURB_FLOOR * measured[0]))
        k--;
    if (!(forget_only[k] > 0))
        return NAN;
    *k_at = k;
    return measured[k] / forget_only[k];
}

double perturb_halflife(const double *curve, int K)
{
    if (!(curve[0] > 0))
        return PERTURB_NONE;
    double prev = 1.0;
    for (int k = 1; k <= K; k++) {
        double r = curve[k] / curve[0];
        if (r <= 0.5) {
            if (r <= 0)
                return k - 1;
            return k - 1 + log(prev / 0.5) / log(prev / r);
        }
        prev = r;
    }
    return PERTURB_NONE;
}

int perturb_kept(const gt_perturb_result *r)
{
    /* an RNN's forget-only curve is NAN (it has no carry gate): only its h must move */
    return (isnan(r->fo[0]) || r->fo[0] > 0) && r->dh[0] > 0 && (!r->dc || r->dc[0] > 0);
}

/* Four doubles read and written at any alignment, and their bits. */
typedef double pv4d __attribute__((vector_size(32), aligned(8)));
typedef long long pv4l __attribute__((vector_size(32), aligned(8)));

/* hi + lo += |ed - base| element by element (compensated: perturb_sum_add's operations on
 * four at a time), for AVX2 and the baseline (compute/x86.h), the same numbers from both
 * and from the scalar loop. */
GT_CLONES_AVX2 static void abs_add(size_t n, double *restrict hi, double *restrict lo,
                                   const double *restrict ed, const double *restrict base)
{
    const pv4l mag = {0x7FFFFFFFFFFFFFFFLL, 0x7FFFFFFFFFFFFFFFLL, 0x7FFFFFFFFFFFFFFFLL,
                      0x7FFFFFFFFFFFFFFFLL};
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const pv4d h = *(const pv4d *)(hi + j), d = *(const pv4d *)(ed + j) -
                                                    *(const pv4d *)(base + j);
        const pv4d x = (pv4d)((pv4l)d & mag), sum = h + x, bb = sum - h;
        *(pv4d *)(lo + j) += (h - (sum - bb)) + (x - bb);
        *(pv4d *)(hi + j) = sum;
    }
    for (; j < n; j++)
        perturb_sum_add(&hi[j], &lo[j], fabs(ed[j] - base[j]));
}

/* Each unit's |D_j(k)| of a kept edit into p->unit_abs. */
static void unit_abs_add(gt_perturb *p, int x, int k, const double *ed, const double *base)
{
    if (!perturb_kept(&p->res[x]))
        return;
    const size_t H = (size_t)model_width(p->m, p->layer), off = (size_t)k * H;
    abs_add(H, p->unit_abs + off, p->unit_abs + ((size_t)p->kmax + 1) * H + off, ed, base);
}

static double norm_diff(const double *restrict a, const double *restrict b, size_t n)
{
    double s0 = 0, s1 = 0; /* two sums: twice the throughput */
    size_t j = 0;
    for (; j + 1 < n; j += 2) {
        double d0 = a[j] - b[j], d1 = a[j + 1] - b[j + 1];
        s0 += d0 * d0;
        s1 += d1 * d1;
    }
    if (j < n)
        s0 += (a[j] - b[j]) * (a[j] - b[j]);
    return sqrt(s0 + s1);
}

/* ---- the linearized curve ---- */

/* The units of layers 0..upto of p's model: the room of one of h or c in p->prev. */
static size_t lin_units(const gt_perturb *p)
{
    return p->m->layer[p->layer].off + (size_t)model_width(p->m, p->layer);
}

/* The original run's h and c on layers 0..layer, before a step: layer k's h at off_k, its c
 * at lin_units + off_k. */
static void lin_save(gt_perturb *p)
{
    const size_t T = lin_units(p);
    for (int k = 0; k <= p->layer; k++) {
        const size_t H = (size_t)model_width(p->m, k), off = p->m->layer[k].off;
        memcpy(p->prev + off, batch_h(&p->b, k, 0), H * sizeof *p->prev);
        memcpy(p->prev + T + off, batch_c(&p->b, k, 0), H * sizeof *p->prev);
    }
}

/* After the edited step: tangent x is edit x's difference from the original on every layer;
 * after a later one, the tangents carried over it. */
static void lin_step(gt_perturb *p, int k, int nedits)
{
    const size_t T = lin_units(p);
    gt_batch *b = &p->b;
    if (k == 0) {
        for (int x = 0; x < nedits; x++)
            for (int q = 0; q <= p->layer; q++) {
                const size_t H = (size_t)model_width(p->m, q);
                double *dh = tangent_h(p->tg, q, x), *dc = tangent_c(p->tg, q, x);
                const double *h = batch_h(b, q, x + 1), *h0 = batch_h(b, q, 0);
                const double *c = batch_c(b, q, x + 1), *c0 = batch_c(b, q, 0);
                for (size_t j = 0; j < H; j++) {
                    dh[j] = h[j] - h0[j];
                    dc[j] = c[j] - c0[j];
                }
            }
        return;
    }
    for (int q = 0; q <= p->layer; q++)
        p->pts[q] = (gt_step_point){p->prev + p->m->layer[q].off,
                                    p->prev + T + p->m->layer[q].off, batch_gates(b, q, 0),
                                    batch_c(b, q, 0), NULL};
    tangent_step(p->tg, nedits, p->pts);
}

static double norm(const double *v, size_t n)
{
    double s = 0;
    for (size_t j = 0; j < n; j++)
        s += v[j] * v[j];
    return sqrt(s);
}

/* Step k of edit x's curves: its differences in c and h, its forget-only curve from the
 * products of the carry gate, and with p->units each unit's last lag above half its start. */
static void measure_edit(gt_perturb *p, int x, int k, const double *base)
{
    gt_batch *b = &p->b;
    const int lay = p->layer, lstm = p->m->cell->has_c;
    const size_t H = (size_t)model_width(p->m, lay);
    gt_perturb_result *r = &p->res[x];
    double *dc = (double *)r->dc, *dh = (double *)r->dh, *fo = (double *)r->fo;
    double *restrict d0 = (double *)r->d0;
    const double *restrict ed = lstm ? batch_c(b, lay, x + 1) : batch_h(b, lay, x + 1);
    if (batch_diff_norms(b)) {
        if (lstm)
            dc[k] = sqrt(b->dn2[2 * (x + 1)]);
        dh[k] = sqrt(b->dn2[2 * (x + 1) + 1]);
    } else {
        if (lstm)
            dc[k] = norm_diff(batch_c(b, lay, x + 1), batch_c(b, lay, 0), H);
        dh[k] = norm_diff(batch_h(b, lay, x + 1), batch_h(b, lay, 0), H);
    }
    const double *acc = p->later[x] ? p->fo_acc + (size_t)x * H : NULL;
    if (!p->units) { /* the curves alone */
        double s0 = 0, s1 = 0;
        if (k == 0)
            for (size_t j = 0; j < H; j++)
                d0[j] = ed[j] - base[j];
        if (acc) {
            fo[k] = norm(acc, H);
            if (p->unit_abs)
                unit_abs_add(p, x, k, ed, base);
            return;
        }
        for (size_t j = 0; j + 1 < H; j += 2) {
            double f0 = d0[j] * p->prod[j], f1 = d0[j + 1] * p->prod[j + 1];
            s0 += f0 * f0;
            s1 += f1 * f1;
        }
        if (H & 1)
            s0 += d0[H - 1] * p->prod[H - 1] * d0[H - 1] * p->prod[H - 1];
        fo[k] = sqrt(s0 + s1);
        if (p->unit_abs)
            unit_abs_add(p, x, k, ed, base);
        return;
    }
    int *last = (int *)r->last, *last_fo = (int *)r->last_fo;
    double s = 0;
    for (size_t j = 0; j < H; j++) {
        double d = ed[j] - base[j];
        if (k == 0) {
            d0[j] = d;
            last[j] = last_fo[j] = d != 0 ? 0 : -1;
        } else if (d0[j] != 0) {
            if (fabs(d) >= 0.5 * fabs(d0[j]))
                last[j] = k;
            if (p->prod[j] >= 0.5)
                last_fo[j] = k;
        }
        double f = d0[j] * p->prod[j];
        s += f * f;
    }
    fo[k] = acc ? norm(acc, H) : sqrt(s);
    if (p->unit_abs)
        unit_abs_add(p, x, k, ed, base);
}

/* v += a - b over n. */
static void add_diff(double *restrict v, const double *restrict a, const double *restrict b,
                     size_t n)
{
    for (size_t j = 0; j < n; j++)
        v[j] += a[j] - b[j];
}

/* Edit x's forget-only vector after this step (carry: the original's carry gate here, base
 * its carried state): once a later step differed, the vector carried by the gate, plus this
 * step's own difference where it differs again; until then D0 f_{s+1}...f_{s+k} (from d0
 * and p->prod: measure_edit). */
static void forget_only_later(gt_perturb *p, int x, const double *carry, const double *base)
{
    const int lay = p->layer, lstm = p->m->cell->has_c;
    const size_t H = (size_t)model_width(p->m, lay);
    double *acc = p->fo_acc + (size_t)x * H;
    if (p->later[x])
        for (size_t j = 0; j < H; j++)
            acc[j] *= carry[j];
    const int it = p->inj[x];
    if (it < 0)
        return;
    if (!p->later[x]) { /* the first edit's part so far */
        const double *d0 = p->res[x].d0;
        for (size_t j = 0; j < H; j++)
            acc[j] = d0[j] * p->prod[j];
        p->later[x] = 1;
    }
    add_diff(acc, lstm ? batch_c(&p->b, lay, it) : batch_h(&p->b, lay, it), base, H);
}

/* An RNN's result: no carry gate, so no forget-only curve (NAN) and no unit's last lag of
 * one (-1). */
static void no_forget_only(gt_perturb_result *r, int K, size_t H)
{
    for (int k = 0; k <= K; k++)
        ((double *)r->fo)[k] = NAN;
    for (size_t j = 0; j < H; j++)
        ((int *)r->last_fo)[j] = -1;
}

int perturb_run(gt_perturb *p, const float *h0, const float *c0, const uint16_t *orig,
                const uint16_t *const *edited, int nedits, size_t n)
{
    if (n == 0 || nedits < 1 || nedits > p->cap)
        return -1;
    gt_batch *b = &p->b;
    const int lay = p->layer, lstm = p->m->cell->has_c, rnn = p->m->cell->carry < 0;
    const size_t H = (size_t)model_width(p->m, lay);
    const int K = (size_t)p->horizon < n - 1 ? p->horizon : (int)(n - 1);
    for (int i = 0; i <= nedits; i++)
        batch_set_state(b, i, h0, c0);
    for (int x = 0; x < nedits; x++)
        p->later[x] = 0;
    const size_t T = lin_units(p);
    for (int k = 0; k <= K; k++) {
        p->tok[0] = orig[k];
        int items = nedits + 1; /* then an item for each edit that differs again here */
        for (int x = 0; x < nedits; x++) {
            p->tok[x + 1] = edited[x][k];
            p->inj[x] = -1;
            if (k > 0 && edited[x][k] != orig[k]) {
                p->inj[x] = items;
                p->tok[items++] = edited[x][k];
            }
        }
        if ((p->linearized || items > nedits + 1) && k > 0)
            lin_save(p);
        for (int x = 0; x < nedits; x++) /* from the original's state before this step */
            if (p->inj[x] >= 0)
                batch_set_state64(b, p->inj[x], p->prev, p->prev + T);
        batch_step(b, items, p->tok);
        if (p->linearized) {
            lin_step(p, k, nedits);
            for (int x = 0; x < nedits; x++) {
                if (p->inj[x] >= 0) /* this step's own difference joins the tangent */
                    for (int q = 0; q <= lay; q++) {
                        const size_t Hq = (size_t)model_width(p->m, q);
                        add_diff(tangent_h(p->tg, q, x), batch_h(b, q, p->inj[x]),
                                 batch_h(b, q, 0), Hq);
                        if (lstm)
                            add_diff(tangent_c(p->tg, q, x), batch_c(b, q, p->inj[x]),
                                     batch_c(b, q, 0), Hq);
                    }
                ((double *)p->res[x].lin)[k] =
                    norm(lstm ? tangent_c(p->tg, lay, x) : tangent_h(p->tg, lay, x), H);
            }
        }
        /* the carried state: c (LSTM) or h (GRU, RNN); its gate, f or z (the cell's carry
           gate); an RNN has none (its products stay 1 and its forget-only curve is NAN) */
        const double *base = lstm ? batch_c(b, lay, 0) : batch_h(b, lay, 0);
        const double *carry =
            rnn ? NULL : batch_gates(b, lay, 0) + (size_t)p->m->cell->carry * H;
        for (size_t j = 0; j < H; j++)
            p->prod[j] = k == 0 || !carry ? 1.0 : p->prod[j] * carry[j];
        for (int x = 0; x < nedits && carry; x++)
            forget_only_later(p, x, carry, base);
        for (int x = 0; x < nedits; x++)
            measure_edit(p, x, k, base);
    }
    for (int x = 0; x < nedits; x++) {
        gt_perturb_result *r = &p->res[x];
        r->K = K;
        if (rnn)
            no_forget_only(r, K, p->units ? H : 0);
        r->hl_c = lstm ? perturb_halflife(r->dc, K) : PERTURB_NONE;
        r->hl_h = perturb_halflife(r->dh, K);
        r->hl_fo = perturb_halflife(r->fo, K);
        r->hl_lin = p->linearized ? perturb_halflife(r->lin, K) : PERTURB_NONE;
    }
    p->nres = nedits;
    return 0;
}

const gt_perturb_result *perturb_one(gt_perturb *p, const float *h0, const float *c0,
                                     const uint16_t *orig, const uint16_t *edited, size_t n)
{
    const uint16_t *ed[1] = {edited};
    return perturb_run(p, h0, c0, orig, ed, 1, n) ? NULL : &p->res[0];
}
