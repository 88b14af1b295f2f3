/* The effect (effect.h; doc/measures.md, "The effect"): jobs of (window, items) over
 * threads. With an ablation alone, a job's batch steps the window's text as it is (item 0,
 * in double) with the tested set and the control sets ablated (each product through its
 * float32 difference from item 0, batch_use_float32); otherwise it runs the text on the
 * model as loaded and on the model changed, one stream each. Every position's loss and
 * whether the most probable character was the next are summed per window, item, regular
 * expression and class; the sums are reduced in window order afterwards, so the numbers do
 * not depend on the number of threads. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/windows.h"
#include "compute/jobs.h"
#include "compute/threads.h"
#include "gatetui/batch.h"
#include "gatetui/effect.h"
#include "gatetui/interval.h"
#include "gatetui/mask.h"

#define CHUNK_MAX 256 /* sets per batch */

void effect_options_init(gt_effect_options *o)
{
    memset(o, 0, sizeof *o);
    report_options_init(&o->win);
    o->controls = EFFECT_CONTROLS;
    o->seed = EFFECT_SEED;
}

typedef struct ejob {
    size_t win;
    int first, count; /* items first .. first+count-1 beside item 0 */
} ejob;

typedef struct eshared {
    const gt_model *base, *with;
    const uint16_t *tok;
    size_t steps, L, nwin, njobs, chunk;
    int items;          /* item 0 the text as it is, 1 the intervention, 2.. the controls */
    int sets;           /* 1: the items are ablated sets of one batch; 0: two models */
    int layer, n;       /* the ablated layer and the sets' size */
    int *units;         /* [items * n]: item i's ablated units (-1 for item 0) */
    int nregex;
    unsigned char **mask; /* [nregex] */
    ejob *jobs;
    double *acc;        /* [nwin][items][nregex][2 classes]: loss in nats, correct */
    size_t *count;      /* [nwin][nregex][2 classes] */
    /* the windows complete so far, for gt_effect_options.partial (under lock) */
    int *left;          /* [nwin]: its jobs not yet run */
    unsigned char *done; /* [nwin] */
    size_t ndone;
    void (*partial)(void *ctx, const gt_effect_class *in, const gt_effect_class *out,
                    size_t done, size_t windows);
    void *partial_ctx;
    pthread_mutex_t lock;
} eshared;

static size_t win_len(const eshared *sh, size_t w)
{
    size_t s = w * sh->L;
    return sh->steps - s < sh->L ? sh->steps - s : sh->L;
}

static double *slot(const eshared *sh, size_t w, int item, int r, int cls)
{
    return sh->acc + ((((w * (size_t)sh->items + (size_t)item) * (size_t)sh->nregex + (size_t)r) *
                       2 + (size_t)cls) * 2);
}

/* Item `item`'s prediction of the token at position pos from its logits l: -ln p(next) in
 * double and whether next is the most probable (the first of equal ones), into the class
 * of pos under each expression. */
static void tally(const eshared *sh, size_t w, int item, const double *l, size_t V, size_t pos)
{
    const int next = sh->tok[pos];
    double mx = l[0];
    int best = 0;
    for (size_t v = 1; v < V; v++)
        if (l[v] > mx) {
            mx = l[v];
            best = (int)v;
        }
    double z = 0;
    for (size_t v = 0; v < V; v++)
        z += exp(l[v] - mx);
    const double nll = mx + log(z) - l[next];
    for (int r = 0; r < sh->nregex; r++) {
        double *s = slot(sh, w, item, r, sh->mask[r][pos] ? 0 : 1);
        s[0] += nll;
        s[1] += best == next;
    }
}

static void count_window(const eshared *sh, size_t w)
{
    const size_t start = w * sh->L, len = win_len(sh, w);
    for (size_t t = 0; t + 1 < len; t++)
        for (int r = 0; r < sh->nregex; r++)
            sh->count[(w * (size_t)sh->nregex + (size_t)r) * 2 + (sh->mask[r][start + t + 1] ? 0 : 1)]++;
}

/* What a thread keeps from one job to the next. */
typedef struct eworker {
    gt_batch b, b2;     /* b2: the model changed (two models) */
    int have_b, have_b2;
    int *unit;          /* [cap * n] */
    uint16_t *tk;
    double *logit;      /* [cap * V] */
} eworker;

