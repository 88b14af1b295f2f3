/* The screen's background pass over a whole text: steps per second from start to end
 * (trace_pass_start, then waiting for it). GATETUI_THREADS sets its threads (1, 2, or 0 for
 * the adaptive choice, which is also what it does unset on a model large enough).
 *   bench_pass MODEL TEXT */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/trace.h"

int main(int argc, char **argv)
{
    gt_error e = {0};
    gt_model m;
    gt_text t;
    gt_trace *tr;
    if (argc != 3) {
        fprintf(stderr, "usage: bench_pass MODEL TEXT\n");
        return 2;
    }
    const char *th = getenv("GATETUI_THREADS"); /* as gatetui takes it: 0 asks for the choice */
    gt_trace_limits lim = {.pass_threads = !th || !*th ? 0 : atoi(th) > 0 ? atoi(th) : -1};
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e) ||
        trace_open(&tr, &m, &t, &lim, &e)) {
        fprintf(stderr, "bench_pass: %s\n", e.msg);
        return 2;
    }
    double a = bench_now();
    trace_pass_start(tr, t.steps, &e);
    struct timespec ms = {0, 1000000};
    while (trace_pass_running(tr))
        nanosleep(&ms, NULL);
    printf("%.0f\n", (double)t.steps / (bench_now() - a));
    trace_close(tr);
    text_free(&t);
    model_free(&m);
    return 0;
}
