/* A small pool of threads for splitting one matrix-vector product by rows. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "compute/kernels.h"
#include "compute/pool.h"

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif

/* Products smaller than this many weights run on the calling thread alone. */
#define POOL_MIN_WORK (48u * 1024)
/* Spin this many rounds for new work before sleeping. */
#define POOL_SPIN 20000

#define POOL_MAX 16
/* pool_blocks' most blocks */
#define POOL_MAX_BLOCKS 256

struct gt_pool {
    int n;
    pthread_t thread[POOL_MAX];
    _Atomic unsigned gen;     /* bumped for every job (futex word) */
    _Atomic int done;         /* workers finished with the current job */
    _Atomic int stop;
    _Atomic int sleepers;
    _Atomic int started;      /* workers in their loop: pool_start returns once all are */
    struct worker_arg {
        struct gt_pool *p;
        int k;
    } arg[POOL_MAX];
    size_t rows, cols;
    const float *W, *x, *bias;
    float *y;
    int backward;
    void (*fn)(void *ctx, int k, int n); /* pool_run's job, or NULL for a product */
    void *ctx;
    /* pool_blocks' job: taken block by block, each block marked with the number of the
     * job it was taken for, so that a worker late for a job takes none of a later one */
    _Atomic int by_blocks;    /* the job is pool_blocks' */
    _Atomic int blocks;
    void (*_Atomic bfn)(void *ctx, int b);
    void *_Atomic bctx;
    _Atomic unsigned long long job;        /* pool_blocks' jobs, counted from 1 */
    _Atomic unsigned long long taken[POOL_MAX_BLOCKS];
    _Atomic int left;         /* the blocks of the current job not yet done */
};

static void futex_wait(_Atomic unsigned *addr, unsigned val)
{
#ifdef __linux__
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
#else
    (void)addr, (void)val;
    sched_yield();
#endif
}

static void futex_wake_all(_Atomic unsigned *addr)
{
#ifdef __linux__
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
#else
    (void)addr;
#endif
}

/* Thread k's rows: the split keeps blocks of 4 rows together. */
static void part(const gt_pool *p, int k, size_t *r0, size_t *r1)
{
    size_t blocks = (p->rows + 3) / 4;
    size_t b0 = blocks * (size_t)k / (size_t)p->n, b1 = blocks * (size_t)(k + 1) / (size_t)p->n;
    *r0 = b0 * 4 < p->rows ? b0 * 4 : p->rows;
    *r1 = b1 * 4 < p->rows ? b1 * 4 : p->rows;
}

static void run_part(const gt_pool *p, int k)
{
    if (p->fn) {
        p->fn(p->ctx, k, p->n);
        return;
    }
    size_t r0, r1;
    part(p, k, &r0, &r1);
    if (r1 > r0)
        kern_gemv_dir(r1 - r0, p->cols, p->W + r0 * p->cols, p->x,
                      p->bias ? p->bias + r0 : NULL, p->y + r0, p->backward);
}

/* Block b of job `job` taken and done, if it is still free: a block is free for this job
 * while it is marked with an earlier one; taken, the job cannot end before it is done (its
 * caller waits for every block). */
static void take_block(gt_pool *p, int b, unsigned long long job,
                       void (*fn)(void *ctx, int b), void *ctx)
{
    unsigned long long was = atomic_load_explicit(&p->taken[b], memory_order_relaxed);
    if (was >= job || !atomic_compare_exchange_strong(&p->taken[b], &was, job))
        return;
    fn(ctx, b);
    atomic_fetch_sub_explicit(&p->left, 1, memory_order_release);
}

/* Thread k of n takes the blocks of job `job` still free: its own share first (the same
 * blocks every time: kept in its processor's cache), then every other thread's, from the
 * last block down (the others take theirs upwards). */
static void take_blocks(gt_pool *p, int k, int n, unsigned long long job, int blocks,
                        void (*fn)(void *ctx, int b), void *ctx)
{
    const int b0 = blocks * k / n, b1 = blocks * (k + 1) / n;
    for (int b = b0; b < b1; b++)
        take_block(p, b, job, fn, ctx);
    for (int b = blocks - 1; b >= 0; b--)
        if (b < b0 || b >= b1)
            take_block(p, b, job, fn, ctx);
}

static void *worker(void *arg)
{
    struct worker_arg a = *(struct worker_arg *)arg;
    gt_pool *p = a.p;
    atomic_fetch_add_explicit(&p->started, 1, memory_order_release);
    unsigned seen = 0; /* gen starts at 0, before any worker exists */
    for (;;) {
        unsigned g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen || (g & 1)) {
            if (++spins < POOL_SPIN || (g & 1)) { /* odd: a job being written */
                cpu_relax();
                continue;
            }
            atomic_fetch_add(&p->sleepers, 1);
            futex_wait(&p->gen, seen);
            atomic_fetch_sub(&p->sleepers, 1);
            spins = 0;
        }
        if (atomic_load(&p->stop))
            return NULL;
        const int by_blocks = atomic_load_explicit(&p->by_blocks, memory_order_relaxed);
        const unsigned long long job = atomic_load_explicit(&p->job, memory_order_relaxed);
        const int blocks = atomic_load_explicit(&p->blocks, memory_order_relaxed);
        void (*fn)(void *, int) = atomic_load_explicit(&p->bfn, memory_order_relaxed);
        void *ctx = atomic_load_explicit(&p->bctx, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        /* read whole, or a later job was being written meanwhile (this thread was late for
         * a job of pool_blocks, which does not wait for it): read that one */
        if (atomic_load_explicit(&p->gen, memory_order_relaxed) != g)
            continue;
        seen = g;
        if (by_blocks) {
            take_blocks(p, a.k, p->n, job, blocks, fn, ctx);
            continue; /* its caller waits for the blocks, not for this thread */
        }
        run_part(p, a.k); /* its caller waits for this thread: the job stays as read */
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    }
}