/* The sets' job: the text as it is and the job's ablated sets as one batch. */
static void run_sets(const eshared *sh, eworker *wk, const ejob *jb)
{
    const size_t V = (size_t)sh->base->vocab, n = (size_t)jb->count + 1, ns = (size_t)sh->n;
    const size_t start = jb->win * sh->L, len = win_len(sh, jb->win);
    for (size_t i = 0; i < n; i++) {
        const int item = i ? jb->first + (int)i - 1 : 0;
        memcpy(wk->unit + i * ns, sh->units + (size_t)item * ns, ns * sizeof *wk->unit);
        batch_set_state(&wk->b, (int)i, NULL, NULL);
    }
    for (size_t t = 0; t + 1 < len; t++) { /* the last step predicts nothing counted */
        for (size_t i = 0; i < n; i++)
            wk->tk[i] = sh->tok[start + t];
        batch_step(&wk->b, (int)n, wk->tk);
        batch_logits(&wk->b, (int)n, wk->logit);
        if (jb->first == 1)
            tally(sh, jb->win, 0, wk->logit, V, start + t + 1);
        for (size_t i = 1; i < n; i++)
            tally(sh, jb->win, jb->first + (int)i - 1, wk->logit + i * V, V, start + t + 1);
    }
}

/* The two models' job: the window on each, one stream each. */
static void run_pair(const eshared *sh, eworker *wk, const ejob *jb)
{
    const size_t V = (size_t)sh->base->vocab;
    const size_t start = jb->win * sh->L, len = win_len(sh, jb->win);
    batch_set_state(&wk->b, 0, NULL, NULL);
    batch_set_state(&wk->b2, 0, NULL, NULL);
    for (size_t t = 0; t + 1 < len; t++) {
        batch_step(&wk->b, 1, sh->tok + start + t);
        batch_logits(&wk->b, 1, wk->logit);
        tally(sh, jb->win, 0, wk->logit, V, start + t + 1);
        batch_step(&wk->b2, 1, sh->tok + start + t);
        batch_logits(&wk->b2, 1, wk->logit);
        tally(sh, jb->win, 1, wk->logit, V, start + t + 1);
    }
}

static int fail_oom(gt_error *e)
{
    return gt_fail(e, GT_EFAIL, "out of memory for the effect");
}

static int worker_begin(void *ctx, void **state, gt_error *e)
{
    eshared *sh = ctx;
    const size_t cap = sh->sets ? sh->chunk + 1 : 1, V = (size_t)sh->base->vocab;
    eworker *wk = calloc(1, sizeof *wk);
    *state = wk;
    if (!wk)
        return fail_oom(e);
    wk->unit = malloc(cap * (size_t)(sh->n ? sh->n : 1) * sizeof *wk->unit);
    wk->tk = malloc(cap * sizeof *wk->tk);
    wk->logit = malloc(cap * V * sizeof *wk->logit);
    if (!wk->unit || !wk->tk || !wk->logit)
        return fail_oom(e);
    if (batch_init(&wk->b, sh->base, sh->base->layers - 1, (int)cap, e))
        return e->code;
    wk->have_b = 1;
    if (sh->sets) {
        wk->b.ablate_layer = sh->layer;
        wk->b.ablate_n = sh->n;
        wk->b.ablate_unit = wk->unit;
        return batch_use_float32(&wk->b, e) || batch_use_readout(&wk->b, e) ? e->code : GT_OK;
    }
    if (batch_init(&wk->b2, sh->with, sh->with->layers - 1, 1, e))
        return e->code;
    wk->have_b2 = 1;
    if (batch_single_float32(&wk->b, e) || batch_use_readout(&wk->b, e) ||
        batch_single_float32(&wk->b2, e) || batch_use_readout(&wk->b2, e))
        return e->code;
    return GT_OK;
}

static void window_ran(eshared *sh, size_t w);

static int worker_job(void *ctx, void *state, size_t i, gt_error *e)
{
    eshared *sh = ctx;
    const ejob *jb = &sh->jobs[i];
    (void)e;
    if (sh->sets)
        run_sets(sh, state, jb);
    else
        run_pair(sh, state, jb);
    if (jb->first == 1)
        count_window(sh, jb->win);
    if (sh->partial)
        window_ran(sh, jb->win);
    return GT_OK;
}

