/* What each key does to the view (doc/screen.md): stepping, paging, units, sorting,
 * layers, prompts for a step, a search and an edit, undo, help. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/utf8.h"
#include "screen/edtext.h"
#include "screen/export.h"
#include "screen/keys.h"
#include "screen/keys_find.h"
#include "screen/layout.h"

static void message(gt_view *v, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void message(gt_view *v, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
    v->msg_error = error;
}

static size_t page_len(const gt_view *v)
{
    int w = v->lay.too_small ? 80 : v->lay.r[P_STRIP].w - 2;
    return w > 1 ? (size_t)w : 1;
}

static void step_by(gt_view *v, long d)
{
    size_t base = v->pending ? v->pending_step : v->t;
    if (d < 0)
        view_seek(v, (size_t)-d > base ? 0 : base - (size_t)-d);
    else
        view_seek(v, base + (size_t)d);
}

static void select_rank(gt_view *v, long rank)
{
    const int H = v->m->hidden;
    rank = rank < 0 ? 0 : rank >= H ? H - 1 : rank;
    v->unit = v->order[rank];
    v->rank = (int)rank;
}

static void restart_pass(gt_view *v)
{
    if (v->pass_wanted)
        trace_pass_start(v->tr, v->steps, NULL);
}

/* ---- prompts ---- */

static void input_add(gt_view *v, uint32_t cp)
{
    char u[8];
    int n = utf8_encode(cp, u);
    size_t len = strlen(v->input);
    if (n > 0 && len + (size_t)n < sizeof v->input) {
        memcpy(v->input + len, u, (size_t)n);
        v->input[len + (size_t)n] = 0;
    }
}

static void input_backspace(gt_view *v)
{
    size_t len = strlen(v->input);
    while (len > 0 && ((unsigned char)v->input[len - 1] & 0xC0) == 0x80)
        len--;
    if (len > 0)
        len--;
    v->input[len] = 0;
}

static void go_to(gt_view *v, const char *in)
{
    while (*in == ' ')
        in++;
    if (!*in)
        return;
    if (strcmp(in, "end") == 0 || strcmp(in, "$") == 0) {
        view_seek(v, v->steps - 1);
        return;
    }
    char *end;
    errno = 0;
    double x = strtod(in, &end);
    int pct = *end == '%';
    if (pct)
        end++;
    while (*end == ' ')
        end++;
    if (errno || end == in || *end || x < 0 || (!pct && x != (double)(size_t)x)) {
        message(v, 1, "go to: \"%s\" is not a step (0-%zu), N%% or end", in, v->steps - 1);
        return;
    }
    if (pct)
        x = x >= 100 ? (double)(v->steps - 1) : x / 100.0 * (double)(v->steps - 1);
    if (x > (double)(v->steps - 1)) {
        message(v, 1, "go to %s: the text has steps 0-%zu", in, v->steps - 1);
        return;
    }
    view_seek(v, (size_t)(x + (pct ? 0.5 : 0)));
}

/* Finds the search text in the text as edited (the strip's characters) after (dir > 0) or
 * before the cursor, wrapping around; moves to the step at the match. */
static void search(gt_view *v, int dir)
{
    if (!v->search[0]) {
        message(v, 1, "no search yet: / searches");
        return;
    }
    const gt_text *t = v->text;
    size_t cur = text_step_offset(t, v->pending ? v->pending_step : v->t);
    gt_edtext x;
    gt_error e = {0};
    if (edtext_open(&x, v->tr, &e)) {
        message(v, 1, "%s", e.msg);
        return;
    }
    int wrapped;
    size_t found = edtext_find(&x, v->search, strlen(v->search), cur, dir, &wrapped);
    edtext_close(&x);
    if (found == (size_t)-1) {
        message(v, 1, "\"%s\" is not in the text", v->search);
        return;
    }
    size_t s = text_step_at_offset(t, found);
    if (s >= v->steps)
        s = v->steps - 1;
    view_seek(v, s);
    if (wrapped)
        message(v, 0, "search wrapped around the %s", dir > 0 ? "end" : "start");
}

