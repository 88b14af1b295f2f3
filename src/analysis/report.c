/* Computing the report (doc/measures.md, "The report"): the windows are run in float32 by the engine for
 * the gate tables, the perturbation pairs as batches of replacements (perturb.c), in double
 * with each replacement's products taken in float32 through its difference from the
 * original (batch_use_float32);
 * both are jobs for a small pool of threads. Every job writes its own part of the
 * results, which are reduced in a fixed order afterwards. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/unittable.h"
#include "analysis/windows.h"
#include "compute/jobs.h"
#include "gatetui/interval.h"
#include "gatetui/loss.h"
#include "gatetui/perturb.h"
#include "gatetui/report.h"
#include "gatetui/run.h"
#include "gatetui/stats.h"
#include "gatetui/utf8.h"
#include "compute/threads.h"

#define CHUNK_MAX 64 /* replacements per perturbation batch */
#define NCURVES 4    /* per pair: cell, forget-only, hidden, linearized */

static const int report_ks[REPORT_MAX_K] = {0, 1, 2, 4, 8, 16, 32, 64};

void report_options_init(gt_report_options *o)
{
    memset(o, 0, sizeof *o);
    o->windows = REPORT_WINDOWS;
    o->window_len = REPORT_WINDOW_LEN;
    o->horizon = 0; /* the default: REPORT_HORIZON, or what a window holds */
}

/* The steps a window of L characters holds after its edit (at L / 4). */
static long after_site(long L) { return L - L / 4 - 1; }

typedef struct job {
    int perturb;        /* 0: a window's gate values; 1: a batch of replacements */
    size_t win;
    int first, count;   /* replacements first .. first+count-1 */
    long long cost;
} job;

typedef struct shared {
    const gt_model *m;
    const uint16_t *tok;
    const gt_report_options *o;
    int layer, ngates, blocks[REPORT_MAX_GATES], site, K, reps, chunk;
    int *rep_list;      /* a word model's: [reps + 1] the text's most frequent tokens, the
                           replacements; NULL: every other token */
    size_t H, L, steps, nwin, nfull;
    float *vals[REPORT_MAX_GATES]; /* [positions * H] per gate */
    double *unit_sum;   /* [nwin * H] */
    double *gate_sum;   /* [nwin * ngates * H]: the unit table's means */
    unsigned *sat;      /* [nwin * 2 * H]: the carry gate below 0.1, above 0.9 */
    double *abs_sum;    /* [2 * (K+1) * H]: the unit table's decays (perturb.h's unit_abs) */
    double *win_abs;    /* [nfull * 2 * (K+1) * H]: each full window's (its intervals) */
    pthread_mutex_t abs_lock; /* a job adds its own decay sums to its window's and to
                                 abs_sum when it ends */
    double *char_sum;   /* [nwin * 3] */
    size_t *char_cnt;   /* [nwin * 3] */
    size_t *hsat;       /* RNN: [nwin * 3] counts of h < -0.9, h > 0.9, h = 0 */
    double *curves;     /* [npairs * NCURVES * (K+1)]: cell, forget-only, hidden,
                           linearized, normalised */
    unsigned char *kept; /* [npairs] */
    gt_loss_steps *ls;  /* the loss taken along the windows' runs (the layer is the last), */
    double *loss_sum;   /* [nwin], or NULL: loss_measure runs them again */
    size_t *loss_cnt;   /* [nwin] */
    job *jobs;
    size_t njobs;
    long long total;
} shared;

static size_t win_start(const shared *sh, size_t w)
{
    return w * sh->L;
}

static size_t win_len(const shared *sh, size_t w)
{
    size_t s = w * sh->L;
    return sh->steps - s < sh->L ? sh->steps - s : sh->L;
}

/* 1 when the word w is punctuation (doc/measures.md, "The report"): not empty, and each of
 * its characters ASCII punctuation, in Unicode's General Punctuation block (U+2010-U+205E),
 * or one of the Latin-1 signs ¡ § « ¶ · » ¿. */
static int punctuation(const char *w)
{
    const unsigned char *p = (const unsigned char *)w;
    size_t n = strlen(w);
    for (size_t off = 0; off < n;) {
        uint32_t c;
        off += (size_t)utf8_decode(p + off, n - off, &c);
        if (!((c > 0x20 && c < 0x7F && !isalnum((int)c)) || (c >= 0x2010 && c <= 0x205E) ||
              c == 0xA1 || c == 0xA7 || c == 0xAB || c == 0xB6 || c == 0xB7 || c == 0xBB ||
              c == 0xBF))
            return 0;
    }
    return n > 0;
}

/* The class of an input: a space, a newline, or another character; a word model's
 * punctuation, <eos>, or another token (report.h). */
static int char_class(const gt_model *m, int tok)
{
    if (m->words)
        return tok == m->tok_eos ? REPORT_NEWLINE
               : punctuation(m->vocab_word[tok]) ? REPORT_SPACE
                                                        : REPORT_OTHER;
    uint32_t cp = m->vocab_cp[tok];
    return cp == ' ' ? REPORT_SPACE : cp == '\n' ? REPORT_NEWLINE : REPORT_OTHER;
}

