/* Times the Jacobian against the carry line (gatetui --jacobian; doc/measures.md): J(T-k, k)
 * for k = 1..K at one step of a text, from the float32 state before T-K, REPS times:
 *   bench_jacobian MODEL TEXT [T [K [REPS [LAYER]]]]
 * prints the median and the fastest time of jacobian_run (the double-precision run of steps
 * T-K..T and the backward sweep), the floating-point operations of its products and their
 * rate, the processor time it took (all threads: the rate per processor while it ran, which
 * a busy machine does not lower), the threads used (GATETUI_THREADS, default every
 * processor), and the lags' |J|_F
 * as JSON on its last line for the comparison with PyTorch (tests/bench/jacobian_torch.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gatetui/jacobian.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_jacobian MODEL TEXT [T [K [REPS [LAYER]]]]\n");
        return 2;
    }
    gt_model m;
    gt_text t;
    gt_error e;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e)) {
        fprintf(stderr, "bench_jacobian: %s\n", e.msg);
        return 2;
    }
    size_t T = argc > 3 ? (size_t)atol(argv[3]) : 1000;
    int K = argc > 4 ? atoi(argv[4]) : 32, reps = argc > 5 ? atoi(argv[5]) : 21;
    int layer = argc > 6 ? atoi(argv[6]) : 0;
    if (T >= t.steps || (size_t)K > T || K < 1 || reps < 1) {
        fprintf(stderr, "bench_jacobian: T %zu, K %d, %zu steps\n", T, K, t.steps);
        return 2;
    }
    gt_run r;
    run_init(&r, &m, &e);
    for (size_t s = 0; s < T - (size_t)K; s++)
        run_step_layers(&r, t.tok[s], layer);
    const char *th = getenv("GATETUI_THREADS");
    gt_jacobian j;
    if (jacobian_init(&j, &m, layer, K, th ? atoi(th) : 0, &e)) {
        fprintf(stderr, "bench_jacobian: %s\n", e.msg);
        return 1;
    }
    double *dt = malloc(2 * (size_t)reps * sizeof *dt), *dc = dt + reps;
    for (int i = -2; i < reps; i++) { /* two runs to warm up */
        double t0 = now(), c0 = cpu();
        jacobian_run(&j, r.h, r.c, t.tok + T - K, K, &e);
        if (i >= 0) {
            dt[i] = now() - t0;
            dc[i] = cpu() - c0;
        }
    }
    qsort(dt, (size_t)reps, sizeof *dt, cmp_d);
    qsort(dc, (size_t)reps, sizeof *dc, cmp_d);
    double med = dt[reps / 2], fl = jacobian_flops(&j);
    printf("model %s, H %d, layer %d, step %zu, lags 1..%d, %d threads\n", argv[1], m.layer[layer].hidden,
           layer, T, K, j.threads);
    printf("median %.2f ms, fastest %.2f ms over %d runs\n", 1e3 * med, 1e3 * dt[0], reps);
    printf("products %.3f GFLOP: %.1f GFLOP/s at the median, %.1f at the fastest\n", fl / 1e9,
           fl / med / 1e9, fl / dt[0] / 1e9);
    printf("processor time (every thread) median %.2f ms: %.1f GFLOP/s per processor busy\n",
           1e3 * dc[reps / 2], fl / dc[reps / 2] / 1e9);
    printf("{\"median\": %.6f, \"frob\": [", med);
    for (int k = 1; k <= K; k++) {
        gt_jacobian_lag l;
        jacobian_lag(&j, k, 0, &l);
        printf("%s%.12g", k > 1 ? ", " : "", l.frob);
    }
    printf("]}\n");
    free(dt);
    jacobian_free(&j);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return 0;
}
