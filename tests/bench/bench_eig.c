/* Times the derivative sheet's eigenvalues (doc/measures.md, "The eigenvalues at a step"):
 * the step Jacobian J_T formed from the float32 state the trace keeps before step T, then
 * its K eigenvalues of largest modulus by ARPACK on (J/s)^8 (eigen_top, the squarings on
 * every processor) against its whole spectrum by
 * LAPACK (eigen_all, on a copy of J made before the clock starts), REPS times each in turn
 * (after one of each to warm up):
 *   bench_eig MODEL TEXT [T [REPS [K [LAYER]]]]
 * prints the state's size, the medians and the least wall and processor times of ARPACK
 * without a budget, LAPACK, what the derivative sheet asks (eigen_top within eigen_budget:
 * ARPACK or LAPACK), and with J formed, spectrum_top_from and spectrum_from (what the
 * screen's child computes, and what it computed before); then the largest difference
 * between ARPACK's K values and LAPACK's first K in the same order, relative to
 * max(1, |lambda|), and both side by side. Exits 1 when it is above 1e-8. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dynrun.h"
#include "analysis/eigen.h"
#include "gatetui/dynamics.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "tests/bench/clock.h"

static void die(const char *what, const gt_error *e)
{
    fprintf(stderr, "bench_eig: %s: %s\n", what, e->msg);
    exit(1);
}

/* The process's processor time in seconds (every thread's, the BLAS's too). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* dt[0..reps) wall times, dc[0..reps) processor times: their medians and least. */
static void report(const char *what, double *dt, double *dc, int reps)
{
    qsort(dt, (size_t)reps, sizeof *dt, bench_cmp_double);
    qsort(dc, (size_t)reps, sizeof *dc, bench_cmp_double);
    printf("%-42s %8.2f ms (least %8.2f), processor %8.2f ms (least %8.2f)\n", what,
           1e3 * dt[reps / 2], 1e3 * dt[0], 1e3 * dc[reps / 2], 1e3 * dc[0]);
}

/* J_T of layer from the state (h, c) before step T reading tok, into a new array. */
static double *jacobian(const gt_model *m, int layer, const float *h, const float *c,
                        uint16_t tok, int *n)
{
    dynrun d;
    gt_error e;
    if (dynrun_open(&d, m, layer, &e))
        die("the Jacobian", &e);
    batch_set_state(&d.b, 0, h, c);
    dynrun_step(&d, tok, 1);
    *n = d.n;
    double *J = malloc((size_t)d.n * (size_t)d.n * sizeof *J);
    memcpy(J, d.J, (size_t)d.n * (size_t)d.n * sizeof *J);
    dynrun_close(&d);
    return J;
}

/* What is timed, one computation per kind, in turn. */
enum { ARPACK_ALONE, LAPACK_ALL, SHEETS, TOP_FROM, ALL_FROM, KINDS };
static const char *const kind_name[KINDS] = {
    "ARPACK, the k largest, without a budget", "LAPACK, all n",
    "as the sheet asks (eigen_budget)", "J formed, the sheet's (spectrum_top_from)",
    "J formed, all (spectrum_from)"};

typedef struct work {
    const double *J;            /* [n * n] */
    double *B;                  /* [n * n]: J copied for LAPACK, which overwrites it */
    int n, k;
    double *ar, *ai, *lr, *li;  /* ARPACK's k, LAPACK's n */
    double *sr;                 /* [2k]: the sheet's */
    eigen_how alone, sheet;
    const gt_model *m;          /* the layer and the state before T, for spectrum_*_from */
    int layer;
    const float *h, *c;
    uint16_t tok;
    size_t T;
} work;

/* Computation `kind` once (J's copy for LAPACK made before: not timed). */
static void compute(work *w, int kind)
{
    gt_spectrum s;
    gt_error e;
    int rc = 0;
    switch (kind) {
    case ARPACK_ALONE:
        rc = eigen_top(w->J, w->n, w->k, -1, 0, w->ar, w->ai, &w->alone, &e);
        break;
    case LAPACK_ALL:
        rc = eigen_all(w->B, w->n, w->lr, w->li, &e);
        break;
    case SHEETS:
        rc = eigen_top(w->J, w->n, w->k, eigen_budget(w->n, w->k), 0, w->sr, w->sr + w->k,
                       &w->sheet, &e);
        break;
    case TOP_FROM:
    case ALL_FROM:
        rc = kind == TOP_FROM
                 ? spectrum_top_from(&s, w->m, w->layer, w->h, w->c, w->tok, w->T, w->k, 0, &e)
                 : spectrum_from(&s, w->m, w->layer, w->h, w->c, w->tok, w->T, &e);
        if (!rc)
            spectrum_free(&s);
        break;
    }
    if (rc)
        die(kind_name[kind], &e);
}

