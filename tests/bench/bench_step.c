/* Times the engine stepping one stream through a text with every gate computed and kept
 * (what the screen and --dump read). Prints the median characters per second over REPS
 * passes and the bytes of weights each step reads.
 * Usage: bench_step MODEL TEXT [REPS] [MAXSTEPS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "gatetui/kernset.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"

int main(int argc, char **argv)
{
    gt_error e;
    if (kernset_choose(getenv("GATETUI_KERNEL"), &e)) {
        fprintf(stderr, "bench_step: GATETUI_KERNEL: %s\n", e.msg);
        return 2;
    }
    if (argc == 2 && strcmp(argv[1], "--kernels") == 0) {
        puts(kernset_name());
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: bench_step MODEL TEXT [REPS] [MAXSTEPS]\n");
        return 2;
    }
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    size_t maxsteps = argc > 4 ? (size_t)atol(argv[4]) : (size_t)-1;
    gt_model m;
    gt_text t;
    gt_run r;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e) ||
        run_init(&r, &m, &e)) {
        fprintf(stderr, "bench_step: %s\n", e.msg);
        return 2;
    }
    size_t n = t.steps < maxsteps ? t.steps : maxsteps;
    const char *th = getenv("GATETUI_THREADS");
    if (th)
        run_set_threads(&r, atoi(th));
    double *rate = calloc((size_t)reps, sizeof *rate), sink = 0;
    for (int k = 0; k < reps; k++) {
        run_reset(&r);
        double t0 = bench_now();
        for (size_t s = 0; s < n; s++)
            run_step(&r, t.tok[s]);
        rate[k] = (double)n / (bench_now() - t0);
        sink += run_h(&r, m.layers - 1)[0];
    }
    qsort(rate, (size_t)reps, sizeof *rate, bench_cmp_double);
    /* the weights a step reads: every layer's W_hh, and W_ih above layer 0 (layer 0's input
     * part is a row of the table) */
    size_t G = (size_t)m.gates, bytes = 0;
    for (int k = 0; k < m.layers; k++) {
        const size_t H = (size_t)m.layer[k].hidden;
        bytes += G * H * H * sizeof(float) +
                 (k > 0 || !m.x_table ? G * H * (size_t)m.layer[k].in_dim * sizeof(float) : 0);
    }
    printf("%.0f %zu\n", rate[reps / 2], bytes);
    fprintf(stderr, "# %s: %s L=%d H=%d, %zu steps, median of %d: %.0f chars/s (sink %g)\n",
            argv[1], model_arch_name(&m), m.layers, m.hidden_max, n, reps, rate[reps / 2], sink);
    free(rate);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return 0;
}
