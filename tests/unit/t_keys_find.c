/* The keys that find units, without a terminal (keys_handle on a view, the computations in
 * their child processes, waited for): on the model built by hand whose unit 0 tracks
 * parentheses (tests/lib/parenmodel.c), m with '\([^)]*\)' gives unit 0 r = 1 and the sort by
 * |r| puts it first; n and N go through the parentheticals, and after a search through the
 * search's hits; v on a parenthetical selects unit 0 and matches every run inside
 * parentheses; p shows the profile; ; , . change the signal and the threshold; an edit
 * computes the hypothesis again; a bad expression, one that matches nothing, Esc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gatetui/mask.h"
#include "gatetui/probe.h"
#include "gatetui/trace.h"
#include "../lib/parenmodel.h"
#include "screen/draw_surface.h"
#include "screen/frame.h"
#include "screen/keys.h"
#include "screen/view.h"
#include "screen/sheets.h"
#include "screen/sheet_profile.h"
#include "../lib/tap.h"

/* A key, then the frame; a jump beyond what a frame computes at once (a loaded machine)
 * waits for the background pass, as the screen does. */
static gt_act key(gt_view *v, gt_keysym sym, uint32_t cp)
{
    gt_key k = {sym, cp, 0, 0, 0, 0};
    gt_act a = keys_handle(v, &k);
    gt_error e = {0};
    TAP_WAIT_WHILE(v->pending, view_tick(v));
    view_prepare(v, 120, 40, &e);
    return a;
}

static void type(gt_view *v, const char *s)
{
    for (; *s; s++)
        key(v, K_CHAR, (unsigned char)*s);
}

/* Ticks the view until the finding computations are done (at most TAP_WAIT_SECONDS). */
static int settle(gt_view *v)
{
    view_tick(v);
    TAP_WAIT_WHILE(data_find_busy(&v->find), view_tick(v));
    if (data_find_busy(&v->find))
        return 0;
    gt_error e = {0};
    view_prepare(v, 120, 40, &e);
    return 1;
}

static void match(gt_view *v, const char *regex)
{
    key(v, K_CHAR, 'm');
    while (v->ui->prompt[0]) /* m offers the last expression to edit */
        key(v, K_BACKSPACE, 0);
    type(v, regex);
    key(v, K_ENTER, 0);
}

/* Parentheticals of the text: their first and last steps, and the runs inside them. */
typedef struct parens {
    size_t n, from[4096], to[4096];
    size_t runs, rfrom[4096], rto[4096];
} parens;

static void find_parens(const char *s, size_t len, parens *p)
{
    p->n = p->runs = 0;
    for (size_t t = 0; t < len; t++) {
        if (s[t] == '(') {
            p->from[p->n] = t;
            if (t == 0 || s[t - 1] != ')')
                p->rfrom[p->runs] = t;
        }
        if (s[t] == ')') {
            p->to[p->n++] = t;
            if (t + 1 == len || s[t + 1] != '(')
                p->rto[p->runs++] = t;
        }
    }
}

/* The probe the view's child fitted, against --probe's computation on the same steps. */
static int probe_as_direct(gt_view *v, const gt_text *t)
{
    const gt_data_probe *dp = &v->probe;
    TAP_WAIT_WHILE(dp->state == PROBE_COMPUTING, view_tick(v));
    if (dp->state != PROBE_KNOWN || dp->layer != 0 || strcmp(dp->regex, v->find.regex))
        return 0;
    gt_error e = {0};
    gt_mask k;
    gt_signal_matrix x = {0};
    gt_probe pr;
    gt_pass_options po = {0, 1, NULL, NULL};
    const size_t n = v->find.searched;
    if (mask_from_regex(&k, v->m, t->tok, n, v->find.regex, MASK_SECONDS, &e))
        return 0;
    int ok = probe_matrix(&x, v->m, t->tok, n, v->find.signal, &po, &e) == GT_OK;
    if (ok && probe_compute(&pr, &x, k.m, PROBE_DEFAULT_FOLDS, PROBE_DEFAULT_L2, 1, &e) == GT_OK) {
        ok = pr.auc == dp->auc && pr.best_unit_auc == dp->best_auc &&
             pr.units_for_95 == dp->units_for_95 && dp->nprob == n;
        for (size_t s = 0; ok && s < n; s++) /* each step's probability, as sent */
            ok = data_probe_at(dp, 0, s) == (float)pr.prob[s];
        ok = ok && data_probe_at(dp, 0, n) < 0 && data_probe_at(dp, 1, 0) < 0;
        probe_free(&pr);
    } else {
        ok = 0;
    }
    if (x.x)
        free(x.x);
    mask_free(&k);
    return ok;
}

