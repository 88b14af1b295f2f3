/* Interventions as changes to a copy of the model's weights (intervene.h; doc/measures.md,
 * "Interventions"). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_impl.h"
#include "gatetui/intervene.h"

/* The carousel's f pre-activation is at least this: sigmoid rounds to 1 in double from
 * about 37 on, in float32 from about 17 on, below the kernels' clamps (88 and 708). */
#define CAROUSEL_MARGIN 64.0

int iv_init(gt_intervention *iv, const gt_model *m, gt_error *e)
{
    memset(iv, 0, sizeof *iv);
    iv->layers = m->layers;
    iv->units = m->hidden_total;
    iv->cell = m->cell;
    size_t LH = (size_t)m->hidden_total;
    iv->off = malloc(((size_t)m->layers + 1) * sizeof *iv->off);
    iv->shift = calloc(LH, sizeof *iv->shift);
    iv->ablate = calloc(LH, 1);
    iv->carousel = calloc((size_t)m->layers, 1);
    if (!iv->off || !iv->shift || !iv->ablate || !iv->carousel) {
        iv_free(iv);
        return gt_fail(e, GT_EFAIL, "out of memory for the interventions");
    }
    for (int k = 0; k < m->layers; k++)
        iv->off[k] = m->layer[k].off;
    iv->off[m->layers] = LH;
    return GT_OK;
}

void iv_free(gt_intervention *iv)
{
    free(iv->off);
    free(iv->shift);
    free(iv->ablate);
    free(iv->carousel);
    memset(iv, 0, sizeof *iv);
}

void iv_clear(gt_intervention *iv)
{
    size_t LH = (size_t)iv->units;
    memset(iv->shift, 0, LH * sizeof *iv->shift);
    memset(iv->ablate, 0, LH);
    memset(iv->carousel, 0, (size_t)iv->layers);
}

int iv_copy(gt_intervention *dst, const gt_intervention *src, gt_error *e)
{
    memset(dst, 0, sizeof *dst);
    size_t LH = (size_t)src->units, L1 = (size_t)src->layers + 1;
    dst->layers = src->layers;
    dst->units = src->units;
    dst->cell = src->cell;
    dst->off = malloc(L1 * sizeof *dst->off);
    dst->shift = malloc(LH * sizeof *dst->shift);
    dst->ablate = malloc(LH);
    dst->carousel = malloc((size_t)src->layers);
    if (!dst->off || !dst->shift || !dst->ablate || !dst->carousel) {
        iv_free(dst);
        return gt_fail(e, GT_EFAIL, "out of memory for the interventions");
    }
    memcpy(dst->off, src->off, L1 * sizeof *dst->off);
    memcpy(dst->shift, src->shift, LH * sizeof *dst->shift);
    memcpy(dst->ablate, src->ablate, LH);
    memcpy(dst->carousel, src->carousel, (size_t)src->layers);
    return GT_OK;
}

/* The carousel holds a carry gate at 1 over a cell state: an LSTM's f over c. */
static int iv_has_carousel(const gt_intervention *iv)
{
    return iv->cell->has_c && iv->cell->carry >= 0;
}

/* Layer k's units in iv. */
static size_t layer_units(const gt_intervention *iv, int k)
{
    return k < iv->layers ? iv->off[k + 1] - iv->off[k] : 0;
}

int iv_follow(gt_intervention *b, const gt_intervention *a, int *missed)
{
    /* what each can hold: a's values where a cannot hold one are no intervention of a's,
       and leave b's own as they are (a GRU shown keeps an LSTM's carousel) */
    const int a_shifts = a->cell->carry >= 0, b_shifts = b->cell->carry >= 0;
    const int a_carousel = iv_has_carousel(a), b_carousel = iv_has_carousel(b);
    int changed = 0, miss = 0;
    for (int k = 0; k < a->layers; k++) {
        const size_t na = layer_units(a, k), nb = layer_units(b, k);
        /* a shift of the whole layer (every unit's the same, as > makes it) is the whole
           layer's in b too, however many units b has */
        int whole = na > 0 && a->shift[a->off[k]] != 0;
        for (size_t j = 1; whole && j < na; j++)
            whole = a->shift[a->off[k] + j] == a->shift[a->off[k]];
        for (size_t j = 0; whole && a_shifts && b_shifts && j < nb; j++)
            if (b->shift[b->off[k] + j] != a->shift[a->off[k]])
                b->shift[b->off[k] + j] = a->shift[a->off[k]], changed = 1;
        for (size_t j = 0; j < na; j++) {
            const double s = a->shift[a->off[k] + j];
            const unsigned char x = a->ablate[a->off[k] + j];
            if (j >= nb) {
                miss += (s != 0 && (!whole || nb == 0)) || x;
                continue;
            }
            double *bs = &b->shift[b->off[k] + j];
            unsigned char *bx = &b->ablate[b->off[k] + j];
            if (a_shifts && b_shifts && !whole && *bs != s)
                *bs = s, changed = 1;
            miss += !b_shifts && s != 0;
            if (*bx != x)
                *bx = x, changed = 1;
        }
        if (k < b->layers && a_carousel && b_carousel && b->carousel[k] != a->carousel[k])
            b->carousel[k] = a->carousel[k], changed = 1;
        miss += a->carousel[k] && (k >= b->layers || !b_carousel);
    }
    if (missed)
        *missed = miss;
    return changed;
}