/* With the loss taken along: the prediction after step p of window w of the next token
 * (a readout that overflows float32 is an error). */
static int window_loss_step(shared *sh, const gt_run *run, gt_loss_block *blk, size_t w,
                            size_t p, gt_error *e)
{
    if (!sh->loss_sum)
        return GT_OK;
    if (p + 1 >= win_len(sh, w)) /* the window's last step: its block taken */
        return loss_block_flush(sh->ls, blk, e);
    return loss_block_add(sh->ls, blk, run_h(run, sh->layer), sh->tok[win_start(sh, w) + p + 1],
                          win_start(sh, w) + p, &sh->loss_sum[w], &sh->loss_cnt[w], e);
}

/* A plain RNN's window: no gates, h's saturation counted; a relu RNN's h that overflows
 * float32 is an error. */
static int window_rnn(shared *sh, gt_run *run, gt_loss_block *scratch, size_t w, gt_error *e)
{
    const size_t H = sh->H, start = win_start(sh, w), n = win_len(sh, w);
    size_t *cnt = sh->hsat + w * 3;
    run_reset(run);
    for (size_t p = 0; p < n; p++) {
        run_step_layers(run, sh->tok[start + p], sh->layer);
        int rc = run_check_finite(run, sh->layer, start + p, e);
        rc = rc ? loss_block_failed(sh->ls, scratch, rc, e)
                : window_loss_step(sh, run, scratch, w, p, e);
        if (rc)
            return rc;
        const float *h = run_h(run, sh->layer);
        for (size_t j = 0; j < H; j++) {
            cnt[0] += h[j] < -0.9f;
            cnt[1] += h[j] > 0.9f;
            cnt[2] += h[j] == 0.0f;
        }
    }
    return GT_OK;
}

static int window_job(shared *sh, gt_run *run, gt_loss_block *scratch, size_t w, gt_error *e)
{
    const size_t H = sh->H, start = win_start(sh, w), n = win_len(sh, w);
    double *usum = sh->unit_sum + w * H, *gsum = sh->gate_sum + w * (size_t)sh->ngates * H;
    unsigned *sat = sh->sat + w * 2 * H;
    run_reset(run);
    for (size_t p = 0; p < n; p++) {
        int tk = sh->tok[start + p];
        run_step_layers(run, tk, sh->layer);
        int rc = run_check_finite(run, sh->layer, start + p, e);
        rc = rc ? loss_block_failed(sh->ls, scratch, rc, e)
                : window_loss_step(sh, run, scratch, w, p, e);
        if (rc)
            return rc;
        const float *g = run_gates(run, sh->layer), *carry = g + H;
        for (int gi = 0; gi < sh->ngates; gi++) {
            const float *gv = g + (size_t)sh->blocks[gi] * H;
            memcpy(sh->vals[gi] + (start + p) * H, gv, H * sizeof(float));
            for (size_t j = 0; j < H; j++)
                gsum[(size_t)gi * H + j] += gv[j];
        }
        double s = 0;
        for (size_t j = 0; j < H; j++) {
            usum[j] += carry[j];
            s += carry[j];
            sat[j] += (double)carry[j] < 0.1;
            sat[H + j] += (double)carry[j] > 0.9;
        }
        int cls = char_class(sh->m, tk);
        sh->char_sum[w * 3 + cls] += s / (double)H;
        sh->char_cnt[w * 3 + cls]++;
    }
    return GT_OK;
}

/* Decay sums a into to, n of them each followed by their rounding errors n further
 * (perturb.h's unit_abs), each with its rounding error: the order in which they are added
 * changes the sums by about 1e-30 of their size. */
static void abs_sums_add(double *restrict to, const double *restrict a, size_t n)
{
    double *restrict lo = to + n;
    for (size_t i = 0; i < n; i++) {
        double s = to[i] + a[i], bb = s - to[i];
        lo[i] += ((to[i] - (s - bb)) + (a[i] - bb)) + a[n + i];
        to[i] = s;
    }
}

/* Replacement r (0 .. reps-1) of the original token o: every other token in order, or a
 * word model's list without o (its first reps when o is not in it). */
static int replacement(const shared *sh, int o, int r)
{
    if (!sh->rep_list)
        return r < o ? r : r + 1;
    for (int k = 0; k <= r; k++)
        if (sh->rep_list[k] == o)
            return sh->rep_list[r + 1];
    return sh->rep_list[r];
}

/* A word model's replacements (doc/measures.md, "The report"): the REPORT_WORD_REPS + 1
 * most frequent tokens of the text (ties: the lower token first), fewer when the text holds
 * fewer. */
static int word_replacements(shared *sh, gt_error *e)
{
    const size_t V = (size_t)sh->m->vocab;
    size_t *count = calloc(V, sizeof *count);
    sh->rep_list = malloc((REPORT_WORD_REPS + 1) * sizeof *sh->rep_list);
    if (!count || !sh->rep_list) {
        free(count);
        return gt_fail(e, GT_EFAIL, "out of memory for the report's replacements");
    }
    for (size_t s = 0; s < sh->steps; s++)
        count[sh->tok[s]]++;
    int n = 0;
    for (; n <= REPORT_WORD_REPS; n++) {
        size_t best = V;
        for (size_t v = 0; v < V; v++)
            if (count[v] && (best == V || count[v] > count[best]))
                best = v;
        if (best == V)
            break;
        sh->rep_list[n] = (int)best;
        count[best] = 0;
    }
    free(count);
    sh->reps = n - 1;
    return GT_OK;
}