gt_pool *pool_start(int nthreads)
{
    if (nthreads < 2)
        return NULL;
    if (nthreads > POOL_MAX)
        nthreads = POOL_MAX;
    gt_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = 1;
    for (int k = 1; k < nthreads; k++) {
        p->arg[k].p = p;
        p->arg[k].k = k;
        if (pthread_create(&p->thread[k], NULL, worker, &p->arg[k]) != 0)
            break;
        p->n++;
    }
    if (p->n < 2) {
        free(p);
        return NULL;
    }
    /* each worker started whole (a thread's start allocates), so that between two jobs no
     * thread of the pool is inside the allocator (doc/architecture.md, "Forks") */
    while (atomic_load_explicit(&p->started, memory_order_acquire) < p->n - 1)
        sched_yield();
    return p;
}

void pool_stop(gt_pool *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, 1);
    atomic_fetch_add_explicit(&p->gen, 2, memory_order_release);
    futex_wake_all(&p->gen);
    for (int k = 1; k < p->n; k++)
        pthread_join(p->thread[k], NULL);
    free(p);
}

/* A job's fields are written between two counts of gen: odd while they are (a worker
 * waits), even once they are whole; then the sleeping workers are woken. */
static void job_begin(gt_pool *p)
{
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_relaxed);
    /* the odd count before any field: a worker that reads a field written after it then
       reads gen moved (its acquire fence and second read) */
    atomic_thread_fence(memory_order_release);
}

static void job_publish(gt_pool *p)
{
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    if (atomic_load(&p->sleepers))
        futex_wake_all(&p->gen);
}

/* Waits, spinning then yielding, until *count is at most `until`. */
static void wait_down(_Atomic int *count, int until)
{
    for (int spins = 0; atomic_load_explicit(count, memory_order_acquire) > until;)
        if (++spins < POOL_SPIN)
            cpu_relax();
        else
            sched_yield();
}

/* Hands the job set in p (between job_begin and here) to the workers, does part 0 and
 * waits for the others. */
static void start_and_join(gt_pool *p)
{
    atomic_store_explicit(&p->by_blocks, 0, memory_order_relaxed);
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    job_publish(p);
    run_part(p, 0);
    /* a busy machine may have descheduled a worker: stop spinning, give it the core */
    for (int spins = 0; atomic_load_explicit(&p->done, memory_order_acquire) < p->n - 1;)
        if (++spins < POOL_SPIN)
            cpu_relax();
        else
            sched_yield();
}

void pool_gemv(gt_pool *p, size_t rows, size_t cols, const float *W, const float *x,
               const float *bias, float *y, int backward)
{
    if (!p || rows * cols < POOL_MIN_WORK || rows < 8) {
        kern_gemv_dir(rows, cols, W, x, bias, y, backward);
        return;
    }
    job_begin(p);
    p->rows = rows, p->cols = cols, p->W = W, p->x = x, p->bias = bias, p->y = y;
    p->backward = backward;
    p->fn = NULL;
    start_and_join(p);
}

int pool_threads(const gt_pool *p)
{
    return p ? p->n : 1;
}

void pool_run(gt_pool *p, void (*fn)(void *ctx, int k, int n), void *ctx)
{
    if (!p) {
        fn(ctx, 0, 1);
        return;
    }
    job_begin(p);
    p->fn = fn;
    p->ctx = ctx;
    start_and_join(p);
}

void pool_blocks(gt_pool *p, int blocks, void (*fn)(void *ctx, int b), void *ctx)
{
    if (!p || blocks > POOL_MAX_BLOCKS) {
        for (int b = 0; b < blocks; b++)
            fn(ctx, b);
        return;
    }
    const unsigned long long job = atomic_load_explicit(&p->job, memory_order_relaxed) + 1;
    job_begin(p);
    atomic_store_explicit(&p->by_blocks, 1, memory_order_relaxed);
    atomic_store_explicit(&p->job, job, memory_order_relaxed);
    atomic_store_explicit(&p->blocks, blocks, memory_order_relaxed);
    atomic_store_explicit(&p->bfn, fn, memory_order_relaxed);
    atomic_store_explicit(&p->bctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&p->left, blocks, memory_order_relaxed);
    job_publish(p);
    take_blocks(p, 0, p->n, job, blocks, fn, ctx);
    wait_down(&p->left, 0);
}