/* The components the view's child computed, against --components's on the same steps. */
static int comp_as_direct(gt_view *v, const gt_text *t)
{
    const gt_data_comp *c = &v->probe.comp;
    view_tick(v);
    TAP_WAIT_WHILE(c->state == PROBE_COMPUTING, view_tick(v));
    if (c->state != PROBE_KNOWN || c->layer != v->layer)
        return 0;
    gt_error e = {0};
    gt_signal_matrix x = {0};
    gt_components pc;
    gt_pass_options po = {v->layer, 1, NULL, NULL};
    const size_t n = c->steps;
    int ok = n == t->steps && probe_matrix(&x, v->m, t->tok, n, v->find.signal, &po, &e) == GT_OK;
    if (ok && components_compute(&pc, &x, DATA_COMP_K, &e) == GT_OK) {
        for (int j = 0; ok && j < DATA_COMP_K; j++) {
            double ss = 0;
            for (size_t s = 0; s < n; s++)
                ss += (double)(float)pc.score[j * n + s] * (float)pc.score[j * n + s];
            const double sd = sqrt(ss / (double)n);
            ok = c->explained[j] == pc.explained[j];
            for (size_t s = 0; ok && s < n; s++) {
                double want = (float)pc.score[j * n + s] / (2 * sd);
                want = want < -1 ? -1 : want > 1 ? 1 : want;
                ok = data_comp_at(&v->probe, j, v->layer, s) == (float)want;
            }
        }
        components_free(&pc);
    } else {
        ok = 0;
    }
    if (x.x)
        free(x.x);
    return ok;
}

/* A file written while a hypothesis is computed (W, w, x, F, X): the message line keeps
 * saying where until the next key, not replaced by the hypothesis's result when it comes;
 * without a file written, the result is said. */
static void test_kept_message(gt_view *v)
{
    match(v, "[aeiou]");
    view_say_kept(v, "session written to ./s.gatetui-session.json");
    const int busy = data_find_busy(&v->find);
    const int kept = settle(v) &&
                     strcmp(v->ui->msg, "session written to ./s.gatetui-session.json") == 0;
    match(v, "[bcd]");
    const int said = settle(v) && strstr(v->ui->msg, "\"[bcd]\": ") == v->ui->msg;
    tap_ok(busy && kept && said, "a file written while m computes: said until the next key "
           "(\"%s\"), the result said otherwise", v->ui->msg);
}