int iv_any(const gt_intervention *iv)
{
    size_t LH = (size_t)iv->units;
    for (size_t i = 0; i < LH; i++)
        if (iv->shift[i] != 0 || iv->ablate[i])
            return 1;
    for (int k = 0; k < iv->layers; k++)
        if (iv->carousel[k])
            return 1;
    return 0;
}

/* ---- the command line's forms ---- */

static int parse_layer(const gt_intervention *iv, const char *opt, const char *s, char **end,
                       int *layer, gt_error *e)
{
    errno = 0;
    long v = strtol(s, end, 10);
    if (errno || *end == s || v < 0)
        return gt_fail(e, GT_EINPUT, "%s: \"%s\" is not a layer", opt, s);
    if (v >= iv->layers)
        return gt_fail(e, GT_EINPUT, "%s: layer %ld: the model has %d layer%s (0..%d)", opt, v,
                       iv->layers, iv->layers == 1 ? "" : "s", iv->layers - 1);
    *layer = (int)v;
    return GT_OK;
}

/* Layer k's units. */
static int iv_width(const gt_intervention *iv, int k)
{
    return (int)(iv->off[k + 1] - iv->off[k]);
}

/* UNITS ("3,17,200-210") into sel[0..H) of layer `layer`, each unit named set to 1. */
static int parse_units(const gt_intervention *iv, const char *opt, const char *s, int layer,
                       unsigned char *sel, gt_error *e)
{
    const int H = iv_width(iv, layer);
    if (!*s)
        return gt_fail(e, GT_EINPUT, "%s: no units after the layer", opt);
    while (*s) {
        char *end;
        errno = 0;
        long a = strtol(s, &end, 10), b = a;
        if (errno || end == s || a < 0 || *s == '-' || *s == '+')
            return gt_fail(e, GT_EINPUT, "%s: \"%s\" is not a list of units like 3,17,200-210",
                           opt, s);
        if (*end == '-') {
            const char *q = end + 1;
            errno = 0;
            b = strtol(q, &end, 10);
            if (errno || end == q || *q == '-' || *q == '+' || b < a)
                return gt_fail(e, GT_EINPUT, "%s: \"%s\" is not a range of units like 200-210",
                               opt, s);
        }
        if (b >= H)
            return gt_fail(e, GT_EINPUT, "%s: unit %ld: layer %d has %d unit%s (0..%d)", opt, b,
                           layer, H, H == 1 ? "" : "s", H - 1);
        for (long u = a; u <= b; u++)
            sel[u] = 1;
        if (*end == ',' && end[1])
            end++;
        else if (*end)
            return gt_fail(e, GT_EINPUT, "%s: \"%s\" is not a list of units like 3,17,200-210",
                           opt, s);
        s = end;
    }
    return GT_OK;
}

