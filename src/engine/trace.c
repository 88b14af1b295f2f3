/* Random access to a run's values: checkpoints at intervals, a window of full values, a
 * background pass, and edits (see trace.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/overlay.h"
#include "gatetui/run.h"
#include "gatetui/trace.h"
#include "compute/threads.h"

/* Loading a step should take no longer than this, or it waits for the background pass. */
#define SYNC_BUDGET_NS 30e6
/* The background pass may split its products over two threads (pass_threads) for models
 * with this many bytes of recurrent weights or more; it times chunks of PASS_CHUNK steps and
 * tries the other way every PASS_RETRY chunks, up to PASS_RETRY_MAX while it keeps losing. */
#define PASS_TWO_MIN_BYTES (256.0 * 1024)
#define PASS_CHUNK 2048
#define PASS_RETRY 16
#define PASS_RETRY_MAX 512

struct gt_trace {
    const gt_model *m;
    const gt_text *text;
    size_t T;            /* steps */
    gt_overlay ov;       /* the edited steps beside the text's tokens, which are only read */
    gt_edit *edits;      /* [nedits] every edit in order, for undo */
    size_t nedits, cap_edits;

    size_t interval;     /* I: checkpoint j is the state before step j*I */
    size_t ncp;          /* T/I + 1 */
    size_t state_len;    /* floats per checkpoint: hidden_total (h) plus as many (c) for a
                            cell state */
    float *cp;           /* [ncp * state_len] */
    atomic_size_t cp_valid; /* checkpoints 0..cp_valid-1 are known */

    size_t per_step;     /* floats per step in the window: (G+2) hidden_total, layer k's
                            (G+2) H_k at (G+2) off_k: its gates, c and h */
    size_t wcap;         /* steps the window holds */
    float *win;          /* [wcap * per_step] */
    size_t win_a, win_n; /* steps win_a .. win_a+win_n-1 are held */

    gt_run run;          /* the main thread's scratch run */
    gt_run probe;        /* for the readout */
    double step_ns;      /* estimated cost of one step */

    /* the background pass */
    gt_run prun;
    pthread_t thread;
    int pass_active;     /* a thread was started and not yet joined */
    atomic_int pass_cancel, pass_done;
    atomic_size_t pass_at;  /* steps reached */
    size_t pass_from, pass_to;
    int pass_threads;    /* 1, 2, ...: fixed; 0: one or two, whichever is faster now */
    double pass_ns[3];   /* what the last pass measured (ns a step with 1 or 2 threads) */
    size_t pass_every;   /* and how often it tried the way not chosen, in chunks */
    /* under fence_mu (below): */
    gt_trace *fence_next; /* in the list of passes that have left but are not joined */
    int fence_listed, pass_left, pass_joined;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Threads for the pass's products: `asked` when it is not 0 (a number, or < 0 for the
 * adaptive choice whatever the model); otherwise 0, "one or two, whichever is faster now",
 * on a machine with two processors or more and a model whose recurrent weights outgrow half
 * a core's L2 (below, one thread is faster). */
static int pass_threads(const gt_model *m, int asked)
{
    if (asked)
        return asked > 0 ? asked : 0;
    double bytes = 0;
    for (int k = 0; k < m->layers; k++)
        bytes += 4.0 * m->gates * m->layer[k].hidden * m->layer[k].hidden;
    return threads_choose(0, 2) >= 2 && bytes >= PASS_TWO_MIN_BYTES ? 0 : 1;
}

const gt_model *trace_model(const gt_trace *tr) { return tr->m; }
size_t trace_steps(const gt_trace *tr) { return tr->T; }
size_t trace_interval(const gt_trace *tr) { return tr->interval; }
size_t trace_window_len(const gt_trace *tr) { return tr->wcap; }
size_t trace_checkpoint_bytes(const gt_trace *tr) { return tr->ncp * tr->state_len * sizeof(float); }
const gt_text *trace_text(const gt_trace *tr) { return tr->text; }

int trace_token(const gt_trace *tr, size_t s)
{
    return s < tr->T ? overlay_token(&tr->ov, s) : -1;
}

void trace_read(const gt_trace *tr, size_t a, size_t n, uint16_t *out)
{
    overlay_read(&tr->ov, a, n, out);
}

int trace_original_at(const gt_trace *tr, size_t s)
{
    return s < tr->T ? overlay_base(&tr->ov, s) : -1;
}