static void test_match(gt_view *v, const parens *p, const gt_text *t)
{
    match(v, "\\([^)]*\\)");
    tap_ok(settle(v) && data_find_has_r(&v->find, 0), "m: every unit's r computed");
    const int probe_ok = probe_as_direct(v, t); /* before the message's values are read */
    tap_ok(probe_ok && v->probe.auc == 1 && v->probe.best_auc == 1,
           "m: its linear probe by a child (AUC %.4f, the best unit's %.4f, units for 95%%: %d), "
           "as --probe computes it, and its probability at each step",
           v->probe.auc, v->probe.best_auc, v->probe.units_for_95);
    key(v, K_CHAR, 'c');
    key(v, K_CHAR, 'P');
    tap_ok(v->ui->heat == HEAT_PROBE, "c then P: the text coloured by the probe");
    key(v, K_CHAR, 'P');
    const int comp_ok = comp_as_direct(v, t);
    tap_ok(v->ui->heat == HEAT_COMP && comp_ok,
           "P: by the first principal component, its scores by a child as --components "
           "computes them (%.1f%% of the variance)", 100 * v->probe.comp.explained[0]);
    for (int j = 1; j < DATA_COMP_K; j++)
        key(v, K_CHAR, 'P');
    const int last = v->ui->heat == HEAT_COMP + DATA_COMP_K - 1;
    key(v, K_CHAR, 'P');
    tap_ok(last && v->ui->heat == HEAT_OFF, "P through the components, then off");
    tap_ok(data_find_r(&v->find, 0) > 0.9999, "unit 0: r = %.6f with h",
           data_find_r(&v->find, 0));
    int sorts = 0;
    while (v->ui->sort != SORT_R && sorts++ <= SORT_COUNT)
        key(v, K_CHAR, 's');
    tap_ok(v->ui->sort == SORT_R && v->order[0] == 0, "s reaches the sort by |r|: unit 0 first");
    tap_ok(v->find.nmatch == p->n, "%zu matches, the %zu parentheticals", v->find.nmatch, p->n);

    key(v, K_HOME, 0);
    key(v, K_CHAR, 'n');
    int ok = v->t == p->from[0];
    key(v, K_CHAR, 'n');
    ok &= v->t == p->from[1];
    key(v, K_CHAR, 'N');
    ok &= v->t == p->from[0];
    char want[64];
    snprintf(want, sizeof want, "match 1 of %zu", p->n);
    ok &= strcmp(v->ui->msg, want) == 0;
    key(v, K_CHAR, 'N'); /* around the start: the last */
    ok &= v->t == p->from[p->n - 1];
    snprintf(want, sizeof want, "match %zu of %zu (from the start: the last)", p->n, p->n);
    ok &= strcmp(v->ui->msg, want) == 0;
    tap_ok(ok, "n and N go from parenthetical to parenthetical, around the ends, saying which "
               "(%s)", v->ui->msg);

    key(v, K_HOME, 0);
    key(v, K_CHAR, '/');
    type(v, ")");
    key(v, K_ENTER, 0);
    ok = v->t == p->to[0];
    key(v, K_CHAR, 'n');
    ok &= v->t == p->to[1];
    tap_ok(ok, "after a search, n repeats the search (step %zu, want %zu)", v->t, p->to[1]);
    match(v, "\\([^)]*\\)");
    settle(v);
    key(v, K_CHAR, 'n');
    tap_ok(v->t == p->from[2], "after m again, n goes to the next match (step %zu)", v->t);
}