/* A job's decay sums into its window's and into those over every pair, as the jobs end
 * (while they are in the cache). */
static void add_abs_sums(shared *sh, const double *a, size_t w)
{
    const size_t n = ((size_t)sh->K + 1) * sh->H;
    pthread_mutex_lock(&sh->abs_lock);
    abs_sums_add(sh->win_abs + w * 2 * n, a, n);
    abs_sums_add(sh->abs_sum, a, n);
    pthread_mutex_unlock(&sh->abs_lock);
}

static void perturb_job(shared *sh, gt_run *run, gt_perturb *pt, uint16_t *edbuf,
                        const uint16_t **ed, const job *jb)
{
    const size_t start = win_start(sh, jb->win), n = (size_t)sh->K + 1, K1 = n;
    const uint16_t *orig = sh->tok + start + sh->site;
    memset(pt->unit_abs, 0, 2 * K1 * sh->H * sizeof *pt->unit_abs);
    run_reset(run);
    for (int p = 0; p < sh->site; p++)
        run_step_layers(run, sh->tok[start + (size_t)p], sh->layer);
    for (int x = 0; x < jb->count; x++) {
        int r = jb->first + x, rep = replacement(sh, orig[0], r);
        uint16_t *e = edbuf + (size_t)x * n;
        memcpy(e, orig, n * sizeof *e);
        e[0] = (uint16_t)rep;
        ed[x] = e;
    }
    perturb_run(pt, run->h, run->c, orig, ed, jb->count, n);
    const int lstm = sh->m->cell->has_c;
    for (int x = 0; x < jb->count; x++) {
        const gt_perturb_result *res = &pt->res[x];
        size_t pair = jb->win * (size_t)sh->reps + (size_t)(jb->first + x);
        double *cv = sh->curves + pair * NCURVES * K1;
        int keep = perturb_kept(res);
        sh->kept[pair] = (unsigned char)keep;
        if (!keep)
            continue;
        for (size_t k = 0; k < K1; k++) {
            cv[k] = lstm ? res->dc[k] / res->dc[0] : 0.0;
            cv[K1 + k] = res->fo[k] / res->fo[0];
            cv[2 * K1 + k] = res->dh[k] / res->dh[0];
            cv[3 * K1 + k] = res->lin[k] / res->lin[0];
        }
    }
    add_abs_sums(sh, pt->unit_abs, jb->win);
}

/* What a thread keeps from one job to the next: its run and, from its first perturbation
 * job, its perturbation and the replacements' texts. */
typedef struct worker {
    gt_run run;
    gt_perturb pt;
    int have_run, have_pt;
    gt_loss_block *blk; /* the predictions waiting, when the loss is taken along (or NULL) */
    uint16_t *edbuf;
    const uint16_t **ed;
    double *abs_sum;    /* a job's decay sums, then added to its window's */
} worker;

static int worker_begin(void *ctx, void **state, gt_error *e)
{
    shared *sh = ctx;
    worker *wk = calloc(1, sizeof *wk);
    *state = wk;
    if (!wk)
        return gt_fail(e, GT_EFAIL, "out of memory for the report's threads");
    if (run_init(&wk->run, sh->m, e))
        return e->code;
    wk->have_run = 1;
    if (sh->ls && !(wk->blk = loss_block_new(sh->m, e)))
        return e->code;
    return GT_OK;
}

static int worker_perturb(shared *sh, worker *wk, gt_error *e)
{
    if (perturb_init(&wk->pt, sh->m, sh->layer, sh->K, sh->chunk, e))
        return e->code;
    wk->have_pt = 1;
    if (perturb_use_float32(&wk->pt, e))
        return e->code;
    wk->pt.units = 0;
    wk->pt.unit_abs = wk->abs_sum = calloc(2 * ((size_t)sh->K + 1) * sh->H, sizeof(double));
    wk->edbuf = malloc((size_t)sh->chunk * ((size_t)sh->K + 1) * sizeof *wk->edbuf);
    wk->ed = malloc((size_t)sh->chunk * sizeof *wk->ed);
    if (!wk->edbuf || !wk->ed || !wk->abs_sum)
        return gt_fail(e, GT_EFAIL, "out of memory for the perturbation table");
    return GT_OK;
}

static int worker_job(void *ctx, void *state, size_t i, gt_error *e)
{
    shared *sh = ctx;
    worker *wk = state;
    const job *jb = &sh->jobs[i];
    if (!jb->perturb && sh->ngates == 0) /* no gates: h's saturation */
        return window_rnn(sh, &wk->run, wk->blk, jb->win, e);
    if (!jb->perturb)
        return window_job(sh, &wk->run, wk->blk, jb->win, e);
    if (!wk->have_pt) {
        int rc = worker_perturb(sh, wk, e);
        if (rc)
            return rc;
    }
    perturb_job(sh, &wk->run, &wk->pt, wk->edbuf, wk->ed, jb);
    return GT_OK;
}

