/* Correlations of every unit with a mask, summed along one run (see units.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/moments.h"
#include "gatetui/units.h"

/* The sums along the run (units.h). */
struct gt_units_acc {
    const gt_model *m;
    int layer, nsig, H;
    const unsigned char *mask;
    size_t n, inside;
    double *base, *sin, *sout, *sq; /* [nsig * H] each, signals in order */
};

gt_units_acc *units_acc_new(const gt_model *m, int layer, const gt_mask *mask, gt_error *e)
{
    gt_units_acc *a = calloc(1, sizeof *a);
    if (!a) {
        gt_fail(e, GT_EFAIL, "out of memory for the correlations");
        return NULL;
    }
    a->m = m;
    a->layer = layer;
    a->nsig = signals_count(m);
    a->H = model_width(m, layer);
    a->mask = mask->m;
    size_t k = (size_t)a->nsig * (size_t)a->H;
    a->base = calloc(4 * k, sizeof *a->base);
    if (!a->base) {
        free(a);
        gt_fail(e, GT_EFAIL, "out of memory for the correlations");
        return NULL;
    }
    a->sin = a->base + k;
    a->sout = a->sin + k;
    a->sq = a->sout + k;
    return a;
}

void units_acc_free(gt_units_acc *a)
{
    if (!a)
        return;
    free(a->base);
    free(a);
}

/* The signals are the gate blocks (one array), then c for an LSTM, then h. */
int units_add(void *acc, size_t t, const gt_run *r)
{
    gt_units_acc *a = acc;
    const gt_model *m = a->m;
    const size_t H = (size_t)a->H, GH = (size_t)m->gates * H;
    const int in = a->mask[t];
    const float *part[3] = {run_gates(r, a->layer), run_c(r, a->layer), run_h(r, a->layer)};
    const size_t len[3] = {GH, m->cell->has_c ? H : 0, H};
    double *s = in ? a->sin : a->sout;
    size_t off = 0;
    for (int p = 0; p < 3; p++) {
        if (a->n == 0)
            for (size_t j = 0; j < len[p]; j++)
                a->base[off + j] = part[p][j];
        kern_moments(len[p], part[p], a->base + off, s + off, a->sq + off);
        off += len[p];
    }
    a->n++;
    a->inside += (size_t)in;
    return 0;
}

/* r and the means of one unit and signal from its sums. */
static gt_unit_r correlate(const gt_units_acc *a, size_t i, int unit)
{
    double n = (double)a->n, k = (double)a->inside;
    double sin = a->sin[i], sum = sin + a->sout[i], sq = a->sq[i], base = a->base[i];
    gt_unit_r u = {unit, NAN, NAN, NAN};
    if (k > 0)
        u.mean_inside = base + sin / k;
    if (k < n)
        u.mean_outside = base + (sum - sin) / (n - k);
    double sxx = sq - sum * sum / n;        /* n var(s) */
    double sxm = sin - sum * k / n;          /* n cov(s, m) */
    double smm = k * (n - k) / n;            /* n var(m) */
    if (sq > 0 && sxx > 0 && smm > 0) {
        double r = sxm / sqrt(sxx * smm);
        u.r = r > 1 ? 1 : r < -1 ? -1 : r;
    }
    return u;
}

static int by_abs_r(const void *pa, const void *pb)
{
    const gt_unit_r *a = pa, *b = pb;
    int na = isnan(a->r), nb = isnan(b->r);
    if (na != nb)
        return na - nb;
    if (!na) {
        double x = fabs(a->r), y = fabs(b->r);
        if (x != y)
            return x > y ? -1 : 1;
    }
    return a->unit - b->unit;
}

int units_finish(gt_units *u, const gt_units_acc *a, size_t matches, gt_error *e)
{
    memset(u, 0, sizeof *u);
    u->m = a->m;
    u->layer = a->layer;
    u->nsig = a->nsig;
    u->steps = a->n;
    u->inside = a->inside;
    u->matches = matches;
    for (int s = 0; s < a->nsig; s++) {
        gt_unit_r *list = malloc((size_t)a->H * sizeof *list);
        if (!list) {
            units_free(u);
            return gt_fail(e, GT_EFAIL, "out of memory for the correlations");
        }
        for (int j = 0; j < a->H; j++)
            list[j] = correlate(a, (size_t)s * a->H + j, j);
        qsort(list, (size_t)a->H, sizeof *list, by_abs_r);
        u->by_signal[s] = list;
    }
    return GT_OK;
}

void units_free(gt_units *u)
{
    for (int s = 0; s < SIGNALS_MAX; s++)
        free(u->by_signal[s]);
    memset(u, 0, sizeof *u);
}

int units_compute(gt_units *u, const gt_model *m, const uint16_t *tok, size_t n,
                  const char *regex, double seconds, const gt_pass_options *o, gt_error *e)
{
    memset(u, 0, sizeof *u);
    gt_mask mask;
    int rc = mask_from_regex(&mask, m, tok, n, regex, seconds, e);
    if (rc)
        return rc;
    gt_units_acc *acc = units_acc_new(m, o->layer, &mask, e);
    rc = acc ? GT_OK : GT_EFAIL;
    if (rc == GT_OK)
        rc = signals_pass(m, tok, n, o, units_add, acc, e);
    if (rc == GT_OK)
        rc = units_finish(u, acc, mask.matches, e);
    units_acc_free(acc);
    mask_free(&mask);
    return rc;
}
