/* Times the derivative sheet's eigenvalues (doc/measures.md, "The eigenvalues at a step"):
 * the step Jacobian J_T formed from the float32 state the trace keeps before step T, then
 * its K eigenvalues of largest modulus by ARPACK (eigen_top) against its whole spectrum by
 * LAPACK (eigen_all, on a copy of J made before the clock starts), REPS times each in turn
 * (after one of each to warm up):
 *   bench_eig MODEL TEXT [T [REPS [K [LAYER]]]]
 * prints the state's size, the medians and the fastest times of both (the eigenvalues
 * alone, then with J formed: spectrum_top_from and spectrum_from, what the screen's child
 * computes and what it computed before), and the largest difference between ARPACK's K
 * values and LAPACK's first K in the same order, relative to max(1, |lambda|). */
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

/* This thread's processor time in seconds. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* Up to three computations timed in turn: the wall and processor times of each run. */
typedef struct timing {
    int reps;
    double *w[3], *c[3];
} timing;

static void timing_init(timing *t, int reps)
{
    t->reps = reps;
    for (int i = 0; i < 3; i++) {
        t->w[i] = malloc((size_t)reps * sizeof *t->w[i]);
        t->c[i] = malloc((size_t)reps * sizeof *t->c[i]);
    }
}

static void timing_free(timing *t)
{
    for (int i = 0; i < 3; i++) {
        free(t->w[i]);
        free(t->c[i]);
    }
}

/* Run i's times of computation j, from its start (w0, c0); i < 0: a warm-up, not kept. */
static void timing_take(timing *t, int j, int i, double w0, double c0)
{
    const double w = bench_now(), c = cpu_now();
    if (i >= 0) {
        t->w[j][i] = w - w0;
        t->c[j][i] = c - c0;
    }
}

/* The eigenvalues alone: ARPACK's k without a bound into (ar, ai), LAPACK's n into (lr, li),
 * and as the derivative sheet asks (eigen_budget: *how). */
static void time_eigen(const double *J, int n, int k, int reps, double *ar, double *ai,
                       double *lr, double *li, eigen_how *how)
{
    double *B = malloc((size_t)n * (size_t)n * sizeof *B), *sr = malloc(2 * (size_t)k * sizeof *sr);
    timing t;
    timing_init(&t, reps);
    gt_error e;
    eigen_how free_how;
    for (int i = -1; i < reps; i++) {
        double w0 = bench_now(), c0 = cpu_now();
        if (eigen_top(J, n, k, -1, ar, ai, &free_how, &e))
            die("ARPACK", &e);
        timing_take(&t, 0, i, w0, c0);
        memcpy(B, J, (size_t)n * (size_t)n * sizeof *B);
        w0 = bench_now(), c0 = cpu_now();
        if (eigen_all(B, n, lr, li, &e))
            die("LAPACK", &e);
        timing_take(&t, 1, i, w0, c0);
        w0 = bench_now(), c0 = cpu_now();
        if (eigen_top(J, n, k, eigen_budget(n, k), sr, sr + k, how, &e))
            die("the sheet's", &e);
        timing_take(&t, 2, i, w0, c0);
    }
    char a[80], b[80], c[80];
    snprintf(a, sizeof a, "ARPACK, the %d largest (%ld products)", k, free_how.products);
    snprintf(b, sizeof b, "LAPACK, all %d", n);
    snprintf(c, sizeof c, "the sheet's: %s", how->by == EIGEN_BY_ARPACK ? "ARPACK" : "LAPACK");
    report(a, t.w[0], t.c[0], reps);
    report(b, t.w[1], t.c[1], reps);
    report(c, t.w[2], t.c[2], reps);
    if (free_how.by != EIGEN_BY_ARPACK)
        printf("(ARPACK's basis does not fit: LAPACK above)\n");
    timing_free(&t);
    free(B);
    free(sr);
}

/* As the screen's child computes them, J formed from the state each time: the k largest
 * (spectrum_top_from) and all (spectrum_from, as before). */
static void time_spectrum(const gt_model *m, int layer, const float *h, const float *c,
                          uint16_t tok, size_t T, int k, int reps)
{
    timing t;
    timing_init(&t, reps);
    gt_spectrum s;
    gt_error e;
    for (int i = -1; i < reps; i++) {
        double w0 = bench_now(), c0 = cpu_now();
        if (spectrum_top_from(&s, m, layer, h, c, tok, T, k, &e))
            die("spectrum_top_from", &e);
        timing_take(&t, 0, i, w0, c0);
        spectrum_free(&s);
        w0 = bench_now(), c0 = cpu_now();
        if (spectrum_from(&s, m, layer, h, c, tok, T, &e))
            die("spectrum_from", &e);
        timing_take(&t, 1, i, w0, c0);
        spectrum_free(&s);
    }
    report("J formed, the sheet's (spectrum_top_from)", t.w[0], t.c[0], reps);
    report("J formed, all (spectrum_from)", t.w[1], t.c[1], reps);
    timing_free(&t);
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
    double *w = malloc(2 * ((size_t)k + (size_t)n) * sizeof *w);
    double *ar = w, *ai = w + k, *lr = w + 2 * k, *li = lr + n;
    eigen_how how;
    time_eigen(J, n, k, reps, ar, ai, lr, li, &how);
    time_spectrum(&m, layer, r.h, r.c, t.tok[T], T, k, reps);
    double worst = 0;
    for (int i = 0; i < k; i++) {
        const double d = hypot(ar[i] - lr[i], ai[i] - li[i]) / fmax(1, hypot(lr[i], li[i]));
        worst = d > worst ? d : worst;
    }
    const long budget = eigen_budget(n, k);
    if (how.by == EIGEN_BY_ARPACK)
        printf("the sheet's by ARPACK: %ld products of its budget of %ld\n", how.products,
               budget);
    else if (budget == 0)
        printf("the sheet's by LAPACK: n %d is below %d, where ARPACK is tried\n", n,
               EIGEN_FROM);
    else
        printf("the sheet's by LAPACK: ARPACK's budget of %ld products ran out\n", budget);
    printf("ARPACK's %d largest within %.1e of LAPACK's first %d (relative to max(1, |l|)); "
           "|l| %.6f .. %.6f, the next %.6f\n", k, worst, k, hypot(lr[0], li[0]),
           hypot(lr[k - 1], li[k - 1]), k < n ? hypot(lr[k], li[k]) : NAN);
    for (int i = 0; i < k; i++)
        printf("  %2d  ARPACK %+.12f %+.12fi   LAPACK %+.12f %+.12fi\n", i, ar[i], ai[i], lr[i],
               li[i]);
    free(w);
    free(J);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return worst <= 1e-8 ? 0 : 1;
}