static void worker_end(void *ctx, void *state)
{
    (void)ctx;
    worker *wk = state;
    if (!wk)
        return;
    free(wk->abs_sum);
    free(wk->edbuf);
    free(wk->ed);
    loss_block_free(wk->blk);
    if (wk->have_pt)
        perturb_free(&wk->pt);
    if (wk->have_run)
        run_free(&wk->run);
    free(wk);
}

static long long job_cost(void *ctx, size_t i)
{
    const shared *sh = ctx;
    return sh->jobs[i].cost;
}

void report_free(gt_report *r)
{
    free(r->unit_mean);
    free(r->unit_table);
    free(r->cell);
    free(r->forget_only);
    free(r->hidden);
    free(r->curve_cell);
    free(r->curve_forget_only);
    free(r->curve_hidden);
    free(r->linearized);
    free(r->curve_linearized);
    free(r->window);
    memset(r, 0, sizeof *r);
}

static void free_shared(shared *sh)
{
    for (int g = 0; g < REPORT_MAX_GATES; g++)
        free(sh->vals[g]);
    free(sh->unit_sum);
    free(sh->gate_sum);
    free(sh->sat);
    free(sh->abs_sum);
    free(sh->win_abs);
    free(sh->char_sum);
    free(sh->char_cnt);
    free(sh->hsat);
    free(sh->curves);
    free(sh->kept);
    loss_steps_free(sh->ls);
    free(sh->loss_sum);
    free(sh->loss_cnt);
    free(sh->jobs);
    free(sh->rep_list);
}

/* One gate's table from its values over every window (reordered in place). */
typedef struct gate_work {
    gt_report_gate *gt;
    float *v;
    size_t n;
    pthread_t thread;
} gate_work;

static void *gate_table(void *arg)
{
    gate_work *w = arg;
    gt_report_gate *gt = w->gt;
    const float *v = w->v;
    const size_t n = w->n;
    size_t left = 0, right = 0;
    for (size_t i = 0; i < n; i++) {
        left += (double)v[i] < 0.1;
        right += (double)v[i] > 0.9;
    }
    gt->mean = stats_mean_f(v, n);
    gt->left = (double)left / (double)n;
    gt->right = (double)right / (double)n;
    static const double q[5] = {0.05, 0.25, 0.50, 0.75, 0.95};
    double out[5];
    stats_quantiles_f(w->v, n, 5, q, out);
    gt->q05 = out[0];
    gt->q25 = out[1];
    gt->q50 = out[2];
    gt->q75 = out[3];
    gt->q95 = out[4];
    return NULL;
}

/* A plain RNN has no gates: the fractions of its h values beyond +-0.9 and at 0, and
 * nothing per unit or by character. */
static void rnn_saturation(gt_report *r, const shared *sh)
{
    size_t c[3] = {0, 0, 0};
    for (size_t w = 0; w < sh->nwin; w++)
        for (int i = 0; i < 3; i++)
            c[i] += sh->hsat[w * 3 + i];
    const double n = (double)(r->positions * sh->H);
    r->h_left = (double)c[0] / n;
    r->h_right = (double)c[1] / n;
    r->h_zero = (double)c[2] / n;
    r->mean_min = r->mean_q05 = r->mean_median = r->mean_q95 = r->mean_max = NAN;
    r->hl_min = r->hl_median = r->hl_max = NAN;
    for (int k = 0; k < 3; k++)
        r->char_mean[k] = NAN;
}

/* The gate tables from the values of every window: the gates sorted side by side on up
 * to `threads` threads. */
static int gate_tables(gt_report *r, shared *sh, int threads, gt_error *e)
{
    if (sh->ngates == 0) {
        rnn_saturation(r, sh);
        return GT_OK;
    }
    gate_work gw[REPORT_MAX_GATES];
    int started[REPORT_MAX_GATES] = {0};
    for (int g = 0; g < r->ngates; g++) {
        gw[g] = (gate_work){.gt = &r->gate[g], .v = sh->vals[g], .n = r->positions * sh->H};
        if (g > 0 && g < threads)
            started[g] = pthread_create(&gw[g].thread, NULL, gate_table, &gw[g]) == 0;
    }
    for (int g = 0; g < r->ngates; g++)
        if (!started[g])
            gate_table(&gw[g]);
    for (int g = 0; g < r->ngates; g++)
        if (started[g])
            pthread_join(gw[g].thread, NULL);
    /* units */
    const size_t H = sh->H;
    double *sorted = malloc(2 * H * sizeof *sorted), *hl = sorted + H;
    r->unit_mean = malloc(H * sizeof *r->unit_mean);
    if (!sorted || !r->unit_mean) {
        free(sorted);
        return gt_fail(e, GT_EFAIL, "out of memory for the report");
    }
    r->below_half = r->halflife_ge10 = 0;
    for (size_t j = 0; j < H; j++) {
        double s = 0;
        for (size_t w = 0; w < sh->nwin; w++)
            s += sh->unit_sum[w * H + j];
        r->unit_mean[j] = sorted[j] = s / (double)r->positions;
        hl[j] = stats_halflife(sorted[j]);
        r->below_half += sorted[j] < 0.5;
        r->halflife_ge10 += hl[j] >= 10;
    }
    stats_sort_doubles(sorted, H);
    stats_sort_doubles(hl, H);
    r->mean_min = sorted[0];
    r->mean_q05 = stats_quantile(sorted, H, 0.05);
    r->mean_median = stats_quantile(sorted, H, 0.5);
    r->mean_q95 = stats_quantile(sorted, H, 0.95);
    r->mean_max = sorted[H - 1];
    r->hl_min = hl[0];
    r->hl_median = stats_quantile(hl, H, 0.5);
    r->hl_max = hl[H - 1];
    free(sorted);
    /* by character */
    for (int c = 0; c < 3; c++) {
        double s = 0;
        size_t cnt = 0;
        for (size_t w = 0; w < sh->nwin; w++) {
            s += sh->char_sum[w * 3 + c];
            cnt += sh->char_cnt[w * 3 + c];
        }
        r->char_count[c] = cnt;
        r->char_mean[c] = cnt ? s / (double)cnt : NAN;
    }
    return GT_OK;
}

