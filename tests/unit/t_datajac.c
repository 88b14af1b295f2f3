/* The derivative sheet's Jacobian made on its own thread (src/screen/data_jac.c; doc/
 * architecture.md, "Forks"): on the sample LSTM at step 40 of kjv-valid.txt, 30 times its
 * buffers made anew on the computation's thread while the test forks at once, as a key's
 * children may be forked: each child allocates on two threads and ends within a minute. A
 * fork that came while the thread started or made its buffers, an allocator's lock held,
 * would leave that lock held in the child, whose allocations would wait for ever: seen with
 * AddressSanitizer's allocator (3 children of 8 without the wait below; glibc's takes its
 * own locks around a fork), so data_jac_update returns once the thread has started, and a
 * fork waits while the thread makes its buffers. Each computation ends with the first one's
 * lags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/forkchurn.h"
#include "../lib/sampletrace.h"
#include "../lib/tap.h"

#define ROUNDS 30

/* Ticks until the computation is collected (a minute at most); 1 when it is. */
static int collect(gt_data_jac *jv)
{
    struct timespec ts = {0, 1000000};
    for (int waited = 0; waited < 60000; waited++) {
        if (data_jac_tick(jv))
            return 1;
        nanosleep(&ts, NULL);
    }
    return 0;
}

int main(void)
{
    gt_model m;
    gt_text t;
    gt_error e = {0};
    gt_trace *tr;
    gt_data_jac jv;
    if (sampletrace_open(&m, &t, &tr, &jv, &e)) {
        tap_ok(0, "the sample LSTM, its text, its trace: %s", e.msg);
        printf("1..%d\n", tap_n);
        return 1;
    }
    int children = 0, computed = 0, same = 0;
    double first[32 * 3];
    for (int r = 0; r < ROUNDS; r++) {
        data_jac_model_changed(&jv); /* its buffers gone: made again on the thread */
        data_jac_update(&jv, tr, 0, 40, 7, 32); /* returns once its thread has started */
        children += forkchurn();
        if (!collect(&jv) || !jv.valid || jv.K != 32)
            continue;
        computed++;
        int eq = 1;
        for (int k = 0; k < 32; k++) {
            const double v[3] = {jv.lag[k].diag, jv.lag[k].row, jv.lag[k].frob};
            if (r == 0)
                memcpy(first + 3 * k, v, sizeof v);
            eq = eq && !memcmp(first + 3 * k, v, sizeof v);
        }
        same += eq;
    }
    tap_ok(children == ROUNDS, "%d of %d children forked as the thread made its buffers ended",
           children, ROUNDS);
    tap_ok(computed == ROUNDS && same == ROUNDS,
           "%d of %d computations ended, %d with the first's 32 lags", computed, ROUNDS, same);
    sampletrace_close(&m, &t, tr, &jv);
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