int iv_parse_forget_bias(gt_intervention *iv, const char *arg, gt_error *e)
{
    const char *opt = "--forget-bias";
    if (iv->cell->carry < 0)
        return gt_fail(e, GT_EINPUT, "--forget-bias: a %s has no carry gate (no forget "
                                     "or update gate) whose bias to shift", iv->cell->noun);
    char *end;
    errno = 0;
    double d = strtod(arg, &end);
    if (errno == ERANGE && fabs(d) < 1) /* below the smallest double (1e-400): a shift of 0 */
        errno = 0;
    if (errno || end == arg || !isfinite(d) || (*end && *end != '@'))
        return gt_fail(e, GT_EINPUT, "%s wants D[@L[:UNITS]] with D a number, not \"%s\"", opt,
                       arg);
    if (fabs(d) > IV_SHIFT_MAX) /* past it the state overflowed, blamed on the model */
        return gt_fail(e, GT_EINPUT, "%s %.*s: a shift is at most %g either way (at 40 the gate "
                       "is already 0 or 1 in float32)", opt, (int)(end - arg), arg,
                       (double)IV_SHIFT_MAX);
    int l0 = 0, l1 = iv->layers - 1;
    unsigned char *sel = malloc((size_t)iv->units); /* every layer's units, as shift */
    if (!sel)
        return gt_fail(e, GT_EFAIL, "out of memory for the interventions");
    memset(sel, 1, (size_t)iv->units);
    int rc = GT_OK;
    if (*end == '@') {
        int layer;
        char *rest;
        rc = parse_layer(iv, opt, end + 1, &rest, &layer, e);
        if (!rc && *rest && *rest != ':')
            rc = gt_fail(e, GT_EINPUT, "%s wants D[@L[:UNITS]], not \"%s\"", opt, arg);
        if (!rc && *rest == ':') {
            memset(sel, 0, (size_t)iv->units);
            rc = parse_units(iv, opt, rest + 1, layer, sel + iv->off[layer], e);
        }
        l0 = l1 = layer;
    }
    for (size_t j = iv->off[l0]; !rc && j < iv->off[l1 + 1]; j++)
        if (sel[j])
            iv->shift[j] += d;
    free(sel);
    return rc;
}

int iv_parse_carousel(gt_intervention *iv, const char *arg, gt_error *e)
{
    if (!iv_has_carousel(iv))
        return gt_fail(e, GT_EINPUT, "--carousel: a %s has no forget gate to hold at 1 "
                                     "(the carousel is for an LSTM)", iv->cell->noun);
    if (!arg) { /* --carousel: every layer */
        memset(iv->carousel, 1, (size_t)iv->layers);
        return GT_OK;
    }
    if (!*arg)
        return gt_fail(e, GT_EINPUT, "--carousel@ wants a layer after the @ (--carousel@0; "
                                     "--carousel alone: every layer)");
    int layer;
    char *end;
    int rc = parse_layer(iv, "--carousel@L", arg, &end, &layer, e);
    if (!rc && *end)
        return gt_fail(e, GT_EINPUT, "--carousel@L wants a layer, not \"%s\"", arg);
    if (!rc)
        iv->carousel[layer] = 1;
    return rc;
}

int iv_parse_ablate(gt_intervention *iv, const char *arg, gt_error *e)
{
    const char *opt = "--ablate";
    int layer;
    char *end;
    int rc = parse_layer(iv, opt, arg, &end, &layer, e);
    if (rc)
        return rc;
    if (*end != ':')
        return gt_fail(e, GT_EINPUT, "%s wants L:UNITS (like 0:3,17,200-210), not \"%s\"", opt,
                       arg);
    return parse_units(iv, opt, end + 1, layer, iv->ablate + iv->off[layer], e);
}

/* ---- the screen's edits ---- */

void iv_shift(gt_intervention *iv, int layer, int unit, double d)
{
    const size_t H = (size_t)iv_width(iv, layer);
    for (size_t j = 0; j < H; j++)
        if (unit < 0 || (size_t)unit == j) {
            double *s = &iv->shift[iv->off[layer] + j];
            *s += d;
            if (fabs(*s) < 1e-12) /* the shifts are multiples of 0.5: back to none */
                *s = 0;
        }
}

void iv_toggle_ablate(gt_intervention *iv, int layer, int unit)
{
    unsigned char *a = &iv->ablate[iv->off[layer] + (size_t)unit];
    *a = !*a;
}

int iv_toggle_carousel(gt_intervention *iv, int layer)
{
    if (!iv_has_carousel(iv))
        return 0;
    iv->carousel[layer] = !iv->carousel[layer];
    return 1;
}

/* ---- the description ---- */

typedef struct sbuf {
    char *p;
    size_t n, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->len >= b->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        b->len += (size_t)w < b->n - b->len ? (size_t)w : b->n - b->len - 1;
}

/* The units j of a layer where want(j), as 3,17,200-210. */
static void put_units(sbuf *b, int H, const double *shift, const unsigned char *flag, double d)
{
    int first = 1;
    for (int j = 0; j < H;) {
        int on = flag ? flag[j] : shift[j] == d;
        if (!on) {
            j++;
            continue;
        }
        int k = j;
        while (k + 1 < H && (flag ? flag[k + 1] : shift[k + 1] == d))
            k++;
        put(b, k > j ? "%s%d-%d" : "%s%d", first ? "" : ",", j, k);
        first = 0;
        j = k + 1;
    }
}

static const char *sep(const sbuf *b)
{
    return b->len ? ", " : "";
}

