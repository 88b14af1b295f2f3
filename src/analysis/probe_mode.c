/* The modes --probe and --components (see probe.h): checking what they are asked, running
 * them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/finding.h"
#include "gatetui/mask.h"
#include "gatetui/probe.h"
#include "compute/threads.h"
#include "gatetui/report.h"

static int written(int bad, gt_error *e)
{
    return bad ? gt_fail(e, GT_EFAIL, "error writing the output: %s", strerror(errno)) : GT_OK;
}

static int parse_l2(const char *s, double *out, gt_error *e)
{
    *out = PROBE_DEFAULT_L2;
    if (!s)
        return GT_OK;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v <= 0)
        return gt_fail(e, GT_EINPUT, "--l2 wants a positive number, not \"%s\"", s);
    *out = v;
    return GT_OK;
}

static int run_probe(FILE *out, const gt_model *m, const gt_text *t, size_t n, int sig,
                     const gt_probe_options *o, const gt_pass_options *po, gt_error *e)
{
    double lambda;
    int K = o->folds > 0 ? (int)o->folds : PROBE_DEFAULT_FOLDS;
    int rc = parse_l2(o->l2, &lambda, e);
    if (rc)
        return rc;
    if (o->folds > (long)n)
        return gt_fail(e, GT_EINPUT, "--folds %ld: more folds than the %zu steps searched",
                       o->folds, n);
    if ((size_t)K > n)
        return gt_fail(e, GT_EINPUT, "the %d folds of the default are more than the %zu steps "
                       "searched (--folds sets how many)", K, n);
    if (K > PROBE_MAX_FOLDS)
        return gt_fail(e, GT_EINPUT, "--folds %d: at most %d folds (2..%d)", K, PROBE_MAX_FOLDS,
                       PROBE_MAX_FOLDS);
    gt_mask k;
    double seconds = o->regex_seconds > 0 ? (double)o->regex_seconds : MASK_SECONDS;
    if ((rc = mask_from_regex(&k, m, t->tok, n, o->arg, seconds, e)))
        return rc;
    gt_signal_matrix x;
    gt_probe p;
    const int fit_threads = o->fit_threads > 0 ? o->fit_threads : threads_choose(0, 2);
    rc = probe_matrix(&x, m, t->tok, n, sig, po, e);
    if (rc == GT_OK) {
        rc = probe_compute(&p, &x, k.m, K, lambda, fit_threads, e);
        p.m = m;
        p.layer = o->layer;
        p.signal = sig;
        if (rc == GT_OK)
            rc = written(probe_print(out, &p, o->arg, t->path, o->json), e);
        probe_free(&p);
        free(x.x);
    }
    mask_free(&k);
    return rc;
}

static int run_components(FILE *out, const gt_model *m, const gt_text *t, size_t n, int sig,
                          const gt_probe_options *o, const gt_pass_options *po, gt_error *e)
{
    char *end;
    errno = 0;
    long k = strtol(o->arg, &end, 10);
    if (errno || end == o->arg || *end || k < 1)
        return gt_fail(e, GT_EINPUT, "--components wants a count, not \"%s\"", o->arg);
    char who[24];
    if (k > model_width(m, po->layer))
        return gt_fail(e, GT_EINPUT, "--components %ld: %s has %d units", k,
                       model_units_of(m, po->layer, who, sizeof who), model_width(m, po->layer));
    if ((size_t)k > n)
        return gt_fail(e, GT_EINPUT, "--components %ld: more than the %zu steps searched", k,
                       n);
    gt_signal_matrix x;
    gt_components c;
    int rc = probe_matrix(&x, m, t->tok, n, sig, po, e);
    if (rc == GT_OK) {
        rc = components_compute(&c, &x, (int)k, e);
        free(x.x);
    }
    if (rc)
        return rc;
    c.m = m;
    c.layer = o->layer;
    c.signal = sig;
    rc = written(components_print(out, &c, t->path, o->json), e);
    components_free(&c);
    return rc;
}

int probe_main(FILE *out, const gt_model *m, const gt_text *t, const gt_probe_options *o,
               gt_error *e)
{
    size_t n = o->steps < 0 ? SIGNALS_DEFAULT_STEPS : (size_t)o->steps;
    if (n > t->steps)
        n = t->steps;
    int sig = find_pick_signal(m, o->signal, e);
    if (sig < 0)
        return e->code;
    const int width = model_width(m, o->layer);
    if ((unsigned long long)n * (unsigned long long)width > PROBE_MAX_VALUES) {
        char a[32], b[32], c[32];
        return gt_fail(e, GT_EINPUT, "--steps %s: the signal's %d units over that many steps "
                       "come to more than %s values (4 GiB of float32): at most %s steps of "
                       "this model", report_commas(n, a, sizeof a), width,
                       report_commas(PROBE_MAX_VALUES, b, sizeof b),
                       report_commas(PROBE_MAX_VALUES / (size_t)width, c, sizeof c));
    }
    gt_pass_options po = {o->layer, o->threads, o->progress, o->progress_ctx};
    if (o->mode == PROBE_FIT)
        return run_probe(out, m, t, n, sig, o, &po, e);
    return run_components(out, m, t, n, sig, o, &po, e);
}
