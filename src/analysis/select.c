/* Select and match (see select.h). */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/select.h"

/* The first run: which units are on throughout [a, b] and off around it. */
typedef struct pick {
    gt_selection *sel;
    int H;
    unsigned char *ok;  /* [H] still a candidate */
    double *min;        /* [H] minimum over [a, b] */
} pick;

static int pick_step(void *ctx, size_t t, const gt_run *r)
{
    pick *p = ctx;
    const gt_selection *s = p->sel;
    if (t + 1 < s->a)
        return 0;
    const float *x = signals_of(r, s->layer, s->signal);
    const double th = s->threshold;
    for (int j = 0; j < p->H; j++) {
        int on = x[j] >= th;
        if (t + 1 == s->a || t == s->b + 1) /* just before, just after: off */
            p->ok[j] &= !on;
        else {
            p->ok[j] &= on;
            if (x[j] < p->min[j])
                p->min[j] = x[j];
        }
    }
    return t == s->b + 1;
}

/* The second run: the maximal runs where every selected unit is on. */
typedef struct match {
    gt_selection *sel;
    size_t cap;
    int open;
    gt_error *e;
    int failed;
} match;

static int match_step(void *ctx, size_t t, const gt_run *r)
{
    match *mt = ctx;
    gt_selection *s = mt->sel;
    const float *x = signals_of(r, s->layer, s->signal);
    const double th = s->threshold;
    int all = 1;
    for (int i = 0; i < s->nunits && all; i++)
        all = x[s->units[i]] >= th;
    if (all && !mt->open) {
        if (s->nmatches == mt->cap) {
            size_t nc = mt->cap ? 2 * mt->cap : 64;
            size_t *nf = realloc(s->from, nc * sizeof *nf);
            if (nf)
                s->from = nf;
            size_t *nt = nf ? realloc(s->to, nc * sizeof *nt) : NULL;
            if (!nt) {
                mt->failed = 1;
                return 1;
            }
            s->to = nt;
            mt->cap = nc;
        }
        s->from[s->nmatches] = t;
        s->to[s->nmatches++] = t;
        mt->open = 1;
    } else if (all) {
        s->to[s->nmatches - 1] = t;
    } else {
        mt->open = 0;
    }
    return 0;
}

static int by_minimum(const void *pa, const void *pb, void *ctx)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    const pick *rank_view = ctx;
    double x = rank_view->min[a], y = rank_view->min[b];
    if (x != y)
        return x > y ? -1 : 1;
    return a - b;
}

/* The selected units from the first run, ranked. */
static int take_units(gt_selection *s, pick *p, gt_error *e)
{
    s->units = malloc((size_t)p->H * sizeof *s->units);
    s->minimum = malloc((size_t)p->H * sizeof *s->minimum);
    if (!s->units || !s->minimum)
        return gt_fail(e, GT_EFAIL, "out of memory for the selection");
    for (int j = 0; j < p->H; j++)
        if (p->ok[j])
            s->units[s->nunits++] = j;
    qsort_r(s->units, (size_t)s->nunits, sizeof *s->units, by_minimum, p);
    for (int i = 0; i < s->nunits; i++)
        s->minimum[i] = p->min[s->units[i]];
    return GT_OK;
}

int select_compute(gt_selection *s, const gt_model *m, const uint16_t *tok, size_t n,
                   size_t a, size_t b, int signal, double threshold, const gt_pass_options *o,
                   gt_error *e)
{
    memset(s, 0, sizeof *s);
    if (a > b || b >= n)
        return gt_fail(e, GT_EINPUT, "the span %zu:%zu is outside the steps searched (0..%zu)",
                       a, b, n - 1);
    s->m = m;
    s->a = a;
    s->b = b;
    s->steps = n;
    s->layer = o->layer;
    s->signal = signal;
    s->threshold = threshold;
    const int H = model_width(m, o->layer);
    pick p = {s, H, malloc((size_t)H), malloc((size_t)H * sizeof(double))};
    int rc = p.ok && p.min ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory for the selection");
    if (rc == GT_OK) {
        memset(p.ok, 1, (size_t)H);
        for (int j = 0; j < H; j++)
            p.min[j] = INFINITY;
        size_t upto = b + 1 < n ? b + 2 : n;
        rc = signals_pass(m, tok, upto, o, pick_step, &p, e);
    }
    if (rc == GT_OK)
        rc = take_units(s, &p, e);
    free(p.ok);
    free(p.min);
    if (rc == GT_OK && s->nunits > 0) {
        match mt = {s, 0, 0, e, 0};
        rc = signals_pass(m, tok, n, o, match_step, &mt, e);
        if (rc == GT_OK && mt.failed)
            rc = gt_fail(e, GT_EFAIL, "out of memory for the matches");
    }
    if (rc)
        select_free(s);
    return rc;
}

void select_free(gt_selection *s)
{
    free(s->units);
    free(s->minimum);
    free(s->from);
    free(s->to);
    memset(s, 0, sizeof *s);
}