size_t trace_next_edited(const gt_trace *tr, size_t s)
{
    size_t i = overlay_lower(&tr->ov, s);
    return i < tr->ov.n ? tr->ov.at[i].step : tr->T;
}

size_t trace_edit_count(const gt_trace *tr) { return tr->nedits; }

const gt_edit *trace_edit_at(const gt_trace *tr, size_t i)
{
    return i < tr->nedits ? &tr->edits[i] : NULL;
}

int trace_edited(const gt_trace *tr, size_t s)
{
    return s < tr->T && overlay_edited(&tr->ov, s);
}

size_t trace_known(const gt_trace *tr)
{
    size_t v = atomic_load_explicit(&tr->cp_valid, memory_order_acquire);
    size_t s = (v - 1) * tr->interval;
    return v >= tr->ncp ? tr->T : s;
}

int trace_open(gt_trace **out, const gt_model *m, const gt_text *t, const gt_trace_limits *lim,
               gt_error *e)
{
    return trace_open_mapped(out, m, t, NULL, lim, e);
}

int trace_open_mapped(gt_trace **out, const gt_model *m, const gt_text *t, const uint16_t *map,
                      const gt_trace_limits *lim, gt_error *e)
{
    *out = NULL;
    gt_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return gt_fail(e, GT_EFAIL, "out of memory for the trace");
    size_t cpb = lim && lim->checkpoint_budget ? lim->checkpoint_budget : TRACE_CHECKPOINT_BUDGET;
    size_t wb = lim && lim->window_budget ? lim->window_budget : TRACE_WINDOW_BUDGET;
    size_t mini = lim && lim->min_interval ? lim->min_interval : TRACE_MIN_INTERVAL;
    size_t LH = (size_t)m->hidden_total, G = (size_t)m->gates;
    tr->m = m;
    tr->text = t;
    tr->T = t->steps;
    overlay_init(&tr->ov, t->tok, map, t->steps);
    tr->state_len = LH * (size_t)m->cell->state;
    size_t maxcp = cpb / (tr->state_len * sizeof(float));
    if (maxcp < 2)
        maxcp = 2;
    size_t I = (tr->T + maxcp - 2) / (maxcp - 1);
    tr->interval = I < mini ? mini : I;
    tr->ncp = tr->T / tr->interval + 1;
    tr->per_step = (G + 2) * LH;
    size_t w = wb / (tr->per_step * sizeof(float));
    w = w < TRACE_MIN_WINDOW ? TRACE_MIN_WINDOW : w > TRACE_MAX_WINDOW ? TRACE_MAX_WINDOW : w;
    tr->wcap = w < tr->T ? w : tr->T;
    tr->cp = calloc(tr->ncp * tr->state_len, sizeof *tr->cp);
    tr->win = malloc(tr->wcap * tr->per_step * sizeof *tr->win);
    atomic_init(&tr->cp_valid, 1); /* checkpoint 0: the zero state */
    atomic_init(&tr->pass_cancel, 0);
    atomic_init(&tr->pass_done, 0);
    atomic_init(&tr->pass_at, 0);
    /* a first guess of a step's cost (about 4 multiply-adds a nanosecond), refined as
     * steps run */
    double macs = 0;
    for (int k = 0; k < m->layers; k++) {
        const size_t H = (size_t)m->layer[k].hidden;
        macs += (double)G * H * (H + (k == 0 && m->x_table ? 0 : (size_t)m->layer[k].in_dim));
    }
    tr->step_ns = macs / 4 + 100;
    int rc = tr->cp && tr->win ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory for the trace");
    if (rc == GT_OK)
        rc = run_init(&tr->run, m, e);
    if (rc == GT_OK)
        rc = run_init(&tr->probe, m, e);
    if (rc == GT_OK)
        rc = run_init(&tr->prun, m, e);
    if (rc == GT_OK)
        tr->pass_threads = pass_threads(m, lim ? lim->pass_threads : 0);
    if (rc) {
        trace_close(tr);
        return rc;
    }
    *out = tr;
    return GT_OK;
}

void trace_close(gt_trace *tr)
{
    if (!tr)
        return;
    trace_pass_cancel(tr);
    run_free(&tr->run);
    run_free(&tr->probe);
    run_free(&tr->prun);
    free(tr->cp);
    free(tr->win);
    overlay_free(&tr->ov);
    free(tr->edits);
    free(tr);
}