/* Each full window's sums of its own kept pairs' curves, in pair order, into
 * wsum[(w NCURVES + c) (K + 1) + k] (zeroed), and the half-lives of their mean measured
 * and forget-only curves. */
static void window_table(gt_report *r, const shared *sh, double *wsum)
{
    const size_t K1 = (size_t)sh->K + 1;
    const int measured = sh->m->cell->has_c ? 0 : 2, fo = sh->m->cell->carry >= 0;
    for (size_t w = 0; w < sh->nfull; w++) {
        gt_report_window *rw = &r->window[w];
        double *ws = wsum + w * NCURVES * K1;
        rw->start = win_start(sh, w);
        rw->edited = rw->start + (size_t)sh->site;
        rw->hl_measured = rw->hl_forget_only = NAN;
        for (int x = 0; x < sh->reps; x++) {
            size_t p = w * (size_t)sh->reps + (size_t)x;
            if (!sh->kept[p])
                continue;
            const double *cv = sh->curves + p * NCURVES * K1;
            rw->pairs++;
            for (size_t i = 0; i < NCURVES * K1; i++)
                ws[i] += cv[i];
        }
        if (!rw->pairs)
            continue;
        double hm = perturb_halflife(ws + (size_t)measured * K1, sh->K);
        double hf = perturb_halflife(ws + K1, sh->K);
        rw->hl_measured = hm == PERTURB_NONE ? NAN : hm;
        rw->hl_forget_only = !fo || hf == PERTURB_NONE ? NAN : hf;
    }
}

/* Each mean curve's half-life interval by the jackknife over the windows that keep pairs
 * (doc/measures.md, "Error bars"): the half-life of the curve summed over every such window
 * but one (the sum over all less that window's); scratch: 2 (K + 1) + nfull. */
static void curve_intervals(gt_report *r, const shared *sh, const double *wsum, double *scratch)
{
    const size_t K1 = (size_t)sh->K + 1;
    double *all = scratch, *loo = scratch + K1, *t = scratch + 2 * K1;
    gt_interval *ci[NCURVES] = {&r->ci_cell, &r->ci_forget_only, &r->ci_hidden,
                                &r->ci_linearized};
    const double hl[NCURVES] = {r->hl_cell, r->hl_forget_only, r->hl_hidden, r->hl_linearized};
    const int some = r->pairs > 0;
    const int exists[NCURVES] = {some && sh->m->cell->has_c, some && sh->m->cell->carry >= 0,
                                 some, some};
    r->ci_windows = 0;
    for (size_t w = 0; w < sh->nfull; w++)
        r->ci_windows += r->window[w].pairs > 0;
    for (int c = 0; c < NCURVES; c++) {
        memset(all, 0, K1 * sizeof *all);
        for (size_t w = 0; w < sh->nfull; w++)
            for (size_t k = 0; k < K1; k++)
                all[k] += wsum[(w * NCURVES + (size_t)c) * K1 + k];
        size_t n = 0;
        for (size_t w = 0; w < sh->nfull; w++) {
            if (!r->window[w].pairs)
                continue;
            for (size_t k = 0; k < K1; k++)
                loo[k] = all[k] - wsum[(w * NCURVES + (size_t)c) * K1 + k];
            double h = perturb_halflife(loo, sh->K);
            t[n++] = h == PERTURB_NONE ? NAN : h;
        }
        interval_jackknife(ci[c], hl[c], exists[c], t, n, sh->K);
    }
}

/* The mean curves over every kept pair, from the windows' sums wsum (window_table) added in
 * window order, and their half-lives. */