/* Every computation in turn, reps times after one warm-up: the medians printed. */
static void time_all(work *w, int reps)
{
    double *tw = malloc(2 * KINDS * (size_t)reps * sizeof *tw), *tc = tw + KINDS * reps;
    for (int i = -1; i < reps; i++)
        for (int kind = 0; kind < KINDS; kind++) {
            if (kind == LAPACK_ALL)
                memcpy(w->B, w->J, (size_t)w->n * (size_t)w->n * sizeof *w->B);
            const double w0 = bench_now(), c0 = cpu_now();
            compute(w, kind);
            if (i >= 0) {
                tw[kind * reps + i] = bench_now() - w0;
                tc[kind * reps + i] = cpu_now() - c0;
            }
        }
    for (int kind = 0; kind < KINDS; kind++)
        report(kind_name[kind], tw + kind * reps, tc + kind * reps, reps);
    free(tw);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_eig MODEL TEXT [T [REPS [K [LAYER]]]]\n");
        return 2;
    }
    gt_model m;
    gt_text t;
    gt_error e;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e))
        die("loading", &e);
    size_t T = argc > 3 ? (size_t)atol(argv[3]) : 2000;
    int reps = argc > 4 ? atoi(argv[4]) : 11, k = argc > 5 ? atoi(argv[5]) : 16;
    int layer = argc > 6 ? atoi(argv[6]) : 0;
    if (T >= t.steps || reps < 1 || k < 1 || layer < 0 || layer >= m.layers) {
        fprintf(stderr, "bench_eig: T %zu, REPS %d, K %d, layer %d, %zu steps\n", T, reps, k,
                layer, t.steps);
        return 2;
    }
    gt_run r;
    if (run_init(&r, &m, &e))
        die("the run", &e);
    for (size_t s = 0; s < T; s++)
        run_step_layers(&r, t.tok[s], m.layers - 1);
    int n;
    double *J = jacobian(&m, layer, r.h, r.c, t.tok[T], &n);
    if (k > n)
        k = n;
    printf("%s, layer %d (H %d), step %zu: J %d x %d, the %d largest, %d runs\n", argv[1],
           layer, model_width(&m, layer), T, n, n, k, reps);
    double *v = malloc((2 * ((size_t)k + (size_t)n) + (size_t)n * (size_t)n + 2 * (size_t)k) *
                       sizeof *v);
    work w = {.J = J, .n = n, .k = k, .ar = v, .ai = v + k, .lr = v + 2 * k, .li = v + 2 * k + n,
              .B = v + 2 * (k + n), .m = &m, .layer = layer, .h = r.h, .c = r.c,
              .tok = t.tok[T], .T = T};
    w.sr = w.B + (size_t)n * (size_t)n;
    time_all(&w, reps);
    const double *ar = w.ar, *ai = w.ai, *lr = w.lr, *li = w.li;
    const eigen_how how = w.sheet;
    double worst = 0;
    for (int i = 0; i < k; i++) {
        const double d = hypot(ar[i] - lr[i], ai[i] - li[i]) / fmax(1, hypot(lr[i], li[i]));
        worst = d > worst ? d : worst;
    }
    const long budget = eigen_budget(n, k);
    if (how.by == EIGEN_BY_ARPACK)
        printf("the sheet's by ARPACK: %ld products with (J/s)^%d of its budget of %ld\n",
               how.products, EIGEN_POWER, budget);
    else if (budget == 0)
        printf("the sheet's by LAPACK: n %d is below %d, where ARPACK is tried\n", n,
               EIGEN_FROM);
    else
        printf("the sheet's by LAPACK: ARPACK's budget of %ld products ran out\n", budget);
    printf("ARPACK's %d largest within %.1e of LAPACK's first %d (relative to max(1, |l|)); "
           "|l| %.6f .. %.6f, the next %.6f\n", k, worst, k, hypot(lr[0], li[0]),
           hypot(lr[k - 1], li[k - 1]), k < n ? hypot(lr[k], li[k]) : NAN);
    printf("ARPACK without a budget: %ld products with (J/s)^%d\n", w.alone.products,
           EIGEN_POWER);
    for (int i = 0; i < k; i++)
        printf("  %2d  ARPACK %+.12f %+.12fi   LAPACK %+.12f %+.12fi\n", i, ar[i], ai[i], lr[i],
               li[i]);
    free(v);
    free(J);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return worst <= 1e-8 ? 0 : 1;
}
