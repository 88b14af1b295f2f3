/* Independent jobs over threads (see jobs.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "compute/jobs.h"

typedef struct run_state {
    const gt_jobs *j;
    atomic_size_t next;
    atomic_llong done;
    atomic_int failed;
    pthread_mutex_t lock;
    gt_error err;
    size_t err_job; /* the job whose error err is: the lowest that failed */
} run_state;

typedef struct worker {
    run_state *rs;
    int id;
    pthread_t thread;
} worker;

/* Job i failed (0 for a thread's begin, which comes before any job). Every job below i has been taken and runs to
 * its end, so keeping the lowest failed job's error makes the error the same whichever
 * thread ran what. */
static void fail(run_state *rs, size_t i, const gt_error *e)
{
    pthread_mutex_lock(&rs->lock);
    if (!atomic_load(&rs->failed) || i < rs->err_job) {
        rs->err = *e;
        rs->err_job = i;
    }
    atomic_store(&rs->failed, 1);
    pthread_mutex_unlock(&rs->lock);
}

static void *work(void *arg)
{
    worker *wk = arg;
    run_state *rs = wk->rs;
    const gt_jobs *j = rs->j;
    gt_error e = {0};
    void *state = NULL;
    if (j->begin && j->begin(j->ctx, &state, &e)) {
        fail(rs, 0, &e);
    } else {
        for (;;) {
            size_t i = atomic_fetch_add(&rs->next, 1);
            if (i >= j->njobs || atomic_load(&rs->failed))
                break;
            if (j->run(j->ctx, state, i, &e)) {
                fail(rs, i, &e);
                break;
            }
            long long c = j->cost ? j->cost(j->ctx, i) : 1;
            long long done = atomic_fetch_add(&rs->done, c) + c;
            if (wk->id == 0 && j->progress)
                j->progress(j->progress_ctx, (double)done / (double)j->total);
        }
    }
    if (j->end)
        j->end(j->ctx, state);
    return NULL;
}

int jobs_run(const gt_jobs *j, int *started, gt_error *e)
{
    int threads = j->threads < 1 ? 1 : j->threads;
    worker *wk = calloc((size_t)threads, sizeof *wk);
    if (!wk)
        return gt_fail(e, GT_EFAIL, "out of memory for the threads");
    run_state rs = {.j = j};
    atomic_init(&rs.next, 0);
    atomic_init(&rs.done, 0);
    atomic_init(&rs.failed, 0);
    pthread_mutex_init(&rs.lock, NULL);
    int n = 1;
    for (int i = 0; i < threads; i++)
        wk[i] = (worker){&rs, i, 0};
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&wk[i].thread, NULL, work, &wk[i]) != 0)
            break; /* the threads started do the work */
        n++;
    }
    work(&wk[0]);
    for (int i = 1; i < n; i++)
        pthread_join(wk[i].thread, NULL);
    free(wk);
    pthread_mutex_destroy(&rs.lock);
    if (started)
        *started = n;
    if (atomic_load(&rs.failed)) {
        *e = rs.err;
        return rs.err.code ? rs.err.code : GT_EFAIL;
    }
    return GT_OK;
}
