/* Finding units on the screen (see data_find.h): the computations in a child process, their
 * results taken back, and the questions the panels and keys ask of them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/finding.h"
#include "gatetui/mask.h"
#include "gatetui/profile.h"
#include "gatetui/report.h"
#include "gatetui/select.h"
#include "gatetui/signals.h"
#include "gatetui/units.h"
#include "screen/data_find.h"

enum { WANT_HYP = 1, WANT_SEL = 2, WANT_PROF = 4 };

int data_find_init(gt_data_find *f, const gt_model *m, gt_trace *tr, size_t steps, gt_error *e)
{
    memset(f, 0, sizeof *f);
    f->m = m;
    f->tr = tr;
    f->nsig = signals_count(m);
    f->signal = signals_h(m);
    f->threshold = SELECT_DEFAULT_THRESHOLD;
    f->steps = steps;
    bgjob_init(&f->job);
    f->r = malloc((size_t)f->nsig * (size_t)m->hidden_max * sizeof *f->r); /* any layer's */
    if (!f->r)
        return gt_fail(e, GT_EFAIL, "out of memory for the correlations");
    return GT_OK;
}

static void drop_matches(gt_data_find *f)
{
    free(f->mfrom);
    free(f->mto);
    f->mfrom = f->mto = NULL;
    f->nmatch = 0;
}

static void drop_selection(gt_data_find *f)
{
    free(f->sel_units);
    free(f->sel_min);
    free(f->sfrom);
    free(f->sto);
    f->sel_units = NULL;
    f->sel_min = NULL;
    f->sfrom = f->sto = NULL;
    f->nsel = 0;
    f->nsm = 0;
}

void data_find_free(gt_data_find *f)
{
    bgjob_cancel(&f->job);
    drop_matches(f);
    drop_selection(f);
    free(f->r);
    free(f->prof_text);
    memset(f, 0, sizeof *f);
    bgjob_init(&f->job);
}

static size_t searched(const gt_data_find *f)
{
    size_t T = trace_steps(f->tr);
    return f->steps < T ? f->steps : T;
}

/* ---- the children ---- */

static void fail_why(char *why, const gt_error *e)
{
    snprintf(why, 256, "%.250s", e->msg);
}

/* Sends the matches and every r (by signal, then unit). */
static void send_hypothesis(gt_bgjob *job, gt_data_find *f, const gt_mask *mask,
                            const gt_units *u, size_t n)
{
    const int H = model_width(f->m, u->layer);
    size_t head[3] = {mask->matches, mask->inside, n};
    bgjob_write(job, head, sizeof head);
    bgjob_write(job, mask->from, mask->matches * sizeof *mask->from);
    bgjob_write(job, mask->to, mask->matches * sizeof *mask->to);
    for (int s = 0; s < f->nsig; s++)
        for (int i = 0; i < H; i++)
            f->r[(size_t)s * H + u->by_signal[s][i].unit] = u->by_signal[s][i].r;
    bgjob_write(job, f->r, (size_t)f->nsig * H * sizeof *f->r);
}

/* The first n steps as edited, for a child (its own copy of memory; freed when it exits):
 * what the screen shows, so that matches and contexts are those of the strip. */
static uint16_t *edited_tokens(const gt_data_find *f, size_t n, char *why)
{
    uint16_t *tok = malloc((n ? n : 1) * sizeof *tok);
    if (!tok)
        snprintf(why, 256, "out of memory for the text as edited");
    else
        trace_read(f->tr, 0, n, tok);
    return tok;
}

int data_find_check(const gt_data_find *f, gt_error *e)
{
    if (!f->regex[0])
        return GT_OK;
    char why[256];
    const size_t n = searched(f);
    uint16_t *tok = edited_tokens(f, n, why);
    if (!tok)
        return gt_fail(e, GT_EFAIL, "%s", why);
    gt_mask mask;
    int rc = mask_from_regex(&mask, f->m, tok, n, f->regex, MASK_SECONDS, e);
    if (rc == GT_OK)
        mask_free(&mask);
    free(tok);
    return rc;
}