/* 1 when s[j] is a shift that no unit before j has. */
static int first_shift(const double *s, int j)
{
    if (s[j] == 0)
        return 0;
    for (int q = 0; q < j; q++)
        if (s[q] == s[j])
            return 0;
    return 1;
}

void iv_describe(const gt_intervention *iv, char *buf, size_t n)
{
    sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    for (int k = 0; k < iv->layers; k++) {
        const int H = iv_width(iv, k);
        const double *s = iv->shift + iv->off[k];
        /* each distinct shift of the layer, in order of its first unit */
        for (int j = 0; j < H; j++) {
            if (!first_shift(s, j))
                continue;
            int all = 1;
            for (int q = 0; q < H && all; q++)
                all = s[q] == s[j];
            put(&b, "%sforget bias %+g@%d", sep(&b), s[j], k);
            if (!all) {
                put(&b, ":");
                put_units(&b, H, s, NULL, s[j]);
            }
        }
    }
    for (int k = 0; k < iv->layers; k++) {
        const int H = iv_width(iv, k);
        const unsigned char *a = iv->ablate + iv->off[k];
        int any = 0;
        for (int j = 0; j < H && !any; j++)
            any = a[j];
        if (any) {
            put(&b, "%sablated %d:", sep(&b), k);
            put_units(&b, H, NULL, a, 0);
        }
    }
    for (int k = 0; k < iv->layers; k++)
        if (iv->carousel[k])
            put(&b, "%scarousel@%d", sep(&b), k);
}

/* One argument of iv_args into b: "D@L:UNITS", "L:UNITS" (shift NULL) of layer k. */
static void arg_units(sbuf *b, const gt_intervention *iv, int k, const double *shift, double d)
{
    const int H = iv_width(iv, k);
    b->len = 0;
    if (shift)
        put(b, "%.17g@%d:", d, k);
    else
        put(b, "%d:", k);
    put_units(b, H, shift ? shift + iv->off[k] : NULL, shift ? NULL : iv->ablate + iv->off[k], d);
}

int iv_args(const gt_intervention *iv, int (*fn)(void *ctx, char kind, const char *arg),
            void *ctx, gt_error *e)
{
    size_t n = 64 + 24 * (size_t)iv->units;
    sbuf b = {malloc(n), n, 0};
    if (!b.p)
        return gt_fail(e, GT_EFAIL, "out of memory for the interventions");
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < iv->layers; k++) {
        const double *s = iv->shift + iv->off[k];
        for (int j = 0; rc == GT_OK && j < iv_width(iv, k); j++)
            if (first_shift(s, j)) {
                arg_units(&b, iv, k, iv->shift, s[j]);
                rc = fn(ctx, 'f', b.p);
            }
        int any = 0;
        for (size_t j = iv->off[k]; j < iv->off[k + 1] && !any; j++)
            any = iv->ablate[j];
        if (any && rc == GT_OK) {
            arg_units(&b, iv, k, NULL, 0);
            rc = fn(ctx, 'a', b.p);
        }
        if (iv->carousel[k] && rc == GT_OK) {
            b.len = 0;
            put(&b, "%d", k);
            rc = fn(ctx, 'c', b.p);
        }
    }
    free(b.p);
    return rc;
}

/* ---- the changed copy ---- */

static float *copy_floats(gt_model *out, const float *src, size_t n)
{
    float *p = model_own(out, malloc(n * sizeof *p));
    if (p)
        memcpy(p, src, n * sizeof *p);
    return p;
}

/* The largest |pre-activation| of row r of layer k less its b_hh: |b_ih| and the input part
 * (inputs in [-1, 1] above layer 0; layer 0's largest over the tokens) plus sum |W_hh| (h is
 * o tanh(c), in [-1, 1]). */
static double row_bound(const gt_model *m, int k, size_t r)
{
    const gt_layer *ly = &m->layer[k];
    const size_t H = (size_t)ly->hidden, D = (size_t)ly->in_dim, GH = (size_t)m->gates * H;
    double s = fabs((double)ly->b_ih[r]);
    if (k > 0) {
        for (size_t j = 0; j < D; j++)
            s += fabs((double)ly->w_ih[r * D + j]);
    } else if (m->x_table) {
        double mx = 0;
        for (size_t v = 0; v < (size_t)m->vocab; v++)
            mx = fmax(mx, fabs((double)m->x_table[v * GH + r]));
        s += mx;
    } else {
        double mx = 0, w = 0;
        for (size_t j = 0; j < D; j++) {
            mx = fmax(mx, fabs((double)ly->w_ih[r * D + j]));
            w += fabs((double)ly->w_ih[r * D + j]);
        }
        if (m->has_embedding) {
            double e = 0;
            for (size_t i = 0; i < (size_t)m->vocab * D; i++)
                e = fmax(e, fabs((double)m->emb[i]));
            mx = w * e;
        }
        s += mx;
    }
    for (size_t j = 0; j < H; j++)
        s += fabs((double)ly->w_hh[r * H + j]);
    return s;
}