/* ---- states ---- */

static float *cp_at(const gt_trace *tr, size_t j) { return tr->cp + j * tr->state_len; }

static void state_from_cp(const gt_trace *tr, gt_run *r, size_t j)
{
    size_t LH = (size_t)tr->m->hidden_total;
    const float *s = cp_at(tr, j);
    memcpy(r->h, s, LH * sizeof *s);
    if (tr->m->cell->has_c)
        memcpy(r->c, s + LH, LH * sizeof *s);
    else
        memset(r->c, 0, LH * sizeof *s);
}

static void state_to_cp(const gt_trace *tr, const gt_run *r, size_t j)
{
    size_t LH = (size_t)tr->m->hidden_total;
    float *s = cp_at(tr, j);
    memcpy(s, r->h, LH * sizeof *s);
    if (tr->m->cell->has_c)
        memcpy(s + LH, r->c, LH * sizeof *s);
}

static float *slot(const gt_trace *tr, size_t s) { return tr->win + (s - tr->win_a) * tr->per_step; }

static size_t layer_off(const gt_trace *tr, int k)
{
    return (size_t)(tr->m->gates + 2) * tr->m->layer[k].off;
}

/* The state after step s, from the window (s must be in it). */
static void state_from_slot(const gt_trace *tr, gt_run *r, size_t s)
{
    size_t G = (size_t)tr->m->gates;
    const float *v = slot(tr, s);
    for (int k = 0; k < tr->m->layers; k++) {
        const size_t H = (size_t)tr->m->layer[k].hidden;
        const float *lv = v + layer_off(tr, k);
        memcpy(run_c(r, k), lv + G * H, H * sizeof *lv);
        memcpy(run_h(r, k), lv + (G + 1) * H, H * sizeof *lv);
    }
}

static void record(gt_trace *tr, const gt_run *r, size_t s)
{
    size_t G = (size_t)tr->m->gates;
    float *v = slot(tr, s);
    for (int k = 0; k < tr->m->layers; k++) {
        const size_t H = (size_t)tr->m->layer[k].hidden;
        float *lv = v + layer_off(tr, k);
        memcpy(lv, run_gates(r, k), G * H * sizeof *lv);
        memcpy(lv + G * H, run_c(r, k), H * sizeof *lv);
        memcpy(lv + (G + 1) * H, run_h(r, k), H * sizeof *lv);
    }
}

/* Stores the state before step s as a checkpoint when it is the next one to be known and no
 * pass owns the checkpoints. */
static void maybe_checkpoint(gt_trace *tr, const gt_run *r, size_t s)
{
    if (tr->pass_active || s % tr->interval)
        return;
    size_t j = s / tr->interval;
    if (j < tr->ncp && j == atomic_load_explicit(&tr->cp_valid, memory_order_relaxed)) {
        state_to_cp(tr, r, j);
        atomic_store_explicit(&tr->cp_valid, j + 1, memory_order_release);
    }
}

/* Runs r, holding the state before step a, through steps a..b-1; records them into the
 * window when rec is set. */
static void advance(gt_trace *tr, gt_run *r, size_t a, size_t b, int rec)
{
    double t0 = b - a >= 32 ? now_ns() : 0;
    gt_overlay_reader rd;
    overlay_reader(&tr->ov, a, &rd);
    for (size_t s = a; s < b; s++) {
        maybe_checkpoint(tr, r, s);
        run_step(r, overlay_reader_token(&rd, s));
        if (rec)
            record(tr, r, s);
    }
    maybe_checkpoint(tr, r, b);
    if (t0 > 0) {
        double per = (now_ns() - t0) / (double)(b - a);
        tr->step_ns = 0.5 * tr->step_ns + 0.5 * per;
    }
}

/* Loads into r the nearest known state before a step <= target, from the checkpoints or the
 * window, and returns that step. */
static size_t nearest_state(gt_trace *tr, gt_run *r, size_t target)
{
    size_t valid = atomic_load_explicit(&tr->cp_valid, memory_order_acquire);
    size_t j = target / tr->interval;
    if (j > valid - 1)
        j = valid - 1;
    size_t from_cp = j * tr->interval;
    /* the window gives the state before x for x in [win_a+1, win_a+win_n] */
    if (tr->win_n && target > tr->win_a) {
        size_t x = tr->win_a + tr->win_n < target ? tr->win_a + tr->win_n : target;
        if (x > from_cp) {
            state_from_slot(tr, r, x - 1);
            return x;
        }
    }
    state_from_cp(tr, r, j);
    return from_cp;
}