static int hyp_child(gt_bgjob *job, void *ctx, char *why)
{
    gt_data_find *f = ctx;
    size_t n = searched(f);
    uint16_t *tok = edited_tokens(f, n, why);
    if (!tok)
        return 1;
    gt_pass_options o = {f->want_layer, 1, bgjob_progress, job};
    gt_mask mask;
    gt_units u = {0};
    gt_error e = {0};
    int rc = mask_from_regex(&mask, f->m, tok, n, f->regex, MASK_SECONDS, &e);
    if (rc == GT_OK) {
        gt_units_acc *acc = units_acc_new(f->m, f->want_layer, &mask, &e);
        rc = acc ? GT_OK : GT_EFAIL;
        if (rc == GT_OK)
            rc = signals_pass(f->m, tok, n, &o, units_add, acc, &e);
        if (rc == GT_OK)
            rc = units_finish(&u, acc, mask.matches, &e);
        if (rc == GT_OK)
            send_hypothesis(job, f, &mask, &u, n);
        units_free(&u);
        units_acc_free(acc);
        mask_free(&mask);
    }
    free(tok);
    if (rc)
        fail_why(why, &e);
    return rc;
}

static int sel_child(gt_bgjob *job, void *ctx, char *why)
{
    gt_data_find *f = ctx;
    gt_pass_options o = {f->want_layer, 1, bgjob_progress, job};
    gt_selection s;
    gt_error e = {0};
    uint16_t *tok = edited_tokens(f, searched(f), why);
    if (!tok)
        return 1;
    int rc = select_compute(&s, f->m, tok, searched(f), f->sel_a, f->sel_b, f->signal,
                            f->threshold, &o, &e);
    free(tok);
    if (rc) {
        fail_why(why, &e);
        return 1;
    }
    size_t head[2] = {(size_t)s.nunits, s.nmatches};
    bgjob_write(job, head, sizeof head);
    bgjob_write(job, s.units, (size_t)s.nunits * sizeof *s.units);
    bgjob_write(job, s.minimum, (size_t)s.nunits * sizeof *s.minimum);
    bgjob_write(job, s.from, s.nmatches * sizeof *s.from);
    bgjob_write(job, s.to, s.nmatches * sizeof *s.to);
    select_free(&s);
    return 0;
}

static int prof_child(gt_bgjob *job, void *ctx, char *why)
{
    gt_data_find *f = ctx;
    gt_pass_options o = {f->want_layer, 1, bgjob_progress, job};
    gt_profile p;
    gt_error e = {0};
    uint16_t *tok = edited_tokens(f, trace_steps(f->tr), why); /* the contexts may run past */
    if (!tok)
        return 1;
    if (profile_compute(&p, f->m, tok, searched(f), f->want_unit, f->signal, &o, &e)) {
        free(tok);
        fail_why(why, &e);
        return 1;
    }
    char *buf = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&buf, &n);
    int bad = !out || find_print_profile(out, &p, tok, trace_steps(f->tr), 0);
    if (out && fclose(out))
        bad = 1;
    if (bad)
        snprintf(why, 256, "out of memory for the profile");
    else
        bgjob_write(job, buf, n);
    free(buf);
    free(tok);
    profile_free(&p);
    return bad;
}

/* ---- starting them, one at a time ---- */

static void start_next(gt_data_find *f)
{
    if (bgjob_busy(&f->job) || !f->want)
        return;
    int w = f->want & WANT_HYP ? WANT_HYP : f->want & WANT_SEL ? WANT_SEL : WANT_PROF;
    f->want &= ~w;
    gt_bgjob_fn fn = w == WANT_HYP ? hyp_child : w == WANT_SEL ? sel_child : prof_child;
    if (bgjob_start(&f->job, w, fn, f) == 0)
        return;
    snprintf(f->msg, sizeof f->msg, "cannot compute: %.200s", f->job.error);
    f->msg_error = f->msg_new = 1;
    if (w == WANT_HYP)
        f->hyp_state = FIND_FAILED;
    else if (w == WANT_SEL)
        f->sel_state = FIND_FAILED;
    else
        f->prof_state = FIND_FAILED;
}

/* Asks for the computations in want on layer (the running one, stale, is ended). */
static void ask(gt_data_find *f, int want, int layer)
{
    f->quiet &= ~want; /* asked for by a key: its result says so (again() makes it quiet) */
    if (bgjob_busy(&f->job) && (f->job.tag & want))
        bgjob_cancel(&f->job);
    if (bgjob_busy(&f->job)) { /* another kind runs: it is computed again too */
        f->want |= f->job.tag;
        bgjob_cancel(&f->job);
    }
    f->want |= want;
    f->want_layer = layer;
    if (want & WANT_HYP)
        f->hyp_state = FIND_COMPUTING;
    if (want & WANT_SEL)
        f->sel_state = FIND_COMPUTING;
    if (want & WANT_PROF)
        f->prof_state = FIND_COMPUTING;
    start_next(f);
}

