/* The derivative sheet's Jacobian (see data_jac.h). */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute/threads.h"
#include "screen/data_jac.h"

static void stop_run(gt_data_jac *jv);

/* The fork fence of the buffers made on the computation's thread (doc/architecture.md,
 * "Forks"): a fork waits while a thread makes them (an allocator's lock held at the fork
 * would stay held in the child, AddressSanitizer's among them), so a child never starts
 * inside jacobian_init; the products after it allocate nothing. */
static pthread_mutex_t making = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t making_once = PTHREAD_ONCE_INIT;

static void making_lock(void)
{
    pthread_mutex_lock(&making);
}

static void making_unlock(void)
{
    pthread_mutex_unlock(&making);
}

static void making_install(void)
{
    pthread_atfork(making_lock, making_unlock, making_unlock);
}

int data_jac_init(gt_data_jac *jv, const gt_model *m, gt_error *e)
{
    memset(jv, 0, sizeof *jv);
    jv->m = m;
    jv->horizon = DATA_JAC_KDEFAULT;
    jv->j_layer = -1;
    const size_t LH = (size_t)m->hidden_total;
    jv->h0 = malloc(LH * sizeof *jv->h0);
    jv->c0 = malloc(LH * sizeof *jv->c0);
    jv->tok = malloc((DATA_JAC_KMAX + 1) * sizeof *jv->tok);
    jv->lag = calloc(DATA_JAC_KMAX, sizeof *jv->lag);
    if (!jv->h0 || !jv->c0 || !jv->tok || !jv->lag) {
        data_jac_free(jv);
        return gt_fail(e, GT_EFAIL, "out of memory for the derivative");
    }
    return GT_OK;
}

void data_jac_free(gt_data_jac *jv)
{
    stop_run(jv);
    if (jv->j_layer >= 0)
        jacobian_free(&jv->j);
    free(jv->h0);
    free(jv->c0);
    free(jv->tok);
    free(jv->lag);
    memset(jv, 0, sizeof *jv);
    jv->j_layer = -1;
}

void data_jac_model_changed(gt_data_jac *jv)
{
    stop_run(jv);
    if (jv->j_layer >= 0)
        jacobian_free(&jv->j);
    jv->j_layer = -1;
    jv->valid = 0;
}

void data_jac_invalidate(gt_data_jac *jv)
{
    jv->gen++;
    jv->stale = 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* The computation's thread: J from the state and tokens start() read, its buffers made
 * first for a layer they were not made for (some megabytes, each page cleared as it is
 * first touched: up to tens of milliseconds the screen does not wait for, unless it forks
 * meanwhile). */
static void *run(void *arg)
{
    gt_data_jac *jv = arg;
    threads_background(); /* the screen's keys first (doc/architecture.md, "Concurrency") */
    jv->run_rc = GT_OK;
    const int make = jv->j_layer != jv->run_layer;
    if (make)
        making_lock();
    atomic_store_explicit(&jv->started, 1, memory_order_release);
    if (make) {
        if (jv->j_layer >= 0)
            jacobian_free(&jv->j);
        jv->j_layer = -1;
        jv->run_rc = jacobian_init(&jv->j, jv->m, jv->run_layer, DATA_JAC_KMAX, jv->threads,
                                   &jv->run_e);
        if (!jv->run_rc) {
            jv->j_layer = jv->run_layer;
            jv->j.stop = &jv->stop;
        }
        making_unlock();
    }
    if (!jv->run_rc)
        jv->run_rc = jacobian_run(&jv->j, jv->h0, jv->c0, jv->tok, jv->run_K, &jv->run_e);
    atomic_store_explicit(&jv->done, 1, memory_order_release);
    return NULL;
}

/* J at step t of layer, K = min(horizon, t) lags: the state at T - K and the tokens read
 * here, the buffers and the products on a thread of their own (GT_OK when it started, or
 * when K = 0: done). */
static int start(gt_data_jac *jv, gt_trace *tr, int layer, size_t t, gt_error *e)
{
    const int K = t < (size_t)jv->horizon ? (int)t : jv->horizon;
    pthread_once(&making_once, making_install);
    jv->run_step = t;
    jv->run_layer = layer;
    jv->run_K = K;
    jv->run_gen = jv->gen;
    jv->run_t0 = now_ms();
    if (K == 0) { /* nothing to differentiate by: done at once */
        jv->run_rc = GT_OK;
        atomic_store(&jv->done, 1);
        jv->computing = 1;
        return GT_OK;
    }
    int rc = trace_state_before(tr, t - (size_t)K, jv->h0, jv->c0, e);
    if (rc)
        return rc;
    trace_read(tr, t - (size_t)K, (size_t)K + 1, jv->tok); /* T - K .. T, as edited */
    atomic_store(&jv->done, 0);
    atomic_store(&jv->stop, 0);
    atomic_store(&jv->started, 0);
    if (pthread_create(&jv->th, NULL, run, jv) != 0)
        return gt_fail(e, GT_EFAIL, "the derivative: no thread to compute it on");
    /* until the thread has started: a fork while a thread starts (the sanitizer's allocator
       busy for it) or makes its buffers would leave the child waiting for ever */
    while (!atomic_load_explicit(&jv->started, memory_order_acquire))
        sched_yield();
    jv->computing = 2; /* 2: a thread to join */
    return GT_OK;
}

/* The lags seen from jv->unit, from what was computed. */
static void take_lags(gt_data_jac *jv)
{
    for (int k = 1; k <= jv->K; k++)
        jacobian_lag(&jv->j, k, jv->unit, &jv->lag[k - 1]);
    jv->lag_unit = jv->unit;
}

int data_jac_tick(gt_data_jac *jv)
{
    if (!jv->computing || !atomic_load_explicit(&jv->done, memory_order_acquire))
        return 0;
    if (jv->computing == 2)
        pthread_join(jv->th, NULL);
    jv->computing = 0;
    jv->ms = now_ms() - jv->run_t0;
    if (jv->run_rc) {
        jv->valid = 0;
        snprintf(jv->error, sizeof jv->error, "%s", jv->run_e.msg);
        return 1;
    }
    jv->error[0] = 0;
    jv->valid = 1;
    jv->step = jv->run_step;
    jv->layer = jv->run_layer;
    jv->K = jv->run_K;
    jv->stale = jv->run_gen != jv->gen;
    take_lags(jv);
    return 1;
}

/* Stops a running computation (its thread ends within a fraction of a second, jacobian.h)
 * and joins it; what it would have computed is dropped. */
static void stop_run(gt_data_jac *jv)
{
    if (jv->computing == 2) {
        atomic_store(&jv->stop, 1);
        pthread_join(jv->th, NULL);
    }
    jv->computing = 0;
    jv->valid = 0;
    jv->error[0] = 0;
}

int data_jac_busy(const gt_data_jac *jv)
{
    return jv->computing != 0;
}

void data_jac_update(gt_data_jac *jv, gt_trace *tr, int layer, size_t t, int unit, int horizon)
{
    jv->horizon = horizon;
    jv->unit = unit;
    data_jac_tick(jv);
    if (jv->computing) /* the next once this one is collected */
        return;
    int want_K = t < (size_t)jv->horizon ? (int)t : jv->horizon;
    if (!jv->valid || jv->stale || jv->step != t || jv->layer != layer || jv->K != want_K) {
        gt_error e = {0};
        if (start(jv, tr, layer, t, &e)) {
            jv->valid = 0;
            snprintf(jv->error, sizeof jv->error, "%s", e.msg);
        }
        return;
    }
    if (jv->lag_unit != unit)
        take_lags(jv);
}