int trace_load(gt_trace *tr, size_t a, size_t b, gt_error *e)
{
    if (b > tr->T)
        b = tr->T;
    if (a >= b)
        return GT_OK;
    if (b - a > tr->wcap)
        return gt_fail(e, GT_EINPUT, "steps %zu..%zu: more than the %zu the window holds", a,
                       b - 1, tr->wcap);
    if (tr->win_n && tr->win_a <= a && b <= tr->win_a + tr->win_n)
        return GT_OK;
    /* the new window: [a, b) and a margin on each side for the next moves (half as much
     * again, at least 64 steps), inside the window's capacity and the text */
    size_t need = b - a, slack = tr->wcap - need;
    size_t margin = need / 2 < 64 ? 64 : need / 2;
    if (margin > slack / 2)
        margin = slack / 2;
    size_t na = a > margin ? a - margin : 0;
    size_t nb = b + margin < tr->T ? b + margin : tr->T;
    size_t oa = tr->win_a, ob = tr->win_a + tr->win_n;
    size_t ka = oa > na ? oa : na, kb = ob < nb ? ob : nb;
    gt_run *r = &tr->run;
    if (tr->win_n && ka < kb) {
        /* keep the overlap [ka, kb), compute the rest around it */
        memmove(tr->win + (ka - na) * tr->per_step, tr->win + (ka - oa) * tr->per_step,
                (kb - ka) * tr->per_step * sizeof *tr->win);
        tr->win_a = na;
        tr->win_n = 0; /* nothing to start from in the window while it is rebuilt */
        if (na < ka) {
            size_t s0 = nearest_state(tr, r, na);
            advance(tr, r, s0, na, 0);
            advance(tr, r, na, ka, 1);
        }
        tr->win_n = kb - na;
        if (kb < nb) {
            state_from_slot(tr, r, kb - 1);
            advance(tr, r, kb, nb, 1);
        }
    } else {
        size_t s0 = nearest_state(tr, r, na);
        tr->win_a = na;
        tr->win_n = 0;
        advance(tr, r, s0, na, 0);
        advance(tr, r, na, nb, 1);
    }
    tr->win_n = nb - na;
    return GT_OK;
}

int trace_has(const gt_trace *tr, size_t s)
{
    return tr->win_n && s >= tr->win_a && s < tr->win_a + tr->win_n;
}

const float *trace_gates(const gt_trace *tr, size_t s, int k)
{
    return trace_has(tr, s) ? slot(tr, s) + layer_off(tr, k) : NULL;
}

const float *trace_c(const gt_trace *tr, size_t s, int k)
{
    return trace_has(tr, s)
               ? slot(tr, s) + layer_off(tr, k) +
                     (size_t)tr->m->gates * (size_t)tr->m->layer[k].hidden
               : NULL;
}

const float *trace_h(const gt_trace *tr, size_t s, int k)
{
    return trace_has(tr, s)
               ? slot(tr, s) + layer_off(tr, k) +
                     (size_t)(tr->m->gates + 1) * (size_t)tr->m->layer[k].hidden
               : NULL;
}

void trace_probs(gt_trace *tr, size_t s, float *p)
{
    int top = tr->m->layers - 1;
    memcpy(run_h(&tr->probe, top), trace_h(tr, s, top),
           (size_t)tr->m->layer[top].hidden * sizeof *p);
    run_probs(&tr->probe, p);
}

int trace_state_before(gt_trace *tr, size_t s, float *h, float *c, gt_error *e)
{
    if (s > tr->T)
        return gt_fail(e, GT_EINPUT, "step %zu: the text has %zu steps", s, tr->T);
    size_t LH = (size_t)tr->m->hidden_total;
    gt_run *r = &tr->run;
    size_t s0 = nearest_state(tr, r, s);
    advance(tr, r, s0, s, 0);
    memcpy(h, r->h, LH * sizeof *h);
    memcpy(c, r->c, LH * sizeof *c);
    return GT_OK;
}

