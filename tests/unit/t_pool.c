/* The pool's block jobs (compute/pool.h, pool_blocks): every block of a job done once,
 * none of a job after it returned, over many jobs of 1 to 40 blocks on 2 and 4 threads
 * (more threads than this machine may have processors: workers late for a job); a worker
 * that holds a block while the others are free does not hold the caller up: the caller
 * takes the rest (with a fixed share per thread it would wait for the worker's share), and
 * a caller that holds a block the worker takes the caller's others; and
 * pool_run's jobs between block jobs still run on every thread. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute/pool.h"
#include "../lib/tap.h"

#define MAX_BLOCKS 40

static _Thread_local int on_caller;

typedef struct job {
    _Atomic int hits[MAX_BLOCKS];
    _Atomic int closed;       /* set once pool_blocks returned */
    _Atomic int *late;        /* blocks done after their job returned (all jobs) */
    _Atomic int by_caller, by_worker;
    int blocks, hold;         /* hold 1: a worker's block waits for the caller's others;
                               * -1: the caller's block 0 waits for the worker's others */
} job;

/* Waits until *v reaches at least `want`, at most 5 s (a pool that made its caller wait
 * for the worker would never let it: the check after it then fails). */
static void wait_for(_Atomic int *v, int want)
{
    const struct timespec pause = {0, 100000};
    for (int i = 0; i < 50000 && atomic_load(v) < want; i++)
        nanosleep(&pause, NULL);
}

static void block(void *ctx, int b)
{
    job *j = ctx;
    if (atomic_load(&j->closed))
        atomic_fetch_add(j->late, 1);
    if (on_caller) {
        if (j->hold < 0 && b == 0)
            wait_for(&j->by_worker, j->blocks - 1);
        atomic_fetch_add(&j->by_caller, 1);
    } else {
        if (j->hold > 0)
            wait_for(&j->by_caller, j->blocks - 1);
        atomic_fetch_add(&j->by_worker, 1);
    }
    atomic_fetch_add(&j->hits[b], 1);
}

static void each_thread(void *ctx, int k, int n)
{
    _Atomic int *seen = ctx;
    if (k < n)
        atomic_fetch_add(&seen[k], 1);
}

/* `jobs` block jobs of 1..MAX_BLOCKS blocks on a pool of `threads`, with a pool_run job
 * every 97th: 1 when every block was done once and none late, and every pool_run reached
 * every thread. */
static void many(int threads, int jobs)
{
    gt_pool *p = pool_start(threads);
    _Atomic int late = 0;
    int wrong = 0, runs_wrong = 0;
    job *j = malloc(sizeof *j);
    on_caller = 1;
    for (int t = 0; t < jobs; t++) {
        memset(j, 0, sizeof *j);
        j->late = &late;
        j->blocks = 1 + (int)((unsigned)t * 2654435761u % MAX_BLOCKS);
        pool_blocks(p, j->blocks, block, j);
        atomic_store(&j->closed, 1);
        for (int b = 0; b < MAX_BLOCKS; b++)
            wrong += atomic_load(&j->hits[b]) != (b < j->blocks);
        if (t % 97 == 0) {
            _Atomic int seen[16] = {0};
            pool_run(p, each_thread, (void *)seen);
            for (int k = 0; k < pool_threads(p); k++)
                runs_wrong += atomic_load(&seen[k]) != 1;
        }
    }
    pool_stop(p); /* joins the workers: a late one has finished by now */
    tap_ok(p && wrong == 0 && atomic_load(&late) == 0,
           "%d threads, %d jobs of 1 to %d blocks: each block done once (%d wrong), none after "
           "its job returned (%d)", threads, jobs, MAX_BLOCKS, wrong, atomic_load(&late));
    tap_ok(runs_wrong == 0, "%d threads: pool_run between them reaches every thread (%d wrong)",
           threads, runs_wrong);
    free(j);
}

/* hold 1: a worker's block waits until the caller has done every other block, so the caller
 * must take the worker's share (with fixed shares it would wait for the worker's other
 * blocks, which the worker starts only after its first); hold -1: the caller's first block
 * waits until the worker has done every other block, so the worker must take the caller's
 * others after its own (taking only its own share, it would leave them: the wait runs out).
 * 20 jobs of 8 blocks: the one not held does at least 7 of them. */
static void held(int hold)
{
    gt_pool *p = pool_start(2);
    job *j = calloc(1, sizeof *j);
    _Atomic int late = 0;
    int ok = 1, least = MAX_BLOCKS;
    on_caller = 1;
    for (int t = 0; t < 20 && ok; t++) { /* stopped at the first failure: each waits 5 s */
        memset(j, 0, sizeof *j);
        j->late = &late;
        j->blocks = 8;
        j->hold = hold;
        pool_blocks(p, j->blocks, block, j);
        const int c = atomic_load(hold > 0 ? &j->by_caller : &j->by_worker);
        least = c < least ? c : least;
        ok &= c >= j->blocks - 1;
        for (int b = 0; b < j->blocks; b++)
            ok &= atomic_load(&j->hits[b]) == 1;
    }
    pool_stop(p);
    tap_ok(p && ok, hold > 0 ? "a worker holding a block: the caller did at least 7 of the 8 "
                               "blocks in each of 20 jobs (the least %d)"
                             : "the caller holding its first block: the worker did the other 7 "
                               "of 8, the caller's share among them, in each of 20 jobs (the "
                               "least %d)", least);
    free(j);
}

int main(void)
{
    many(2, 20000);
    many(4, 5000);
    held(1);
    held(-1);
    {
        job j = {.blocks = 5};
        _Atomic int late = 0;
        j.late = &late;
        on_caller = 1;
        pool_blocks(NULL, 5, block, &j);
        tap_ok(atomic_load(&j.by_caller) == 5, "no pool: all five blocks on the caller");
    }
    return tap_done();
}
