/* Independent jobs over threads (doc/architecture.md, "Concurrency"): each thread takes the
 * next job by an atomic increment of an index, with a state of its own made before its first
 * job; the error of the lowest job that failed is kept (the same whichever thread ran what)
 * and stops the others at their next job; progress is counted in the jobs' costs and
 * reported by the calling thread. A job writes only its own slots of
 * the caller's results, which the caller reduces in a fixed order afterwards, so that the
 * numbers do not depend on the number of threads or on which thread ran what. */
#ifndef GATETUI_COMPUTE_JOBS_H
#define GATETUI_COMPUTE_JOBS_H

#include <stddef.h>

#include "gatetui/error.h"

typedef struct gt_jobs {
    size_t njobs;
    int threads;  /* at most this many, the calling thread among them */
    void *ctx;    /* handed to every function below */
    /* A thread's state before its first job, into *state (may be NULL: no state). */
    int (*begin)(void *ctx, void **state, gt_error *e);
    /* Job i with the thread's state: GT_OK, or an error in e. */
    int (*run)(void *ctx, void *state, size_t i, gt_error *e);
    /* Frees a thread's state (whatever begin left in *state, also after its error). */
    void (*end)(void *ctx, void *state);
    /* Job i's cost, for the progress (NULL: 1 each); total: the sum of every job's cost. */
    long long (*cost)(void *ctx, size_t i);
    long long total;
    /* The share done, in [0, 1], after each of the calling thread's jobs (NULL: none). */
    void (*progress)(void *progress_ctx, double done);
    void *progress_ctx;
} gt_jobs;

/* Runs every job once (or until one fails). GT_OK, or the lowest failed job's error, in e;
 * *started (may be NULL) the number of threads that ran. */
int jobs_run(const gt_jobs *j, int *started, gt_error *e);

#endif