static void edit(gt_view *v, uint32_t cp)
{
    int tok = model_token(v->m, cp);
    char u[8] = "?";
    int n = utf8_encode(cp, u);
    u[n > 0 ? n : 1] = 0;
    if (tok < 0) {
        if (cp < 0x20)
            message(v, 1, "U+%04X is not in the vocabulary; nothing changed", (unsigned)cp);
        else
            message(v, 1, "'%s' is not in the vocabulary; nothing changed", u);
        return;
    }
    if (trace_token(v->tr, v->t) == tok) {
        message(v, 0, "step %zu is already that character; nothing changed", v->t);
        return;
    }
    gt_error e = {0};
    if (trace_edit(v->tr, v->t, tok, &e)) {
        message(v, 1, "%s", e.msg);
        return;
    }
    v->pending = 0;
    message(v, 0, "step %zu edited; u undoes", v->t);
    view_edits_changed(v);
    restart_pass(v);
}

static gt_act prompt_key(gt_view *v, const gt_key *k)
{
    gt_prompt p = v->prompt;
    if (k->sym == K_ESC || (k->ctrl && k->sym == K_CHAR && (k->cp == 'c' || k->cp == 'g'))) {
        v->prompt = PROMPT_NONE;
        return ACT_REDRAW;
    }
    if (p == PROMPT_EDIT) {
        uint32_t cp = k->sym == K_CHAR && !k->ctrl ? k->cp
                      : k->sym == K_ENTER          ? '\n'
                      : k->sym == K_TAB            ? '\t'
                                                   : UTF8_INVALID;
        if (cp == UTF8_INVALID)
            return ACT_NONE;
        v->prompt = PROMPT_NONE;
        edit(v, cp);
        return ACT_REDRAW;
    }
    if (k->sym == K_ENTER) {
        v->prompt = PROMPT_NONE;
        if (p == PROMPT_GOTO) {
            go_to(v, v->input);
        } else if (p == PROMPT_MATCH) {
            keys_find_enter(v);
        } else {
            if (v->input[0])
                snprintf(v->search, sizeof v->search, "%s", v->input);
            v->find.last = FIND_LAST_SEARCH;
            search(v, 1);
        }
        return ACT_REDRAW;
    }
    if (k->sym == K_BACKSPACE)
        input_backspace(v);
    else if (k->sym == K_CHAR && !k->ctrl)
        input_add(v, k->cp);
    else
        return ACT_NONE;
    return ACT_REDRAW;
}

/* ---- the stats view ---- */

static void stats_scroll(gt_view *v, long d)
{
    gt_statsview *sv = &v->stats;
    gt_rect g = v->lay.r[P_GATES];
    g.w = v->lay.cols;
    int rows = g.h - 1 > 1 ? g.h - 1 : 1;
    int n, width;
    statsview_tables(sv, v->layer, &n, &width);
    long max = n - (long)(n ? layout_text_columns(g, n, width) : 1) * rows;
    long to = sv->scroll + d;
    to = to > max ? max : to;
    sv->scroll = to < 0 ? 0 : (int)to;
}

/* The keys that scroll the stats view while it is up; 0 for the others. */
static int stats_key(gt_view *v, const gt_key *k)
{
    int page = v->lay.r[P_GATES].h - 2 > 1 ? v->lay.r[P_GATES].h - 2 : 1;
    switch (k->sym) {
    case K_UP: stats_scroll(v, k->shift ? -page : -1); return 1;
    case K_DOWN: stats_scroll(v, k->shift ? page : 1); return 1;
    case K_PGUP: stats_scroll(v, -page); return 1;
    case K_PGDN: stats_scroll(v, page); return 1;
    case K_ESC:
        v->stats.shown = 0;
        statsview_cancel(&v->stats);
        return 1;
    case K_CHAR:
        if (k->ctrl)
            return 0;
        switch (k->cp) {
        case 'k': stats_scroll(v, -1); return 1;
        case 'j': stats_scroll(v, 1); return 1;
        case 'K': stats_scroll(v, -page); return 1;
        case 'J': stats_scroll(v, page); return 1;
        default: return 0;
        }
    default: return 0;
    }
}

/* ---- the Jacobian view ---- */

static void jac_toggle(gt_view *v)
{
    v->jac.shown = !v->jac.shown;
    if (!v->jac.shown)
        return;
    if (v->stats.shown) { /* one view over the panels at a time */
        v->stats.shown = 0;
        statsview_cancel(&v->stats);
    }
    v->find.prof_shown = 0;
    message(v, 0, "%s_T / %s_(T-k) against the carry line at the cursor: %s, D closes",
            v->m->arch == GT_LSTM ? "dc" : "dh", v->m->arch == GT_LSTM ? "dc" : "dh",
            "arrows step and select");
}