static int mean_curves(gt_report *r, shared *sh, const double *wsum, gt_error *e)
{
    const size_t K1 = (size_t)sh->K + 1;
    if (!r->pairs)
        return GT_OK;
    const int lstm = sh->m->cell->has_c;
    double *mean[NCURVES];
    for (int c = 0; c < NCURVES; c++)
        if (!(mean[c] = calloc(K1, sizeof(double)))) {
            for (int d = 0; d < c; d++)
                free(mean[d]);
            return gt_fail(e, GT_EFAIL, "out of memory for the report");
        }
    for (size_t w = 0; w < sh->nfull; w++)
        for (int c = 0; c < NCURVES; c++)
            for (size_t k = 0; k < K1; k++)
                mean[c][k] += wsum[(w * NCURVES + (size_t)c) * K1 + k];
    for (int c = 0; c < NCURVES; c++)
        for (size_t k = 0; k < K1; k++)
            mean[c][k] /= (double)r->pairs;
    if (lstm) {
        r->curve_cell = mean[0];
        double hl = perturb_halflife(mean[0], sh->K);
        r->hl_cell = hl == PERTURB_NONE ? NAN : hl;
    } else {
        free(mean[0]);
    }
    if (sh->m->cell->carry < 0) { /* no carry gate: no forget-only curve */
        free(mean[1]);
        mean[1] = NULL;
    }
    r->curve_forget_only = mean[1];
    r->curve_hidden = mean[2];
    double hf = mean[1] ? perturb_halflife(mean[1], sh->K) : PERTURB_NONE;
    double hh = perturb_halflife(mean[2], sh->K);
    r->hl_forget_only = hf == PERTURB_NONE ? NAN : hf;
    r->hl_hidden = hh == PERTURB_NONE ? NAN : hh;
    r->curve_linearized = mean[3];
    double hlin = perturb_halflife(mean[3], sh->K);
    r->hl_linearized = hlin == PERTURB_NONE ? NAN : hlin;
    r->linearized = malloc((size_t)r->nk * sizeof(double));
    if (r->curve_forget_only)
        r->forget_only = malloc((size_t)r->nk * sizeof(double));
    r->hidden = malloc((size_t)r->nk * sizeof(double));
    if (lstm)
        r->cell = malloc((size_t)r->nk * sizeof(double));
    if ((r->curve_forget_only && !r->forget_only) || !r->hidden || (lstm && !r->cell) ||
        !r->linearized)
        return gt_fail(e, GT_EFAIL, "out of memory for the report");
    for (int i = 0; i < r->nk; i++) {
        if (lstm)
            r->cell[i] = r->curve_cell[r->k[i]];
        if (r->forget_only)
            r->forget_only[i] = r->curve_forget_only[r->k[i]];
        r->hidden[i] = r->curve_hidden[r->k[i]];
        r->linearized[i] = r->curve_linearized[r->k[i]];
    }
    return GT_OK;
}

/* The perturbation table: each window's pairs, the mean normalised curves over every kept
 * pair and their half-lives with their intervals. */
