/* The probe's fit alone, timed: the signal h of MODEL over the first STEPS steps of TEXT,
 * the mask of REGEX, every unit standardised over all the steps (a constant one dropped),
 * written to DIR (x.f64: n x d row-major doubles, the values the fit sees, y.u8, then
 * w.f64: the d weights and the bias gatetui finds), and the median of REPS fits by
 * probe_logistic with lambda 1e-3.
 * Prints "n d seconds". The fit on THREADS threads (the environment; 1 when unset). Run by
 * tests/bench/bench_probe.sh.
 *   bench_probe MODEL TEXT REGEX STEPS REPS DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/mask.h"
#include "gatetui/probe.h"
#include "tests/bench/clock.h"

static void put(const char *dir, const char *name, const void *p, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, size, f) != size || fclose(f))
        exit(1);
}

int main(int argc, char **argv)
{
    if (argc != 7)
        return 2;
    gt_model m;
    gt_text t;
    gt_error e = {0};
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    size_t n = strtoul(argv[4], NULL, 10);
    int reps = atoi(argv[5]);
    const char *th = getenv("THREADS");
    const int threads = th ? atoi(th) : 1;
    n = n < t.steps ? n : t.steps;
    gt_mask k;
    gt_signal_matrix x;
    gt_pass_options po = {0, 1, NULL, NULL};
    if (mask_from_regex(&k, &m, t.tok, n, argv[3], MASK_SECONDS, &e) ||
        probe_matrix(&x, &m, t.tok, n, m.cell->nsignals - 1, &po, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    const size_t H = (size_t)x.H;
    /* the columns not constant, packed; x.f64 gets the values the fit sees */
    float *v = malloc(n * H * sizeof *v);
    double *z = malloc(n * H * sizeof *z), *w = malloc((H + 1) * sizeof *w),
           *mean = malloc(H * sizeof *mean), *scale = malloc(H * sizeof *scale);
    size_t d = 0;
    for (size_t j = 0; j < H; j++) {
        double s = 0, ss = 0;
        for (size_t i = 0; i < n; i++)
            s += x.x[i * H + j];
        double mu = s / (double)n;
        for (size_t i = 0; i < n; i++)
            ss += (x.x[i * H + j] - mu) * (x.x[i * H + j] - mu);
        if (ss <= 0)
            continue;
        mean[d] = mu, scale[d] = 1 / sqrt(ss / (double)n);
        for (size_t i = 0; i < n; i++) {
            v[i * H + d] = x.x[i * H + j];
            z[i * H + d] = (x.x[i * H + j] - mu) * scale[d];
        }
        d++;
    }
    for (size_t i = 0; i < n; i++) { /* pack the rows to d columns */
        memmove(z + i * d, z + i * H, d * sizeof *z);
        memmove(v + i * d, v + i * H, d * sizeof *v);
    }
    put(argv[6], "x.f64", z, n * d * sizeof *z);
    put(argv[6], "y.u8", k.m, n);
    const gt_probe_rows rows = {v, mean, scale, n, (int)d};
    double *sec = malloc((size_t)reps * sizeof *sec);
    gt_probe_work work = {0, 0};
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now();
        if (probe_logistic_counted(&rows, k.m, 1e-3, threads, w, &work, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
        sec[r] = bench_now() - t0;
    }
    put(argv[6], "w.f64", w, (d + 1) * sizeof *w);
    qsort(sec, (size_t)reps, sizeof *sec, bench_cmp_double);
    printf("%zu %zu %.6f %zu %zu\n", n, d, sec[reps / 2], work.passes, work.hessian_rows);
    return 0;
}