int trace_reachable(const gt_trace *tr, size_t s)
{
    if (s >= tr->T)
        s = tr->T - 1;
    if (trace_has(tr, s))
        return 1;
    size_t valid = atomic_load_explicit(&tr->cp_valid, memory_order_acquire);
    size_t last = (valid - 1) * tr->interval;
    size_t start = s / tr->interval < valid ? s / tr->interval * tr->interval : last;
    /* the window may be closer than the checkpoints */
    if (tr->win_n && s >= tr->win_a + tr->win_n && tr->win_a + tr->win_n > start)
        start = tr->win_a + tr->win_n;
    double cost = (double)(s - start + tr->wcap) * tr->step_ns;
    return cost <= SYNC_BUDGET_NS || s - start <= tr->interval;
}

/* ---- edits ---- */

static void invalidate_from(gt_trace *tr, size_t s)
{
    size_t keep = s / tr->interval + 1; /* checkpoints j with j*I <= s */
    if (atomic_load_explicit(&tr->cp_valid, memory_order_relaxed) > keep)
        atomic_store_explicit(&tr->cp_valid, keep, memory_order_release);
    if (tr->win_n && tr->win_a + tr->win_n > s)
        tr->win_n = s > tr->win_a ? s - tr->win_a : 0;
}

void trace_model_changed(gt_trace *tr)
{
    trace_pass_cancel(tr);
    invalidate_from(tr, 0);
    tr->win_n = 0;
}

int trace_edit(gt_trace *tr, size_t s, int tok, gt_error *e)
{
    if (s >= tr->T)
        return gt_fail(e, GT_EINPUT, "step %zu: the text has %zu steps (0..%zu)", s, tr->T,
                       tr->T - 1);
    if (tok < 0 || tok >= tr->m->vocab)
        return gt_fail(e, GT_EINPUT, "token %d is not in the vocabulary (0..%d)", tok,
                       tr->m->vocab - 1);
    trace_pass_cancel(tr);
    if (tr->nedits == tr->cap_edits) {
        size_t n = tr->cap_edits ? 2 * tr->cap_edits : 16;
        gt_edit *ne = realloc(tr->edits, n * sizeof *ne);
        if (!ne)
            return gt_fail(e, GT_EFAIL, "out of memory for an edit");
        tr->edits = ne;
        tr->cap_edits = n;
    }
    if (overlay_reserve(&tr->ov))
        return gt_fail(e, GT_EFAIL, "out of memory for an edit");
    tr->edits[tr->nedits++] = (gt_edit){s, overlay_token(&tr->ov, s), tok};
    overlay_set(&tr->ov, s, (uint16_t)tok); /* with the room just made, it cannot fail */
    invalidate_from(tr, s);
    return GT_OK;
}

int trace_undo(gt_trace *tr, gt_edit *undone)
{
    if (!tr->nedits)
        return 0;
    trace_pass_cancel(tr);
    gt_edit ed = tr->edits[--tr->nedits];
    /* the edited steps become what they were before this edit, when they fitted in the room
     * the overlay had then (it never shrinks): this cannot fail */
    overlay_set(&tr->ov, ed.step, (uint16_t)ed.old_tok);
    invalidate_from(tr, ed.step);
    if (undone)
        *undone = ed;
    return 1;
}

/* ---- the background pass ---- */

/* The adaptive choice: two threads win on an idle machine (each keeps half the weights in
 * its own cache) and lose badly on a busy one (the second waits for a processor, and every
 * step waits for it). Chunks of steps are timed; now and then a chunk tries the way not in
 * use, and stops as soon as it is clearly slower; a way that keeps losing is tried less
 * and less often. */
typedef struct pass_pick {
    int adapt, cur;  /* cur: 1 or 2 threads */
    int probing;     /* this chunk tries the way not chosen */
    size_t chunks, every;
    double ns[3];    /* the last ns a step with 1 or 2 threads; 0: not measured */
} pass_pick;

static void pick_next(pass_pick *p, gt_run *r, double ns_per_step)
{
    /* a way in use keeps an average of its last chunks (one slow chunk does not flip it);
     * a probe's measure replaces the old one */
    p->ns[p->cur] = p->ns[p->cur] && !p->probing ? 0.5 * (p->ns[p->cur] + ns_per_step) : ns_per_step;
    if (p->probing) {
        int won = p->ns[p->cur] < p->ns[3 - p->cur];
        p->every = won ? PASS_RETRY : p->every * 2 < PASS_RETRY_MAX ? p->every * 2 : PASS_RETRY_MAX;
        p->probing = 0;
    }
    p->chunks++;
    int best = !p->ns[2] || (p->ns[1] && p->ns[1] <= p->ns[2]) ? 1 : 2;
    int want = best;
    if (!p->ns[3 - best] || p->chunks % p->every == 0) {
        want = 3 - best;
        p->probing = 1;
    }
    if (want != p->cur) {
        run_set_threads(r, want);
        p->cur = want;
    }
}