int data_find_set_regex(gt_data_find *f, const char *regex, int layer, gt_error *e)
{
    if (!regex[0]) {
        if (bgjob_busy(&f->job) && f->job.tag == WANT_HYP)
            bgjob_cancel(&f->job);
        f->want &= ~WANT_HYP;
        f->regex[0] = 0;
        f->hyp_state = FIND_NONE;
        drop_matches(f);
        if (f->last == FIND_LAST_MATCH)
            f->last = FIND_LAST_SEARCH;
        start_next(f);
        return GT_OK;
    }
    /* a quick check here, within the size bound; the child finds the rest (no match, every
     * step, too slow a search) */
    int rc = mask_regex_check(regex, e);
    if (rc)
        return rc;
    if (strlen(regex) >= sizeof f->regex)
        return gt_fail(e, GT_EINPUT, "the expression is too long");
    snprintf(f->regex, sizeof f->regex, "%s", regex);
    f->last = FIND_LAST_MATCH;
    ask(f, WANT_HYP, layer);
    return GT_OK;
}

void data_find_select(gt_data_find *f, size_t a, size_t b, int layer)
{
    f->sel_a = a < b ? a : b;
    f->sel_b = a < b ? b : a;
    f->last = FIND_LAST_SELECT;
    ask(f, WANT_SEL, layer);
}

void data_find_profile(gt_data_find *f, int unit, int layer, int show)
{
    f->prof_wanted = show;
    if (!show) {
        if (bgjob_busy(&f->job) && f->job.tag == WANT_PROF)
            bgjob_cancel(&f->job);
        f->want &= ~WANT_PROF;
        start_next(f);
        return;
    }
    if (f->prof_state == FIND_KNOWN && f->prof_unit == unit && f->prof_layer == layer &&
        f->prof_signal == f->signal)
        return;
    f->want_unit = unit;
    ask(f, WANT_PROF, layer);
}

/* What is shown, computed again (on layer, the profile of unit). */
static void again(gt_data_find *f, int layer, int unit)
{
    int want = (f->regex[0] ? WANT_HYP : 0) | (f->sel_state != FIND_NONE ? WANT_SEL : 0) |
               (f->prof_wanted ? WANT_PROF : 0);
    f->want_unit = unit;
    if (want)
        ask(f, want, layer);
    f->quiet |= want;
}

void data_find_next_signal(gt_data_find *f, int layer, int unit)
{
    f->signal = (f->signal + 1) % f->nsig;
    /* the r column has every signal already; the selection and the profile do not */
    int want = (f->sel_state != FIND_NONE ? WANT_SEL : 0) | (f->prof_wanted ? WANT_PROF : 0);
    f->want_unit = unit;
    if (want)
        ask(f, want, layer);
}

void data_find_change_threshold(gt_data_find *f, int dir, int layer)
{
    double t = f->threshold + dir * FIND_THRESHOLD_STEP;
    f->threshold = round(t / FIND_THRESHOLD_STEP) * FIND_THRESHOLD_STEP;
    if (f->sel_state != FIND_NONE)
        ask(f, WANT_SEL, layer);
}

void data_find_changed(gt_data_find *f, int layer, int unit)
{
    again(f, layer, unit);
}

void data_find_cancel(gt_data_find *f)
{
    int tag = bgjob_busy(&f->job) ? f->job.tag : 0;
    bgjob_cancel(&f->job);
    int stopped = tag | f->want;
    f->want = 0;
    if (stopped & WANT_HYP && f->hyp_state == FIND_COMPUTING)
        f->hyp_state = FIND_NONE, f->regex[0] = 0;
    if (stopped & WANT_SEL && f->sel_state == FIND_COMPUTING)
        f->sel_state = FIND_NONE;
    if (stopped & WANT_PROF)
        f->prof_wanted = 0, f->prof_state = FIND_NONE;
}

/* ---- the results ---- */

typedef struct reader {
    const char *p;
    size_t left;
} reader;

/* n bytes of the result copied to a new buffer (NULL when they are not there). */
static void *take(reader *r, size_t n)
{
    if (n > r->left)
        return NULL;
    void *out = malloc(n ? n : 1);
    if (out)
        memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return out;
}

static int take_into(reader *r, void *dst, size_t n)
{
    if (n > r->left)
        return -1;
    memcpy(dst, r->p, n);
    r->p += n;
    r->left -= n;
    return 0;
}