/* The keys that mean something else while the Jacobian view is up (K, closing); 0 for the
 * others. */
static int jac_key(gt_view *v, const gt_key *k)
{
    if (k->sym == K_ESC) {
        v->jac.shown = 0;
        return 1;
    }
    if (k->sym != K_CHAR || k->ctrl || (k->cp != '+' && k->cp != '=' && k->cp != '-'))
        return 0;
    int K = v->jac.horizon, nk = k->cp == '-' ? K / 2 : K * 2;
    if (nk < JACVIEW_KMIN || nk > JACVIEW_KMAX)
        message(v, 0, "K is %d (%d-%d)", K, JACVIEW_KMIN, JACVIEW_KMAX);
    else {
        v->jac.horizon = nk;
        message(v, 0, "the derivative's lags: K = %d", nk);
    }
    return 1;
}

/* ---- the keys ---- */

static void change_layer(gt_view *v, int d)
{
    int L = v->m->layers;
    if (L == 1) {
        message(v, 0, "the model has one layer");
    } else if (v->layer + d < 0 || v->layer + d >= L) {
        message(v, 0, "layer %d is the %s (layers 0-%d)", v->layer, d > 0 ? "top" : "bottom",
                L - 1);
    } else {
        v->layer += d;
        view_edits_changed(v);
        if (v->stats.shown) {
            v->stats.scroll = 0;
            statsview_want(&v->stats, v->layer);
        }
    }
}

static void open_prompt(gt_view *v, gt_prompt p)
{
    if (p == PROMPT_EDIT && v->pending) {
        message(v, 1, "wait for the states to be computed (Esc stops)");
        return;
    }
    v->prompt = p;
    v->input[0] = 0;
}

static void undo(gt_view *v)
{
    gt_edit ed;
    if (!trace_undo(v->tr, &ed)) {
        message(v, 0, "no edit to undo");
        return;
    }
    v->pending = 0;
    message(v, 0, "undid the edit at step %zu (%zu left)", ed.step, trace_edit_count(v->tr));
    view_edits_changed(v);
    restart_pass(v);
}

/* The perturbation horizon K doubled (more) or halved. */
static void change_horizon(gt_view *v, int more)
{
    int K = v->pert.horizon, nk = more ? K * 2 : K / 2;
    gt_error e = {0};
    if (nk < PERTVIEW_KMIN || nk > PERTVIEW_KMAX)
        message(v, 0, "K is %d (%d-%d)", K, PERTVIEW_KMIN, PERTVIEW_KMAX);
    else if (pertview_set_horizon(&v->pert, v->tr, v->layer, nk, &e))
        message(v, 1, "perturbation: %.200s", e.msg);
    else
        message(v, 0, "perturbation horizon K = %d", nk);
}

static void toggle_diff(gt_view *v)
{
    gt_error e = {0};
    int rc = view_set_diff(v, !v->diff, &e);
    if (rc == GT_EINPUT) /* no edit */
        message(v, 0, "%s", e.msg);
    else if (rc)
        message(v, 1, "difference: %.200s", e.msg);
    else
        message(v, 0, v->diff ? "gates and unit: edited - before the last edit (d: back)"
                              : "gates and unit: the text as edited");
}

static void toggle_stats(gt_view *v)
{
    v->stats.shown = !v->stats.shown;
    v->jac.shown = 0; /* one view over the panels at a time */
    if (v->stats.shown) {
        v->stats.scroll = 0;
        statsview_want(&v->stats, v->layer);
    } else {
        statsview_cancel(&v->stats); /* a computation not finished is ended */
    }
}

static void write_text(gt_view *v)
{
    char name[300];
    gt_error e = {0};
    if (!trace_edit_count(v->tr))
        message(v, 0, "no edit: the text is as loaded");
    else if (export_text_to_cwd(v->tr, v->text_name, name, sizeof name, &e))
        message(v, 1, "writing the text failed: %.200s", e.msg);
    else
        message(v, 0, "edited text written to ./%s", name);
}