static void worker_end(void *ctx, void *state)
{
    eworker *wk = state;
    (void)ctx;
    if (!wk)
        return;
    if (wk->have_b)
        batch_free(&wk->b);
    if (wk->have_b2)
        batch_free(&wk->b2);
    free(wk->unit);
    free(wk->tk);
    free(wk->logit);
    free(wk);
}

/* ---- the control sets ---- */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int by_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* R sets of n drawn from others[0..m) (ascending): each a partial Fisher-Yates shuffle of
 * the list afresh, one generator for all, written ascending into sets[k * n ..]. */
static void draw(const int *others, int m, int n, int R, unsigned long long seed, int *a,
                 int *sets)
{
    uint64_t state = seed;
    for (int k = 0; k < R; k++) {
        memcpy(a, others, (size_t)m * sizeof *a);
        for (int i = 0; i < n; i++) {
            const int j = i + (int)(splitmix64(&state) % (uint64_t)(m - i));
            const int x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
        memcpy(sets + (size_t)k * n, a, (size_t)n * sizeof *a);
        qsort(sets + (size_t)k * n, (size_t)n, sizeof *sets, by_int);
    }
}

/* ---- the intervention ---- */

/* The layer iv changes (-1: several), and, when it is units of that layer ablated and
 * nothing else, those units into r->tested (r->set_size of them). */
static int read_iv(gt_effect *r, const gt_intervention *iv, gt_error *e)
{
    int layer = -1, layers = 0, other = 0;
    for (int k = 0; k < iv->layers; k++) {
        int touched = iv->carousel[k];
        other |= iv->carousel[k];
        for (size_t j = iv->off[k]; j < iv->off[k + 1]; j++) {
            touched |= iv->shift[j] != 0 || iv->ablate[j];
            other |= iv->shift[j] != 0;
        }
        if (touched) {
            layer = k;
            layers++;
        }
    }
    if (!layers)
        return gt_fail(e, GT_EINPUT, "--effect needs an intervention that changes the model: "
                                     "--ablate L:UNITS, --forget-bias D or --carousel");
    r->layer = layers == 1 ? layer : -1;
    if (layers != 1 || other)
        return GT_OK;
    const size_t H = iv->off[layer + 1] - iv->off[layer];
    r->tested = malloc(H * sizeof *r->tested);
    if (!r->tested)
        return fail_oom(e);
    for (size_t j = 0; j < H; j++)
        if (iv_ablated(iv, layer, (int)j))
            r->tested[r->set_size++] = (int)j;
    return GT_OK;
}

/* The controls drawn into r (none when R is 0 or the intervention is not an ablation
 * alone), and every item's ablated units into sh->units. */
static int plan_sets(gt_effect *r, eshared *sh, const gt_intervention *iv, long R,
                     unsigned long long seed, gt_error *e)
{
    const int H = r->layer >= 0 ? (int)(iv->off[r->layer + 1] - iv->off[r->layer]) : 0;
    const int n = r->set_size;
    r->others = H - n;
    r->seed = seed;
    if (n && R > 0 && n > r->others)
        return gt_fail(e, GT_EINPUT, "--controls %ld: a control set takes %d units and layer "
                       "%d has %d others besides the %d ablated (--controls 0 for none)",
                       R, n, r->layer, r->others, n);
    r->controls = n ? (int)R : 0;
    sh->items = 2 + r->controls;
    sh->sets = n > 0;
    sh->layer = r->layer;
    sh->n = n;
    if (!n)
        return GT_OK;
    int *others = malloc((size_t)H * sizeof *others), *a = malloc((size_t)H * sizeof *a);
    r->sets = malloc(((size_t)r->controls * n + 1) * sizeof *r->sets);
    sh->units = malloc((size_t)sh->items * n * sizeof *sh->units);
    int rc = others && a && r->sets && sh->units ? GT_OK : fail_oom(e);
    if (rc == GT_OK) {
        for (int j = 0, k = 0, x = 0; j < H; j++)
            if (x < n && r->tested[x] == j)
                x++;
            else
                others[k++] = j;
        draw(others, r->others, n, r->controls, seed, a, r->sets);
        for (int x = 0; x < n; x++) {
            sh->units[x] = -1;
            sh->units[n + x] = r->tested[x];
        }
        memcpy(sh->units + 2 * (size_t)n, r->sets, (size_t)r->controls * n * sizeof *r->sets);
    }
    free(others);
    free(a);
    return rc;
}

/* ---- the reduction ---- */

typedef struct esums {
    double *d[2];     /* [nwin] per class: item's loss less item 0's, nats */
    size_t *n[2];     /* [nwin] per class: positions */
    size_t k;         /* the windows in d and n */
    double L0[2], L1[2], A0[2], A1[2];
    size_t N[2];
} esums;

/* Item `item`'s sums against item 0's under expression r, per window and in all: every
 * window, or those marked in only. */
static void sums_of(const eshared *sh, int r, int item, const unsigned char *only, esums *s)
{
    for (int c = 0; c < 2; c++) {
        s->L0[c] = s->L1[c] = s->A0[c] = s->A1[c] = 0;
        s->N[c] = 0;
        s->k = 0;
        for (size_t w = 0; w < sh->nwin; w++) {
            if (only && !only[w])
                continue;
            const double *x0 = slot(sh, w, 0, r, c), *x1 = slot(sh, w, item, r, c);
            const size_t k = s->k++;
            s->d[c][k] = x1[0] - x0[0];
            s->n[c][k] = sh->count[(w * (size_t)sh->nregex + (size_t)r) * 2 + (size_t)c];
            s->L0[c] += x0[0];
            s->L1[c] += x1[0];
            s->A0[c] += x0[1];
            s->A1[c] += x1[1];
            s->N[c] += s->n[c][k];
        }
    }
}

static double delta_bits(const esums *s, int c)
{
    return s->N[c] ? (s->L1[c] - s->L0[c]) / (double)s->N[c] / M_LN2 : NAN;
}

static void class_of(const esums *s, int c, gt_effect_class *out)
{
    const double N = (double)s->N[c];
    out->count = s->N[c];
    out->loss_without = s->N[c] ? s->L0[c] / N / M_LN2 : NAN;
    out->loss_with = s->N[c] ? s->L1[c] / N / M_LN2 : NAN;
    out->delta = delta_bits(s, c);
    out->acc_without = s->N[c] ? s->A0[c] / N : NAN;
    out->acc_with = s->N[c] ? s->A1[c] / N : NAN;
    const double hw = interval_ratio_hw(s->d[c], s->n[c], NULL, NULL, s->k) / M_LN2;
    out->ci_lo = out->delta - hw;
    out->ci_hi = out->delta + hw;
}

/* A job of window w has run: when it was the window's last, the first expression's classes
 * over the windows complete so far handed to the caller (the screen's status line shows
 * them while the rest compute). */
static void window_ran(eshared *sh, size_t w)
{
    pthread_mutex_lock(&sh->lock);
    if (--sh->left[w] == 0) {
        sh->done[w] = 1;
        sh->ndone++;
        esums s;
        s.d[0] = malloc(sh->ndone * sizeof *s.d[0]);
        s.d[1] = malloc(sh->ndone * sizeof *s.d[1]);
        s.n[0] = malloc(sh->ndone * sizeof *s.n[0]);
        s.n[1] = malloc(sh->ndone * sizeof *s.n[1]);
        if (s.d[0] && s.d[1] && s.n[0] && s.n[1]) { /* else this once not said */
            gt_effect_class in, out;
            sums_of(sh, 0, 1, sh->done, &s);
            class_of(&s, 0, &in);
            class_of(&s, 1, &out);
            sh->partial(sh->partial_ctx, &in, &out, sh->ndone, sh->nwin);
        }
        free(s.d[0]);
        free(s.d[1]);
        free(s.n[0]);
        free(s.n[1]);
    }
    pthread_mutex_unlock(&sh->lock);
}

static void reduce_one(const eshared *sh, int r, int R, esums *s, gt_effect_one *o)
{
    sums_of(sh, r, 1, NULL, s);
    class_of(s, 0, &o->in);
    class_of(s, 1, &o->out);
    o->spec = o->in.delta - o->out.delta;
    const double hw = interval_ratio_hw(s->d[0], s->n[0], s->d[1], s->n[1], s->k) / M_LN2;
    o->spec_lo = o->spec - hw;
    o->spec_hi = o->spec + hw;
    o->rank = R && !isnan(o->spec) ? 0 : -1;
    for (int k = 0; k < R; k++) {
        double *c = o->control + (size_t)k * 3;
        sums_of(sh, r, 2 + k, NULL, s);
        c[0] = delta_bits(s, 0);
        c[1] = delta_bits(s, 1);
        c[2] = c[0] - c[1];
        if (o->rank >= 0 && !isnan(c[2]) && c[2] >= o->spec)
            o->rank++;
    }
    o->p = o->rank >= 0 ? (1.0 + o->rank) / (1.0 + R) : NAN;
}

static int reduce(gt_effect *r, const eshared *sh, const char *const *regex, gt_error *e)
{
    esums s;
    s.d[0] = malloc(sh->nwin * sizeof *s.d[0]);
    s.d[1] = malloc(sh->nwin * sizeof *s.d[1]);
    s.n[0] = malloc(sh->nwin * sizeof *s.n[0]);
    s.n[1] = malloc(sh->nwin * sizeof *s.n[1]);
    r->e = calloc((size_t)sh->nregex, sizeof *r->e);
    int rc = s.d[0] && s.d[1] && s.n[0] && s.n[1] && r->e ? GT_OK : fail_oom(e);
    r->nregex = r->e ? sh->nregex : 0;
    for (int x = 0; rc == GT_OK && x < sh->nregex; x++) {
        gt_effect_one *o = &r->e[x];
        o->regex = regex[x];
        o->control = malloc(((size_t)r->controls * 3 + 1) * sizeof *o->control);
        if (!o->control)
            rc = fail_oom(e);
        else
            reduce_one(sh, x, r->controls, &s, o);
    }
    for (size_t w = 0; rc == GT_OK && w < sh->nwin; w++)
        r->predictions += win_len(sh, w) - 1;
    free(s.d[0]);
    free(s.d[1]);
    free(s.n[0]);
    free(s.n[1]);
    return rc;
}

/* ---- the run ---- */

void effect_free(gt_effect *r)
{
    for (int x = 0; r->e && x < r->nregex; x++)
        free(r->e[x].control);
    free(r->e);
    free(r->tested);
    free(r->sets);
    memset(r, 0, sizeof *r);
}

static void shared_free(eshared *sh)
{
    for (int x = 0; sh->mask && x < sh->nregex; x++)
        free(sh->mask[x]);
    free(sh->mask);
    free(sh->units);
    free(sh->jobs);
    free(sh->acc);
    free(sh->count);
    free(sh->left);
    free(sh->done);
    pthread_mutex_destroy(&sh->lock);
}

/* Each expression's mask over the whole sequence, kept as m_t. */
static int masks(eshared *sh, const char *const *regex, long seconds, gt_error *e)
{
    sh->mask = calloc((size_t)sh->nregex, sizeof *sh->mask);
    if (!sh->mask)
        return fail_oom(e);
    for (int x = 0; x < sh->nregex; x++) {
        gt_mask k;
        int rc = mask_from_regex(&k, sh->base, sh->tok, sh->steps, regex[x],
                                 seconds > 0 ? (double)seconds : MASK_SECONDS, e);
        if (rc)
            return rc;
        sh->mask[x] = k.m;
        k.m = NULL;
        mask_free(&k);
    }
    return GT_OK;
}

/* The windows and the jobs: a window's items in as few batches as give every thread about
 * two jobs. */
static int plan_jobs(eshared *sh, const gt_effect_options *o, int threads, gt_error *e)
{
    const size_t chunks = (sh->steps + sh->L - 1) / sh->L, treated = (size_t)sh->items - 1;
    sh->nwin = chunks < (size_t)o->win.windows ? chunks : (size_t)o->win.windows;
    if (win_len(sh, sh->nwin - 1) < 2)
        sh->nwin--; /* a last window of one step predicts nothing */
    size_t per_win = 1;
    if (sh->sets) {
        const size_t want = (2 * (size_t)threads + sh->nwin - 1) / sh->nwin;
        const size_t chunk = (treated + want - 1) / want;
        sh->chunk = chunk > CHUNK_MAX ? CHUNK_MAX : chunk < 1 ? 1 : chunk;
        per_win = (treated + sh->chunk - 1) / sh->chunk;
    }
    sh->njobs = sh->nwin * per_win;
    sh->jobs = calloc(sh->njobs, sizeof *sh->jobs);
    sh->acc = calloc(sh->nwin * (size_t)sh->items * (size_t)sh->nregex * 4, sizeof *sh->acc);
    sh->count = calloc(sh->nwin * (size_t)sh->nregex * 2, sizeof *sh->count);
    if (!sh->jobs || !sh->acc || !sh->count)
        return fail_oom(e);
    if (sh->partial && (!(sh->left = calloc(sh->nwin, sizeof *sh->left)) ||
                        !(sh->done = calloc(sh->nwin, sizeof *sh->done))))
        return fail_oom(e);
    size_t nj = 0;
    for (size_t w = 0; w < sh->nwin; w++)
        for (size_t f = 0; f < (sh->sets ? treated : 1); f += sh->sets ? sh->chunk : 1) {
            const size_t c = sh->sets ? (treated - f < sh->chunk ? treated - f : sh->chunk) : 1;
            sh->jobs[nj++] = (ejob){w, (int)f + 1, (int)c};
            if (sh->left)
                sh->left[w]++;
        }
    return GT_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int check(const gt_model *base, size_t steps, int nregex, const gt_effect_options *o,
                 gt_error *e)
{
    if (!base->has_readout)
        return gt_fail(e, GT_EINPUT, "--effect: the model has no readout, so there is no loss "
                                     "to compare");
    int bad = report_check_windows(base, &o->win, e);
    if (bad)
        return bad;
    if (nregex < 1)
        return gt_fail(e, GT_EINPUT, "--effect needs a regular expression");
    if (o->controls < 0 || o->controls > 100000)
        return gt_fail(e, GT_EINPUT, "--controls %ld: 0 to 100000 sets", o->controls);
    if (steps < 2)
        return gt_fail(e, GT_EINPUT, "--effect: the text has fewer than 2 steps");
    return GT_OK;
}

int effect_compute(gt_effect *r, const gt_model *base, const gt_model *with,
                   const gt_intervention *iv, const uint16_t *tok, size_t steps,
                   const char *const *regex, int nregex, const gt_effect_options *o,
                   gt_error *e)
{
    memset(r, 0, sizeof *r);
    r->step_noun = model_step_noun(base);
    r->step_abbr = model_step_abbr(base);
    int rc = check(base, steps, nregex, o, e);
    if (rc)
        return rc;
    const double t0 = now();
    eshared sh = {.base = base, .with = with, .tok = tok, .steps = steps,
                  /* a window longer than the text is the text: the length said is the
                     one used */
                  .L = (size_t)o->win.window_len < steps ? (size_t)o->win.window_len : steps,
                  .nregex = nregex, .partial = o->partial,
                  .partial_ctx = o->partial_ctx};
    pthread_mutex_init(&sh.lock, NULL);
    int threads = threads_choose(o->win.threads, 0);
    if ((rc = read_iv(r, iv, e)) == GT_OK &&
        (rc = plan_sets(r, &sh, iv, o->controls, o->seed, e)) == GT_OK &&
        (rc = masks(&sh, regex, o->regex_seconds, e)) == GT_OK)
        rc = plan_jobs(&sh, o, threads, e);
    if (rc == GT_OK) {
        const gt_jobs j = {.njobs = sh.njobs,
                           .threads = threads < (int)sh.njobs ? threads : (int)sh.njobs,
                           .ctx = &sh, .begin = worker_begin, .run = worker_job,
                           .end = worker_end, .total = (long long)sh.njobs,
                           .progress = o->win.progress, .progress_ctx = o->win.progress_ctx};
        rc = jobs_run(&j, &r->threads, e);
    }
    if (rc == GT_OK) {
        r->windows = sh.nwin;
        r->window_len = sh.L;
        rc = reduce(r, &sh, regex, e);
    }
    shared_free(&sh);
    if (rc) {
        effect_free(r);
        return rc;
    }
    r->seconds = now() - t0;
    return GT_OK;
}