static int take_hypothesis(gt_data_find *f, reader *r)
{
    size_t head[3];
    if (take_into(r, head, sizeof head) || head[0] > r->left / (2 * sizeof(size_t)))
        return -1;
    drop_matches(f);
    f->mfrom = take(r, head[0] * sizeof(size_t));
    f->mto = take(r, head[0] * sizeof(size_t));
    size_t nr = (size_t)f->nsig * (size_t)model_width(f->m, f->want_layer) * sizeof *f->r;
    if (!f->mfrom || !f->mto || take_into(r, f->r, nr))
        return -1;
    f->nmatch = head[0];
    f->inside = head[1];
    f->searched = head[2];
    f->hyp_layer = f->want_layer;
    f->hyp_state = FIND_KNOWN;
    /* the unit of largest |r| with the signal chosen */
    const int H = model_width(f->m, f->hyp_layer);
    int best = -1;
    for (int j = 0; j < H; j++) {
        double x = f->r[(size_t)f->signal * H + j];
        if (!isnan(x) && (best < 0 || fabs(x) > fabs(f->r[(size_t)f->signal * H + best])))
            best = j;
    }
    char n1[32], n2[32], n3[32];
    snprintf(f->msg, sizeof f->msg,
             "\"%.60s\": %s match%s, %s of %s steps; largest |r|: unit %d (%s %+.3f); "
             "o r sorts by |r|, n/N jump",
             f->regex, report_commas(f->nmatch, n1, sizeof n1), f->nmatch == 1 ? "" : "es",
             report_commas(f->inside, n2, sizeof n2), report_commas(f->searched, n3, sizeof n3),
             best,
             data_find_signal_name(f), best < 0 ? NAN : f->r[(size_t)f->signal * H + best]);
    return 0;
}

static int take_selection(gt_data_find *f, reader *r)
{
    size_t head[2];
    if (take_into(r, head, sizeof head) || head[0] > (size_t)model_width(f->m, f->want_layer) ||
        head[1] > r->left / (2 * sizeof(size_t)))
        return -1;
    drop_selection(f);
    f->sel_units = take(r, head[0] * sizeof(int));
    f->sel_min = take(r, head[0] * sizeof(double));
    f->sfrom = take(r, head[1] * sizeof(size_t));
    f->sto = take(r, head[1] * sizeof(size_t));
    if (!f->sel_units || !f->sel_min || !f->sfrom || !f->sto)
        return -1;
    f->nsel = (int)head[0];
    f->nsm = head[1];
    f->sel_layer = f->want_layer;
    f->sel_signal = f->signal;
    f->sel_threshold = f->threshold;
    f->sel_state = FIND_KNOWN;
    const char *sig = data_find_signal_name(f);
    char a[32], b[32], c[32];
    report_commas(f->sel_a, a, sizeof a);
    report_commas(f->sel_b, b, sizeof b);
    if (!f->nsel) {
        snprintf(f->msg, sizeof f->msg,
                 "steps %s-%s: no unit has %s >= %.2f throughout and below it around; "
                 "; changes the signal, , and . the threshold",
                 a, b, sig, f->threshold);
        return 0;
    }
    char units[96] = "";
    for (int i = 0, k = 0; i < f->nsel && k + 8 < (int)sizeof units; i++)
        k += snprintf(units + k, sizeof units - (size_t)k, "%s%d", i ? " " : "", f->sel_units[i]);
    snprintf(f->msg, sizeof f->msg, "steps %s-%s, %s >= %.2f: unit%s %s; %s match%s, n/N jump",
             a, b, sig, f->threshold, f->nsel == 1 ? "" : "s", units,
             report_commas(f->nsm, c, sizeof c), f->nsm == 1 ? "" : "es");
    return 0;
}

static int take_profile(gt_data_find *f, reader *r)
{
    char *t = malloc(r->left + 1);
    if (!t)
        return -1;
    memcpy(t, r->p, r->left);
    t[r->left] = 0;
    free(f->prof_text);
    f->prof_text = t;
    f->prof_lines = 0;
    for (const char *p = t; *p; p++)
        f->prof_lines += *p == '\n';
    f->prof_unit = f->want_unit;
    f->prof_layer = f->want_layer;
    f->prof_signal = f->signal;
    f->prof_state = FIND_KNOWN;
    return 0;
}