/* out->ablated: the units iv ablates and those m's were (NULL when none); -1 when out of
 * memory. The weights alone give the ablated units' values (their candidate 0), not their
 * derivative: the step's derivative reads this (doc/measures.md, "Interventions"). */
static int mark_ablated(gt_model *out, const gt_model *m, const gt_intervention *iv)
{
    const size_t n = (size_t)m->hidden_total;
    int any = 0;
    for (size_t j = 0; j < n; j++)
        any |= iv->ablate[j];
    if (!any)
        return 0;
    unsigned char *a = model_own(out, malloc(n));
    if (!a)
        return -1;
    for (size_t j = 0; j < n; j++)
        a[j] = iv->ablate[j] || (m->ablated && m->ablated[j]);
    out->ablated = a;
    return 0;
}

int iv_apply(gt_model *out, const gt_model *m, const gt_intervention *iv, gt_error *e)
{
    *out = *m;
    out->owned = NULL;
    out->nowned = 0;
    const size_t L = (size_t)m->layers;
    /* the carry gate's block (none in a plain RNN) and the candidate's: g, n, or an RNN's a */
    const int has_carry = model_carry_gate(m) >= 0;
    gt_layer *ly = model_own(out, malloc(L * sizeof *ly));
    if (!ly)
        goto oom;
    memcpy(ly, m->layer, L * sizeof *ly);
    out->layer = ly;
    for (size_t k = 0; k < L; k++) {
        const size_t H = (size_t)ly[k].hidden, GH = (size_t)m->gates * H;
        const size_t carry = has_carry ? (size_t)model_carry_gate(m) * H : 0;
        const size_t cand = (size_t)m->cell->candidate * H;
        const double *s = iv->shift + ly[k].off;
        const unsigned char *a = iv->ablate + ly[k].off;
        int shifted = 0, ablated = 0;
        for (size_t j = 0; j < H; j++) {
            shifted |= s[j] != 0;
            ablated |= a[j];
        }
        if (!shifted && !ablated && !iv->carousel[k])
            continue;
        const size_t D = (size_t)ly[k].in_dim;
        float *b_hh = copy_floats(out, m->layer[k].b_hh, GH);
        if (!b_hh)
            goto oom;
        for (size_t j = 0; has_carry && j < H; j++)
            b_hh[carry + j] = (float)((double)b_hh[carry + j] + s[j]);
        if (iv->carousel[k])
            for (size_t j = 0; j < H; j++)
                b_hh[carry + j] = (float)(row_bound(m, (int)k, carry + j) + CAROUSEL_MARGIN);
        ly[k].b_hh = b_hh;
        if (!ablated)
            continue;
        float *b_ih = copy_floats(out, m->layer[k].b_ih, GH);
        float *w_ih = copy_floats(out, m->layer[k].w_ih, GH * D);
        float *w_hh = copy_floats(out, m->layer[k].w_hh, GH * H);
        float *xt = k == 0 && m->x_table ? copy_floats(out, m->x_table, (size_t)m->vocab * GH)
                                         : NULL;
        if (!b_ih || !w_ih || !w_hh || (k == 0 && m->x_table && !xt))
            goto oom;
        for (size_t j = 0; j < H; j++) {
            if (!a[j])
                continue;
            const size_t r = cand + j;
            b_ih[r] = b_hh[r] = 0;
            memset(w_ih + r * D, 0, D * sizeof *w_ih);
            memset(w_hh + r * H, 0, H * sizeof *w_hh);
            for (size_t v = 0; xt && v < (size_t)m->vocab; v++)
                xt[v * GH + r] = 0;
        }
        ly[k].b_ih = b_ih;
        ly[k].w_ih = w_ih;
        ly[k].w_hh = w_hh;
        if (xt)
            out->x_table = xt;
    }
    if (mark_ablated(out, m, iv))
        goto oom;
    return GT_OK;
oom:
    iv_model_free(out);
    return gt_fail(e, GT_EFAIL, "out of memory for the model with its interventions");
}

void iv_model_free(gt_model *out)
{
    for (size_t i = 0; i < out->nowned; i++)
        free(out->owned[i]);
    free(out->owned);
    memset(out, 0, sizeof *out);
}