/* Forks and the background pass (doc/architecture.md, "Forks"): the screen computes in child
 * processes, forked while a pass may be running. A fork copies every lock as it is, and a
 * lock another thread held at that moment (the allocator's, under AddressSanitizer, whose
 * allocator has no fork handler) stays held in the child for ever. So the fork's prepare
 * handler holds every running pass at the start of its next step, where neither it nor its
 * pool's threads (idle between steps) hold anything, and joins the passes that have ended
 * (a thread's end frees its memory); it lets the others go on after the fork. The child has
 * no pass thread. Holding waits at most one step. */
static pthread_mutex_t fence_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fence_cv = PTHREAD_COND_INITIALIZER;
static atomic_int fence_want;        /* a fork is being prepared */
static int fence_running, fence_parked; /* passes running, and held */
static gt_trace *fence_left;         /* passes ended and not joined */
static pthread_once_t fence_once = PTHREAD_ONCE_INIT;

static void fence_prepare(void)
{
    pthread_mutex_lock(&fence_mu); /* held through the fork */
    atomic_store(&fence_want, 1);
    while (fence_parked < fence_running)
        pthread_cond_wait(&fence_cv, &fence_mu);
    for (gt_trace *t = fence_left; t; t = t->fence_next) {
        pthread_join(t->thread, NULL);
        t->pass_joined = 1;
        t->fence_listed = 0;
    }
    fence_left = NULL;
}

static void fence_parent(void)
{
    atomic_store(&fence_want, 0);
    pthread_cond_broadcast(&fence_cv);
    pthread_mutex_unlock(&fence_mu);
}

static void fence_child(void)
{
    atomic_store(&fence_want, 0);
    fence_running = fence_parked = 0; /* the passes' threads are not in the child */
    fence_left = NULL;
    pthread_cond_init(&fence_cv, NULL); /* without the waiters it had in the parent */
    pthread_mutex_unlock(&fence_mu);
}

static void fence_install(void)
{
    pthread_atfork(fence_prepare, fence_parent, fence_child);
}

/* A pass between two steps: held there while a fork is prepared. */
static void fence_step(void)
{
    if (!atomic_load_explicit(&fence_want, memory_order_acquire))
        return;
    pthread_mutex_lock(&fence_mu);
    fence_parked++;
    pthread_cond_broadcast(&fence_cv);
    while (atomic_load(&fence_want))
        pthread_cond_wait(&fence_cv, &fence_mu);
    fence_parked--;
    pthread_mutex_unlock(&fence_mu);
}

/* A pass ends (its thread, after its last step): listed for a fork to join. */
static void fence_leave(gt_trace *tr)
{
    pthread_mutex_lock(&fence_mu);
    fence_running--;
    tr->pass_left = 1;
    tr->fence_next = fence_left;
    fence_left = tr;
    tr->fence_listed = 1;
    pthread_cond_broadcast(&fence_cv);
    pthread_mutex_unlock(&fence_mu);
}

/* The owner joins a pass's thread once it has left, unless a fork has: under fence_mu, so
 * that no fork comes while the thread is ending. */
static void pass_join(gt_trace *tr)
{
    pthread_mutex_lock(&fence_mu);
    while (!tr->pass_left)
        pthread_cond_wait(&fence_cv, &fence_mu);
    if (tr->fence_listed) { /* not joined by a fork */
        gt_trace **p = &fence_left;
        while (*p != tr)
            p = &(*p)->fence_next;
        *p = tr->fence_next;
        tr->fence_listed = 0;
        pthread_join(tr->thread, NULL);
    }
    tr->pass_left = tr->pass_joined = 0;
    pthread_mutex_unlock(&fence_mu);
    tr->pass_active = 0;
}