static void test_select(gt_view *v, const parens *p, const char *txt)
{
    size_t k = 1; /* a parenthetical with none next to it */
    while (k + 1 < p->n && (txt[p->from[k] - 1] == ')' || txt[p->to[k] + 1] == '('))
        k++;
    view_seek(v, p->from[k]);
    key(v, K_CHAR, 'v');
    tap_ok(v->find.selecting, "v begins a selection");
    for (size_t t = p->from[k]; t < p->to[k]; t++)
        key(v, K_RIGHT, 0);
    key(v, K_CHAR, 'v');
    int ok = settle(v) && v->find.sel_state == FIND_KNOWN;
    tap_ok(ok && v->find.nsel == 1 && v->find.sel_units[0] == 0,
           "v again: steps %zu-%zu select unit 0 alone (%d units)", v->find.sel_a,
           v->find.sel_b, v->find.nsel);
    int same = v->find.nsm == p->runs;
    for (size_t i = 0; same && i < p->runs; i++)
        same = v->find.sfrom[i] == p->rfrom[i] && v->find.sto[i] == p->rto[i];
    tap_ok(same, "its matches are the %zu runs inside parentheses (%zu)", p->runs, v->find.nsm);
    key(v, K_HOME, 0);
    key(v, K_CHAR, 'n');
    char want[64];
    snprintf(want, sizeof want, "stretch 1 of %zu", p->runs);
    tap_ok(v->t == p->rfrom[0] && strcmp(v->ui->msg, want) == 0,
           "n goes to the first match of the selection: %s", v->ui->msg);
    /* the steps in a match of m and a stretch of v both: marked as both under the text */
    gt_surface surf;
    int both = 0, selected = 0;
    gt_error e = {0};
    if (surf_init(&surf, 120, 40, 1) == 0 && view_prepare(v, 120, 40, &e) == GT_OK) {
        frame_draw(&surf, v);
        for (int y = v->lay.r[P_STRIP].y; y < v->lay.r[P_STRIP].y + v->lay.r[P_STRIP].h; y++)
            for (int x = 0; x < 120; x++) {
                both += strcmp(surf_cell(&surf, x, y)->s, "\xe2\x89\xa1") == 0;
                selected += strcmp(surf_cell(&surf, x, y)->s, "\xe2\x95\x90") == 0;
            }
        surf_free(&surf);
    }
    tap_ok(both > 0, "in the strip, the steps both matched and selected marked \xe2\x89\xa1 "
           "(%d), not as the selection alone \xe2\x95\x90 (%d)", both, selected);
    key(v, K_CHAR, '.');
    settle(v);
    tap_ok(v->find.sel_threshold > 0.34 && v->find.sel_threshold < 0.36 && v->find.nsel == 1,
           ". raises the threshold to %.2f and selects again", v->find.sel_threshold);
    key(v, K_CHAR, 'v');
    key(v, K_ESC, 0);
    tap_ok(!v->find.selecting, "Esc ends a selection being made");
}

/* Computed again after an edit, an intervention or another layer, the hypothesis and the
 * selection leave the message line to what the key said; asked for by a key, they say
 * what they found. */
static void test_quiet_again(gt_view *v)
{
    snprintf(v->ui->msg, sizeof v->ui->msg, "what the key did");
    data_find_changed(&v->find, v->layer, v->unit);
    int asked = data_find_busy(&v->find);
    settle(v);
    tap_ok(asked && v->find.hyp_state == FIND_KNOWN && strcmp(v->ui->msg, "what the key did") == 0,
           "the hypothesis computed again after a change: the message line keeps what the key "
           "said");
    match(v, v->find.regex);
    settle(v);
    tap_ok(strcmp(v->ui->msg, "what the key did") != 0, "asked for by m: it says what it found "
           "(%s)", v->ui->msg);
}

static void test_profile(gt_view *v)
{
    v->ui->unit = 0;
    key(v, K_CHAR, 'p');
    int ok = settle(v) && sheet_up(v, &sheet_profile) && v->find.prof_state == FIND_KNOWN;
    tap_ok(ok && strstr(v->find.prof_text, "the 10 steps of highest value"),
           "p: the profile of unit 0 is shown");
    /* Enter: the step of the first row of the highest values, read here from the text */
    const char *row = ok ? strstr(v->find.prof_text, "context\n") : NULL;
    unsigned long want = 0, second = 0;
    int rows = row && sscanf(row + 8, "%lu %*s %*[^\n]\n%lu", &want, &second) == 2;
    key(v, K_ENTER, 0);
    settle(v);
    const size_t first_at = v->t;
    size_t at;
    int line = -1, was_line = -1;
    data_find_profile_step(&v->find, sheet_profile_data(v)->scroll, &at, &was_line);
    for (int i = 0; i < 20 && (line < 0 || line == was_line); i++) { /* scrolled past it */
        key(v, K_DOWN, 0);
        data_find_profile_step(&v->find, sheet_profile_data(v)->scroll, &at, &line);
    }
    key(v, K_ENTER, 0); /* the marked line now the second row */
    settle(v);
    tap_ok(rows && first_at == want && v->t == second && sheet_up(v, &sheet_profile),
           "Enter in the profile goes to its marked row's step (%zu; scrolled past it, %zu)",
           first_at, v->t);
    key(v, K_CHAR, 'p');
    tap_ok(!sheet_up(v, &sheet_profile), "p again closes it");
    const char *was = data_find_signal_name(&v->find);
    key(v, K_CHAR, ';');
    tap_ok(strcmp(data_find_signal_name(&v->find), was) != 0 &&
               strcmp(data_find_signal_name(&v->find), "i") == 0,
           "; goes from %s to the next signal, %s", was, data_find_signal_name(&v->find));
    int best = 0; /* the unit of largest |r| with i, from every unit's r */
    for (int u = 1; u < v->m->hidden_max; u++)
        if (fabs(data_find_r(&v->find, u)) > fabs(data_find_r(&v->find, best)))
            best = u;
    char named[64];
    snprintf(named, sizeof named, "now %d, r = %+.3f", best, data_find_r(&v->find, best));
    tap_ok(data_find_has_r(&v->find, v->layer) && strstr(v->ui->msg, named),
           "; names the hypothesis's best unit under the new signal: %s", v->ui->msg);
    for (int i = 0; i < 5; i++) /* back to h */
        key(v, K_CHAR, ';');
    settle(v);
}

