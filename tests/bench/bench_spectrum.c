/* Times the derivative view's eigenvalues (doc/measures.md, "The whole state's dynamics"):
 * spectrum_from at step T, from the float32 state the trace keeps before it, as the screen
 * computes them, REPS times (after two to warm up):
 *   bench_spectrum MODEL TEXT [T [REPS [LAYER]]]
 * prints the state's size, the median and the fastest time, and the eigenvalues as JSON on
 * its last line (spectrum_print_json) for the comparison with the peer
 * (tests/bench/spectrum_torch.py). */
#include <stdio.h>
#include <stdlib.h>

#include "gatetui/dynamics.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "tests/bench/clock.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_spectrum MODEL TEXT [T [REPS [LAYER]]]\n");
        return 2;
    }
    gt_model m;
    gt_text t;
    gt_error e;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e)) {
        fprintf(stderr, "bench_spectrum: %s\n", e.msg);
        return 2;
    }
    size_t T = argc > 3 ? (size_t)atol(argv[3]) : 2000;
    int reps = argc > 4 ? atoi(argv[4]) : 11, layer = argc > 5 ? atoi(argv[5]) : 0;
    if (T >= t.steps || reps < 1 || layer < 0 || layer >= m.layers) {
        fprintf(stderr, "bench_spectrum: T %zu, REPS %d, layer %d, %zu steps\n", T, reps,
                layer, t.steps);
        return 2;
    }
    gt_run r;
    if (run_init(&r, &m, &e)) {
        fprintf(stderr, "bench_spectrum: %s\n", e.msg);
        return 1;
    }
    for (size_t s = 0; s < T; s++)
        run_step_layers(&r, t.tok[s], m.layers - 1);
    double *dt = malloc((size_t)reps * sizeof *dt);
    gt_spectrum sp = {0};
    for (int i = -2; i < reps; i++) {
        spectrum_free(&sp);
        double t0 = bench_now();
        if (spectrum_from(&sp, &m, layer, r.h, r.c, t.tok[T], T, &e)) {
            fprintf(stderr, "bench_spectrum: %s\n", e.msg);
            return 1;
        }
        if (i >= 0)
            dt[i] = bench_now() - t0;
    }
    qsort(dt, (size_t)reps, sizeof *dt, bench_cmp_double);
    printf("model %s, H %d, layer %d, step %d: %d x %d\n", argv[1], model_width(&m, layer),
           layer, (int)T, sp.n, sp.n);
    printf("median %.1f ms, fastest %.1f ms over %d runs\n", 1e3 * dt[reps / 2], 1e3 * dt[0],
           reps);
    spectrum_print_json(stdout, &sp, &e);
    spectrum_free(&sp);
    free(dt);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return 0;
}