/* The finished job's result (or its failure) into f. */
static void take_result(gt_data_find *f)
{
    gt_bgjob *j = &f->job;
    int tag = j->tag, bad = 0;
    f->msg_error = 0;
    if (j->result) {
        reader r = {j->result, j->result_len};
        bad = tag == WANT_HYP ? take_hypothesis(f, &r)
              : tag == WANT_SEL ? take_selection(f, &r)
                                : take_profile(f, &r);
        if (bad)
            snprintf(f->msg, sizeof f->msg, "the result came back damaged (out of memory?)");
    } else {
        bad = 1;
        snprintf(f->msg, sizeof f->msg, "%.250s", j->error);
    }
    if (bad) {
        f->msg_error = 1;
        if (tag == WANT_HYP)
            f->hyp_state = FIND_FAILED, f->regex[0] = 0;
        else if (tag == WANT_SEL)
            f->sel_state = FIND_FAILED;
        else
            f->prof_state = FIND_FAILED;
    }
    f->msg_new = bad || (tag != WANT_PROF && !(f->quiet & tag));
    f->quiet &= ~tag;
    bgjob_cancel(j);
}

int data_find_tick(gt_data_find *f)
{
    if (!bgjob_busy(&f->job)) {
        start_next(f);
        return 0;
    }
    if (bgjob_tick(&f->job)) {
        take_result(f);
        start_next(f);
    }
    return 1;
}

int data_find_busy(const gt_data_find *f)
{
    return bgjob_busy(&f->job) || f->want;
}

const char *data_find_progress(const gt_data_find *f, double *done)
{
    if (!bgjob_busy(&f->job))
        return NULL;
    *done = f->job.permille / 1000.0;
    return f->job.tag == WANT_HYP ? "the correlations" : f->job.tag == WANT_SEL ? "the selection"
                                                                             : "the profile";
}

/* ---- questions ---- */

/* The index of the last match starting at or before s, or -1. */
static long last_from(const size_t *from, size_t n, size_t s)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (from[mid] <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}

static int inside(const size_t *from, const size_t *to, size_t n, size_t s)
{
    long i = last_from(from, n, s);
    return i >= 0 && s <= to[i];
}

int data_find_in_match(const gt_data_find *f, size_t s)
{
    return f->hyp_state == FIND_KNOWN && inside(f->mfrom, f->mto, f->nmatch, s);
}

int data_find_in_selection(const gt_data_find *f, size_t s)
{
    return f->sel_state == FIND_KNOWN && inside(f->sfrom, f->sto, f->nsm, s);
}

int data_find_in_span(const gt_data_find *f, size_t s, size_t t)
{
    size_t a = f->anchor < t ? f->anchor : t, b = f->anchor < t ? t : f->anchor;
    return f->selecting && s >= a && s <= b;
}

int data_find_profile_step(const gt_data_find *f, int from, size_t *step, int *line)
{
    if (f->prof_state != FIND_KNOWN || !f->prof_text)
        return -1;
    const char *p = f->prof_text;
    for (int i = 0; p && *p; i++) {
        const char *nl = strchr(p, '\n');
        if (i >= from) {
            const char *q = p;
            while (*q == ' ')
                q++;
            char *end;
            unsigned long long s = strtoull(q, &end, 10);
            if (q > p && end > q && *end == ' ') { /* spaces, a number, spaces, a signed value */
                while (*end == ' ')
                    end++;
                if (*end == '+' || *end == '-') {
                    *step = (size_t)s;
                    if (line)
                        *line = i;
                    return 0;
                }
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    return -1;
}

int data_find_jump(const gt_data_find *f, size_t t, int dir, size_t *to, int *wrapped,
                   size_t *index, size_t *count)
{
    const size_t *from;
    size_t n;
    if (f->last == FIND_LAST_MATCH && f->hyp_state == FIND_KNOWN) {
        from = f->mfrom;
        n = f->nmatch;
    } else if (f->last == FIND_LAST_SELECT && f->sel_state == FIND_KNOWN) {
        from = f->sfrom;
        n = f->nsm;
    } else {
        return 0;
    }
    *wrapped = 0;
    if (!n)
        return -1;
    long i = last_from(from, n, t); /* from[i] <= t < from[i + 1] */
    if (dir > 0) {
        i++;
        if ((size_t)i >= n)
            i = 0, *wrapped = 1;
    } else {
        if (i >= 0 && from[i] == t)
            i--;
        if (i < 0)
            i = (long)n - 1, *wrapped = 1;
    }
    *to = from[i];
    *index = (size_t)i;
    *count = n;
    return 1;
}

int data_find_has_r(const gt_data_find *f, int layer)
{
    return f->hyp_state == FIND_KNOWN && f->hyp_layer == layer;
}

double data_find_r(const gt_data_find *f, int unit)
{
    return f->r[(size_t)f->signal * (size_t)model_width(f->m, f->hyp_layer) + (size_t)unit];
}

const char *data_find_signal_name(const gt_data_find *f)
{
    return signals_name(f->m, f->signal);
}