static int perturbation_table(gt_report *r, shared *sh, gt_error *e)
{
    const size_t K1 = (size_t)sh->K + 1, npairs = sh->nfull * (size_t)sh->reps;
    r->hl_cell = r->hl_forget_only = r->hl_hidden = r->hl_linearized = NAN;
    r->pairs = r->dropped = 0;
    const size_t nw = sh->nfull ? sh->nfull : 1;
    double *wsum = calloc(nw * NCURVES * K1, sizeof *wsum);
    double *scratch = malloc((2 * K1 + nw) * sizeof *scratch);
    r->window = calloc(nw, sizeof *r->window);
    if (!wsum || !scratch || !r->window) {
        free(wsum);
        free(scratch);
        return gt_fail(e, GT_EFAIL, "out of memory for the report");
    }
    window_table(r, sh, wsum);
    for (size_t p = 0; p < npairs; p++) {
        if (sh->kept[p])
            r->pairs++;
        else
            r->dropped++;
    }
    int rc = mean_curves(r, sh, wsum, e);
    if (rc == GT_OK)
        curve_intervals(r, sh, wsum, scratch);
    free(wsum);
    free(scratch);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int report_check_windows(const gt_model *m, const gt_report_options *o, gt_error *e)
{
    if (o->layer < 0 || o->layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", o->layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    if (o->window_len < 2 || o->window_len > INT32_MAX)
        return gt_fail(e, GT_EINPUT, "--window-len %ld: a window is 2 to %ld characters",
                       o->window_len, (long)INT32_MAX);
    if (o->windows < 1)
        return gt_fail(e, GT_EINPUT, "--windows %ld: at least one window", o->windows);
    return GT_OK;
}

int report_horizon_note(const gt_report *r, char *buf, size_t n)
{
    if (r->horizon_asked <= r->K)
        return 0;
    long L = (long)r->window_len;
    while (after_site(L) < r->horizon_asked)
        L++;
    char a[48], b[48];
    snprintf(buf, n,
             "--horizon %ld: a window of %s holds %s after its edit (at step %d), so the "
             "horizon is %d; --window-len %ld or more holds %ld", r->horizon_asked,
             report_count(r->window_len, model_step_noun(r->m), a, sizeof a),
             report_count((size_t)r->K, "step", b, sizeof b), r->site, r->K, L,
             r->horizon_asked);
    return 1;
}

int report_windows_note(long asked, size_t used, size_t window_len, size_t steps,
                        const gt_model *m, char *buf, size_t n)
{
    if (asked <= 0 || (size_t)asked <= used)
        return 0;
    char a[48], b[48], t[48], l[32];
    char all[48];
    if (used == 1)
        snprintf(all, sizeof all, "it is taken");
    else
        snprintf(all, sizeof all, "all %s are taken", report_commas(used, b, sizeof b));
    snprintf(buf, n, "--windows %ld: the text's %s make %s of up to %s; %s", asked,
             report_count(steps, model_step_noun(m), t, sizeof t),
             report_count(used, "window", a, sizeof a), report_commas(window_len, l, sizeof l),
             all);
    return 1;
}

static int check_options(const gt_model *m, size_t steps, const gt_report_options *o,
                         gt_error *e)
{
    int rc = report_check_windows(m, o, e);
    if (rc)
        return rc;
    if (o->horizon < 0 || o->horizon > INT32_MAX)
        return gt_fail(e, GT_EINPUT, "--horizon %ld: a horizon is 1 to %ld steps", o->horizon,
                       (long)INT32_MAX);
    if (steps == 0)
        return gt_fail(e, GT_EINPUT, "report: the text has no steps");
    return GT_OK;
}

/* The windows, the perturbation site and horizon, the gates: into sh, and what the report
 * says of them into r. */
static void plan(shared *sh, gt_report *r, const gt_model *m, const uint16_t *tok,
                 size_t steps, const gt_report_options *o)
{
    sh->m = m;
    sh->tok = tok;
    sh->o = o;
    sh->layer = o->layer;
    sh->H = (size_t)model_width(m, o->layer); /* the layer's units */
    sh->L = (size_t)o->window_len;
    sh->steps = steps;
    size_t chunks = (steps + sh->L - 1) / sh->L;
    sh->nwin = chunks < (size_t)o->windows ? chunks : (size_t)o->windows;
    sh->nfull = steps / sh->L < sh->nwin ? steps / sh->L : sh->nwin;
    sh->site = (int)(sh->L / 4);
    const long fits = after_site((long)sh->L), want = o->horizon ? o->horizon : REPORT_HORIZON;
    sh->K = (int)(want < fits ? want : fits); /* doc/usage.md, "--report": --horizon K */
    sh->reps = m->vocab - 1;
    sh->ngates = model_sigmoid_gates(m, sh->blocks);
    r->m = m;
    r->layer = o->layer;
    r->window_len = sh->L;
    r->windows = sh->nwin;
    r->full_windows = sh->nfull;
    r->positions = sh->nwin < chunks ? sh->nwin * sh->L : steps;
    r->ngates = sh->ngates;
    r->carry = m->cell->carry < 0 ? -1 : 1; /* the second of the gates (gatetui/cell.h) */
    for (int g = 0; g < sh->ngates; g++) {
        r->gate[g].name = model_gate_name(m, sh->blocks[g]);
        r->gate[g].block = sh->blocks[g];
    }
    r->site = sh->site;
    r->K = sh->K;
    r->horizon_asked = o->horizon;
    for (int i = 0; i < REPORT_MAX_K; i++)
        if (report_ks[i] <= sh->K)
            r->k[r->nk++] = report_ks[i];
}

/* The threads asked for: o->threads, or one per online processor (threads_choose). */
static int threads_wanted(const gt_report_options *o) { return threads_choose(o->threads, 0); }

/* The results' arrays and the jobs: each full window's replacements in batches of
 * sh->chunk (about two batches per thread in all), the long jobs first, then one job per
 * window for its gate values. */
static int make_jobs(shared *sh, const gt_report *r, int threads, gt_error *e)
{
    int per_win = 0;
    if (sh->nfull && sh->reps > 0) {
        size_t want = (2 * (size_t)threads + sh->nfull - 1) / sh->nfull; /* jobs per window */
        size_t chunk = ((size_t)sh->reps + want - 1) / want;
        sh->chunk = (int)(chunk > CHUNK_MAX ? CHUNK_MAX : chunk);
        per_win = (sh->reps + sh->chunk - 1) / sh->chunk;
    }
    const size_t H = sh->H, npairs = sh->nfull * (size_t)(sh->reps > 0 ? sh->reps : 0);
    sh->njobs = sh->nwin + sh->nfull * (size_t)per_win;
    sh->jobs = calloc(sh->njobs, sizeof *sh->jobs);
    sh->unit_sum = calloc(sh->nwin * H, sizeof *sh->unit_sum);
    sh->char_sum = calloc(sh->nwin * 3, sizeof *sh->char_sum);
    sh->char_cnt = calloc(sh->nwin * 3, sizeof *sh->char_cnt);
    sh->hsat = calloc(sh->nwin * 3, sizeof *sh->hsat);
    sh->curves = malloc((npairs ? npairs : 1) * NCURVES * ((size_t)sh->K + 1) * sizeof *sh->curves);
    sh->kept = calloc(npairs ? npairs : 1, 1);
    sh->gate_sum = calloc(sh->nwin * (size_t)sh->ngates * H + 1, sizeof *sh->gate_sum);
    sh->sat = calloc(sh->nwin * 2 * H, sizeof *sh->sat);
    sh->abs_sum = calloc(2 * ((size_t)sh->K + 1) * H, sizeof *sh->abs_sum);
    sh->win_abs = calloc((sh->nfull ? sh->nfull : 1) * 2 * ((size_t)sh->K + 1) * H,
                         sizeof *sh->win_abs);
    int oom = !sh->jobs || !sh->unit_sum || !sh->char_sum || !sh->char_cnt || !sh->hsat ||
              !sh->curves || !sh->kept || !sh->gate_sum || !sh->sat || !sh->abs_sum ||
              !sh->win_abs;
    for (int g = 0; g < sh->ngates && !oom; g++)
        oom = !(sh->vals[g] = malloc(r->positions * H * sizeof(float)));
    if (oom)
        return gt_fail(e, GT_EFAIL, "out of memory for the report (%zu positions x %zu units)",
                       r->positions, H);
    size_t nj = 0;
    for (size_t w = 0; w < sh->nfull; w++)
        for (int f = 0; f < sh->reps; f += sh->chunk) {
            job *jb = &sh->jobs[nj++];
            jb->perturb = 1;
            jb->win = w;
            jb->first = f;
            jb->count = sh->reps - f < sh->chunk ? sh->reps - f : sh->chunk;
            jb->cost = (long long)(jb->count + 1) * (sh->K + 1) * 3; /* double, two runs */
        }
    for (size_t w = 0; w < sh->nwin; w++) {
        job *jb = &sh->jobs[nj++];
        jb->win = w;
        jb->cost = (long long)win_len(sh, w);
    }
    for (size_t j = 0; j < nj; j++)
        sh->total += sh->jobs[j].cost;
    return GT_OK;
}

/* Does the jobs on `threads` threads, the calling one among them. */
static int run_jobs(shared *sh, int threads, gt_error *e)
{
    const gt_jobs j = {.njobs = sh->njobs, .threads = threads, .ctx = sh,
                       .begin = worker_begin, .run = worker_job, .end = worker_end,
                       .cost = job_cost, .total = sh->total,
                       .progress = sh->o->progress, .progress_ctx = sh->o->progress_ctx};
    return jobs_run(&j, NULL, e);
}

/* When the report's layer is the last and the model has a readout, the loss is taken along
 * the windows' runs (they are loss_measure's windows, run the same way) rather than run
 * again: its arrays and the packed readout into sh. */
static int loss_along(shared *sh, gt_error *e)
{
    const gt_model *m = sh->m;
    if (!m->has_readout || sh->layer != m->layers - 1 || sh->steps < 2 || sh->L < 2 ||
        sh->nwin == 0)
        return GT_OK;
    if (!(sh->ls = loss_steps_new(m, e)))
        return e->code;
    sh->loss_sum = calloc(sh->nwin, sizeof *sh->loss_sum);
    sh->loss_cnt = calloc(sh->nwin, sizeof *sh->loss_cnt);
    if (!sh->loss_sum || !sh->loss_cnt)
        return gt_fail(e, GT_EFAIL, "out of memory for the report's loss");
    return GT_OK;
}

int report_compute(gt_report *r, const gt_model *m, const uint16_t *tok, size_t steps,
                   const gt_report_options *o, gt_error *e)
{
    memset(r, 0, sizeof *r);
    int rc = check_options(m, steps, o, e);
    if (rc)
        return rc;
    double t0 = now();
    shared sh;
    memset(&sh, 0, sizeof sh);
    pthread_mutex_init(&sh.abs_lock, NULL);
    plan(&sh, r, m, tok, steps, o);
    int threads = threads_wanted(o);
    rc = m->words ? word_replacements(&sh, e) : GT_OK;
    r->replacements = sh.reps;
    if (!rc)
        rc = make_jobs(&sh, r, threads, e);
    if (!rc)
        rc = loss_along(&sh, e);
    if (!rc) {
        if ((size_t)threads > sh.njobs)
            threads = (int)sh.njobs;
        r->threads = threads;
        rc = run_jobs(&sh, threads, e);
    }
    if (!rc)
        rc = gate_tables(r, &sh, threads, e);
    if (!rc)
        rc = perturbation_table(r, &sh, e);
    if (!rc) {
        const unittable_sums us = {.nwin = sh.nwin, .gate_sum = sh.gate_sum, .sat = sh.sat,
                                   .abs_sum = sh.abs_sum, .win_abs = sh.win_abs};
        rc = unittable_build(r, &us, e);
    }
    const int along = sh.loss_sum != NULL;
    if (!rc && along) {
        loss_from_sums(&r->loss, m, sh.loss_sum, sh.loss_cnt, sh.nwin);
        loss_text(&r->loss, tok, steps);
    }
    free_shared(&sh);
    pthread_mutex_destroy(&sh.abs_lock);
    if (!rc && !along)
        rc = loss_measure(&r->loss, m, tok, steps, (size_t)o->window_len, (size_t)o->windows,
                          o->threads, e);
    if (rc) {
        report_free(r);
        return rc;
    }
    r->seconds = now() - t0;
    return GT_OK;
}