/* Without a hypothesis P goes to the components at once (their child not ended by the
 * hypothesis's absence). */
static void test_components_alone(gt_view *v, const gt_text *t)
{
    match(v, "");
    settle(v);
    v->ui->heat = HEAT_OFF;
    key(v, K_CHAR, 'P');
    const int first = v->ui->heat == HEAT_COMP && v->find.hyp_state == FIND_NONE;
    tap_ok(first && comp_as_direct(v, t),
           "no hypothesis: P colours by the first component at once, as --components computes it");
    key(v, K_CHAR, 'c');
}

static void test_bad(gt_view *v)
{
    match(v, "(");
    tap_ok(v->ui->msg_error && strstr(v->ui->msg, "not a valid regular expression") &&
               !data_find_busy(&v->find),
           "m with \"(\": %s", v->ui->msg);
    match(v, "q");
    settle(v);
    tap_ok(v->ui->msg_error && strstr(v->ui->msg, "matches no character"), "m with \"q\": %s", v->ui->msg);
    match(v, "\\([^)]*\\)");
    settle(v);
    key(v, K_CHAR, 'e');
    key(v, K_CHAR, 'b');
    tap_ok(v->find.hyp_state == FIND_COMPUTING || data_find_busy(&v->find),
           "an edit computes the hypothesis again");
    tap_ok(settle(v) && v->find.hyp_state == FIND_KNOWN, "and it is known again");
    match(v, "\\([^)]*\\)");
    key(v, K_ESC, 0);
    tap_ok(!data_find_busy(&v->find), "Esc stops the computation");
}

int main(void)
{
    char dir[] = "/tmp/t_keys_find.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "%s/paren.safetensors", dir);
    paren_write_model(path);
    const size_t n = 2000;
    char *txt = paren_make_text(n);
    gt_error e = {0};
    gt_model m;
    gt_text t;
    if (model_load(&m, path, NULL, &e) || text_from_memory(&t, "paren.txt", txt, n, &m, &e)) {
        printf("# %s\n", e.msg);
        return 1;
    }
    static parens p;
    find_parens(txt, n, &p);
    gt_trace *tr;
    gt_view v;
    trace_open(&tr, &m, &t, NULL, &e);
    view_init(&v, &m, &t, tr, 0, &e);
    view_prepare(&v, 120, 40, &e);
    test_match(&v, &p, &t);
    test_select(&v, &p, txt);
    test_quiet_again(&v);
    test_profile(&v);
    test_components_alone(&v, &t);
    test_kept_message(&v);
    test_bad(&v);
    view_free(&v);
    trace_close(tr);
    text_free(&t);
    model_free(&m);
    free(txt);
    unlink(path);
    rmdir(dir);
    return tap_done();
}
