/* What the statistics of --units cost on top of the run they ride along: in one binary,
 * over the same first N steps of TEXT repeated until it has them, the plain pass (the
 * model stepped through the layer, signals_pass with no consumer) and --units
 * (units_compute: the regular expression's mask, the same pass with the sums after each
 * step, the ranking), alternated REPS times; and the sums alone (units_add N times on one
 * state, without stepping), which the two runs' difference measures less exactly on a busy
 * machine. Prints the medians in seconds and the ratios to the plain pass, of the wall
 * clock and of the processor time used (with one thread, the steadier); with a last
 * argument OUT.json, --units's JSON too (for a comparison).
 *   bench_units MODEL TEXT REGEX [N [REPS [OUT.json]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gatetui/finding.h"
#include "gatetui/mask.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/signals.h"
#include "gatetui/text.h"
#include "gatetui/units.h"

/* Seconds of the wall clock, and of processor time this process used (which a busy
 * machine disturbs far less: waiting for a processor is not counted). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* TEXT's bytes repeated until they hold n steps (or 64 times). */
static int load_text(gt_text *t, const char *path, const gt_model *m, size_t n, gt_error *e)
{
    gt_text one;
    if (text_load(&one, path, m, e))
        return -1;
    size_t times = (n + one.steps - 1) / one.steps;
    times = times < 1 ? 1 : times > 64 ? 64 : times;
    char *buf = malloc(one.nbytes * times);
    for (size_t i = 0; buf && i < times; i++)
        memcpy(buf + i * one.nbytes, one.bytes, one.nbytes);
    int rc = buf ? text_from_memory(t, path, buf, one.nbytes * times, m, e) : -1;
    free(buf);
    text_free(&one);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_units MODEL TEXT REGEX [N [REPS [OUT.json]]]\n");
        return 2;
    }
    size_t n = argc > 4 ? (size_t)atol(argv[4]) : 1000000;
    int reps = argc > 5 ? atoi(argv[5]) : 3;
    reps = reps < 1 ? 1 : reps > 50 ? 50 : reps;
    gt_error e = {0};
    gt_model m;
    gt_text t;
    if (model_load(&m, argv[1], NULL, &e) || load_text(&t, argv[2], &m, n, &e)) {
        fprintf(stderr, "bench_units: %s\n", e.msg);
        return 2;
    }
    n = n < t.steps ? n : t.steps;
    const char *th = getenv("GATETUI_THREADS");
    gt_pass_options o = {0, th ? atoi(th) : 1, NULL, NULL};
    double plain[50], units[50], sums[50], cplain[50], cunits[50];
    gt_units u = {0};
    gt_mask mask;
    gt_run run;
    if (mask_from_regex(&mask, &m, t.tok, n, argv[3], MASK_SECONDS, &e) ||
        run_init(&run, &m, &e)) {
        fprintf(stderr, "bench_units: %s\n", e.msg);
        return 2;
    }
    run_step(&run, t.tok[0]);
    for (int r = 0; r < reps; r++) {
        gt_units_acc *acc = units_acc_new(&m, 0, &mask, &e); /* each time from no step */
        if (!acc) {
            fprintf(stderr, "bench_units: %s\n", e.msg);
            return 2;
        }
        double a = now();
        for (size_t s = 0; s < n; s++)
            units_add(acc, s, &run);
        sums[r] = now() - a;
        units_acc_free(acc);
    }
    run_free(&run);
    mask_free(&mask);
    for (int r = 0; r < reps; r++) {
        double a = now(), c = cpu();
        signals_pass(&m, t.tok, n, &o, NULL, NULL, &e);
        plain[r] = now() - a;
        cplain[r] = cpu() - c;
        if (r)
            units_free(&u);
        a = now();
        c = cpu();
        if (units_compute(&u, &m, t.tok, n, argv[3], MASK_SECONDS, &o, &e)) {
            fprintf(stderr, "bench_units: %s\n", e.msg);
            return 2;
        }
        units[r] = now() - a;
        cunits[r] = cpu() - c;
    }
    double p = median(plain, reps), q = median(units, reps), w = median(sums, reps);
    double cp = median(cplain, reps), cq = median(cunits, reps);
    printf("steps %zu plain %.3f units %.3f ratio %.4f sums %.3f sums/plain %.4f "
           "cpu-plain %.3f cpu-units %.3f cpu-ratio %.4f\n",
           n, p, q, q / p, w, w / p, cp, cq, cq / cp);
    if (argc > 6) {
        FILE *f = fopen(argv[6], "w");
        if (!f || find_print_units(f, &u, argv[3], -1, argv[2], 1) || fclose(f)) {
            fprintf(stderr, "bench_units: cannot write %s\n", argv[6]);
            return 1;
        }
    }
    units_free(&u);
    text_free(&t);
    model_free(&m);
    return 0;
}