static void *pass_main(void *arg)
{
    gt_trace *tr = arg;
    threads_background(); /* the screen's keys first (doc/architecture.md, "Concurrency") */
    gt_run *r = &tr->prun;
    size_t I = tr->interval;
    size_t j = atomic_load_explicit(&tr->cp_valid, memory_order_relaxed) - 1;
    state_from_cp(tr, r, j);
    /* a pass after an edit starts from what the last one learnt */
    const double *ns = tr->pass_ns;
    int adapt = tr->pass_threads == 0;
    pass_pick pk = {adapt, !adapt ? tr->pass_threads : ns[2] && ns[2] < ns[1] ? 2 : 1, 0, 0,
                    tr->pass_every ? tr->pass_every : PASS_RETRY, {0, ns[1], ns[2]}};
    run_set_threads(r, pk.cur);
    double t0 = now_ns();
    size_t chunk_from = j * I;
    gt_overlay_reader rd; /* the edits stay as they are while a pass runs */
    overlay_reader(&tr->ov, j * I, &rd);
    for (size_t s = j * I; s < tr->pass_to; s++) {
        fence_step();
        if (atomic_load_explicit(&tr->pass_cancel, memory_order_relaxed))
            break;
        size_t done = s - chunk_from;
        if (pk.adapt && (done == PASS_CHUNK || (pk.probing && done && done % 64 == 0))) {
            double dt = now_ns() - t0;
            if (done == PASS_CHUNK || dt > 1.25 * pk.ns[3 - pk.cur] * (double)done) {
                pick_next(&pk, r, dt / (double)done);
                t0 = now_ns();
                chunk_from = s;
            }
        }
        run_step(r, overlay_reader_token(&rd, s));
        if ((s + 1) % I == 0) {
            state_to_cp(tr, r, (s + 1) / I);
            atomic_store_explicit(&tr->cp_valid, (s + 1) / I + 1, memory_order_release);
        }
        atomic_store_explicit(&tr->pass_at, s + 1, memory_order_relaxed);
    }
    run_set_threads(r, 1); /* no idle threads left behind */
    tr->pass_ns[1] = pk.ns[1];
    tr->pass_ns[2] = pk.ns[2];
    tr->pass_every = pk.every;
    atomic_store_explicit(&tr->pass_done, 1, memory_order_release);
    fence_leave(tr);
    return NULL;
}

int trace_pass_start(gt_trace *tr, size_t target, gt_error *e)
{
    if (tr->pass_active)
        return GT_OK;
    if (target > tr->T)
        target = tr->T;
    size_t valid = atomic_load_explicit(&tr->cp_valid, memory_order_relaxed);
    size_t from = (valid - 1) * tr->interval;
    /* the last checkpoint needed is the one at or before target */
    size_t to = target / tr->interval * tr->interval;
    if (valid >= tr->ncp || from >= to)
        return GT_OK;
    tr->pass_from = from;
    tr->pass_to = to;
    atomic_store(&tr->pass_cancel, 0);
    atomic_store(&tr->pass_done, 0);
    atomic_store(&tr->pass_at, from);
    pthread_once(&fence_once, fence_install);
    /* counted before it runs, its handle written before a fork reads it */
    pthread_mutex_lock(&fence_mu);
    fence_running++;
    int rc = pthread_create(&tr->thread, NULL, pass_main, tr);
    if (rc != 0) {
        fence_running--;
        pthread_cond_broadcast(&fence_cv);
    }
    pthread_mutex_unlock(&fence_mu);
    if (rc != 0)
        return gt_fail(e, GT_EFAIL, "cannot start the background pass");
    tr->pass_active = 1;
    return GT_OK;
}

void trace_pass_cancel(gt_trace *tr)
{
    if (!tr->pass_active)
        return;
    atomic_store(&tr->pass_cancel, 1);
    pass_join(tr);
}

int trace_pass_running(gt_trace *tr)
{
    if (tr->pass_active && atomic_load_explicit(&tr->pass_done, memory_order_acquire))
        pass_join(tr);
    return tr->pass_active;
}

double trace_pass_progress(const gt_trace *tr)
{
    /* the share of the text whose states are known, from its first step (a pass after an
     * edit starts at the edit, not at 0) */
    if (!tr->pass_active)
        return trace_known(tr) >= tr->T ? 1.0 : (double)trace_known(tr) / (double)tr->T;
    size_t at = atomic_load_explicit(&tr->pass_at, memory_order_relaxed);
    if (tr->pass_to == 0)
        return 1.0;
    return (double)at / (double)tr->pass_to;
}
