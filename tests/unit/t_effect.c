/* The effect's results so far (gt_effect_options.partial; doc/measures.md, "The effect"), on
 * the sample LSTM over the whole of kjv-valid.txt, unit 209 ablated, the hypothesis " ": one
 * call per window, each when its window's runs are complete, the count done rising by one;
 * the last call's classes (inside and outside: count, delta, interval) exactly the result's;
 * with one thread the windows complete in order, so the call after k windows equals the
 * whole effect computed over k windows (--windows k), for every k; with two threads the last
 * call is still the result's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/effect.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "../lib/tap.h"

#define MAXW 64

typedef struct seen {
    int calls, rising;
    size_t windows;
    gt_effect_class in[MAXW + 1], out[MAXW + 1];
} seen;

static void partial(void *ctx, const gt_effect_class *in, const gt_effect_class *out,
                    size_t done, size_t windows)
{
    seen *s = ctx;
    s->calls++;
    if (done != (size_t)s->calls || done > MAXW)
        s->rising = 0;
    else {
        s->in[done] = *in;
        s->out[done] = *out;
    }
    s->windows = windows;
}

/* The same numbers, NaN equal to NaN. */
static int same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static int same_class(const gt_effect_class *a, const gt_effect_class *b)
{
    return a->count == b->count && same(a->delta, b->delta) && same(a->ci_lo, b->ci_lo) &&
           same(a->ci_hi, b->ci_hi);
}

static const char *sample(const char *name)
{
    static char buf[1024];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/samples/%s", top ? top : ".", name);
    return buf;
}

static int run(const gt_model *m, const gt_intervention *iv, const gt_text *t, int threads,
               long windows, seen *s, gt_effect *r)
{
    gt_effect_options o;
    effect_options_init(&o);
    o.controls = 2;
    o.win.threads = threads;
    if (windows)
        o.win.windows = windows;
    if (s) {
        memset(s, 0, sizeof *s);
        s->rising = 1;
        o.partial = partial;
        o.partial_ctx = s;
    }
    const char *regex = " ";
    gt_error e = {0};
    int rc = effect_compute(r, m, m, iv, t->tok, t->steps, &regex, 1, &o, &e);
    if (rc)
        printf("# effect_compute: %s\n", e.msg);
    return rc;
}

int main(void)
{
    gt_error e = {0};
    gt_model m;
    gt_text t;
    gt_intervention iv;
    if (model_load(&m, sample("kjv-lstm.bin"), NULL, &e) ||
        text_load(&t, sample("kjv-valid.txt"), &m, &e) || iv_init(&iv, &m, &e) ||
        iv_parse_ablate(&iv, "0:209", &e)) {
        printf("Bail out! %s\n", e.msg);
        return 1;
    }
    seen s;
    gt_effect r;
    tap_ok(run(&m, &iv, &t, 1, 0, &s, &r) == GT_OK, "the effect, one thread");
    const size_t W = r.windows;
    tap_ok(s.calls == (int)W && s.rising && s.windows == W,
           "one call per window, the windows done rising by one (%d calls, %zu windows)",
           s.calls, W);
    tap_ok(W <= MAXW && same_class(&s.in[W], &r.e[0].in) && same_class(&s.out[W], &r.e[0].out),
           "the last call's classes are the result's (inside %+.5f, outside %+.5f)",
           r.e[0].in.delta, r.e[0].out.delta);
    int bad = 0;
    for (size_t k = 2; k < W && k <= MAXW; k++) {
        gt_effect rk;
        if (run(&m, &iv, &t, 1, (long)k, NULL, &rk) != GT_OK) {
            bad++;
            continue;
        }
        if (!same_class(&s.in[k], &rk.e[0].in) || !same_class(&s.out[k], &rk.e[0].out)) {
            printf("# after %zu windows: inside %+.9f [%+.9f, %+.9f] against --windows %zu's "
                   "%+.9f [%+.9f, %+.9f]\n", k, s.in[k].delta, s.in[k].ci_lo, s.in[k].ci_hi, k,
                   rk.e[0].in.delta, rk.e[0].in.ci_lo, rk.e[0].in.ci_hi);
            bad++;
        }
        effect_free(&rk);
    }
    tap_ok(!bad, "after k windows (one thread, in order) the classes are the effect over k "
                 "windows, k = 2..%zu (%d differ)", W - 1, bad);
    effect_free(&r);
    tap_ok(run(&m, &iv, &t, 2, 0, &s, &r) == GT_OK && s.calls == (int)r.windows && s.rising &&
               same_class(&s.in[r.windows], &r.e[0].in) &&
               same_class(&s.out[r.windows], &r.e[0].out),
           "two threads: one call per window, the last the result's");
    effect_free(&r);
    iv_free(&iv);
    text_free(&t);
    model_free(&m);
    return tap_done();
}