static gt_act ctrl_key(gt_view *v, const gt_key *k)
{
    switch (k->cp) {
    case 'c': return ACT_QUIT;
    case 'b': step_by(v, -(long)page_len(v)); return ACT_REDRAW;
    case 'f': step_by(v, (long)page_len(v)); return ACT_REDRAW;
    case 'l': return ACT_REDRAW;
    default: return ACT_NONE;
    }
}

/* The next (dir > 0) or previous match of the last select or regular expression when
 * there is one, else of the last search. */
static void next_match(gt_view *v, int dir)
{
    if (!keys_find_jump(v, dir))
        search(v, dir);
}

static gt_act char_key(gt_view *v, const gt_key *k)
{
    if (keys_find_char(v, k))
        return ACT_REDRAW;
    if (k->ctrl)
        return ctrl_key(v, k);
    switch (k->cp) {
    case 'q': return ACT_QUIT;
    case 'h': step_by(v, -1); break;
    case 'l': step_by(v, 1); break;
    case 'k': select_rank(v, v->rank - 1); break;
    case 'j': select_rank(v, v->rank + 1); break;
    case 'K': select_rank(v, v->rank - view_units_per_page(v)); break;
    case 'J': select_rank(v, v->rank + view_units_per_page(v)); break;
    case '0': view_seek(v, 0); break;
    case '$':
    case 'G': view_seek(v, v->steps - 1); break;
    case ' ': step_by(v, (long)page_len(v)); break;
    case 's': v->sort = keys_find_next_sort(v); break;
    case 'S': v->sort_reverse = !v->sort_reverse; break;
    case 'c': v->heat = !v->heat; break;
    case '[': change_layer(v, -1); break;
    case ']': change_layer(v, 1); break;
    case 'g': open_prompt(v, PROMPT_GOTO); break;
    case '/': open_prompt(v, PROMPT_SEARCH); break;
    case 'e': open_prompt(v, PROMPT_EDIT); break;
    case 'n':
    case 'N': next_match(v, k->cp == 'n' ? 1 : -1); break;
    case 'u': undo(v); break;
    case '+':
    case '=': change_horizon(v, 1); break;
    case '-': change_horizon(v, 0); break;
    case 'd': toggle_diff(v); break;
    case 'D': jac_toggle(v); break;
    case 'r': toggle_stats(v); break;
    case 'w': write_text(v); break;
    case 'x': return ACT_EXPORT;
    case '?': v->help = 1; break;
    default: return ACT_NONE;
    }
    return ACT_REDRAW;
}

gt_act keys_handle(gt_view *v, const gt_key *k)
{
    if (v->help) { /* any key closes the help */
        v->help = 0;
        return k->sym == K_CHAR && k->ctrl && k->cp == 'c' ? ACT_QUIT : ACT_REDRAW;
    }
    if (v->prompt != PROMPT_NONE)
        return prompt_key(v, k);
    v->msg[0] = 0;
    v->msg_error = 0;
    if (v->stats.shown && stats_key(v, k))
        return ACT_REDRAW;
    if (keys_find_overlay(v, k))
        return ACT_REDRAW;
    if (v->jac.shown && jac_key(v, k))
        return ACT_REDRAW;
    int page = view_units_per_page(v);
    switch (k->sym) {
    case K_CHAR: return char_key(v, k);
    case K_LEFT: step_by(v, -1); break;
    case K_RIGHT: step_by(v, 1); break;
    case K_UP: select_rank(v, v->rank - (k->shift ? page : 1)); break;
    case K_DOWN: select_rank(v, v->rank + (k->shift ? page : 1)); break;
    case K_PGUP: step_by(v, -(long)page_len(v)); break;
    case K_PGDN: step_by(v, (long)page_len(v)); break;
    case K_HOME: view_seek(v, 0); break;
    case K_END: view_seek(v, v->steps - 1); break;
    case K_ESC:
        if (keys_find_escape(v))
            break;
        if (v->pending || trace_pass_running(v->tr))
            view_cancel_pass(v);
        break;
    default: return ACT_NONE;
    }
    return ACT_REDRAW;
}

gt_act keys_handle_models(gt_models *ms, const gt_key *k)
{
    gt_view *v = models_view(ms);
    if (k->sym == K_TAB && !v->help && v->prompt == PROMPT_NONE) {
        v->msg[0] = 0;
        models_switch(ms, k->shift ? -1 : 1);
        return ACT_REDRAW;
    }
    gt_act a = keys_handle(v, k);
    models_sync(ms);
    return a;
}
