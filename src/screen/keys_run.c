/* What the panels' keys do to the view (doc/screen.md, "Keys"): the handlers of the key
 * table's lines (keys_table.c), each given the argument its line binds the key to; and
 * the keys a prompt, o, M and ' wait for (see keys_run.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/report.h"
#include "gatetui/utf8.h"
#include "screen/edtext.h"
#include "screen/export_file.h"
#include "screen/export_paper.h"
#include "screen/keys_find.h"
#include "screen/keys_word.h"
#include "screen/keys_run.h"
#include "screen/draw_layout.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"

static size_t page_len(const gt_view *v)
{
    int w = v->lay.too_small ? 80 : v->lay.r[P_STRIP].w - 2;
    return w > 1 ? (size_t)w : 1;
}

static void select_rank(gt_view *v, long rank)
{
    const int H = model_width(v->m, v->layer);
    rank = rank < 0 ? 0 : rank >= H ? H - 1 : rank;
    view_select_unit(v, v->order[rank]);
    v->rank = (int)rank;
}

/* ---- prompts ---- */

static void go_to(gt_view *v, const char *in)
{
    char last[32];
    report_commas(v->steps - 1, last, sizeof last);
    while (*in == ' ')
        in++;
    if (!*in)
        return;
    if (strcmp(in, "end") == 0 || strcmp(in, "$") == 0) {
        view_jump(v, v->steps - 1);
        return;
    }
    /* decimal digits only (a fraction only before %): no sign, exponent, hex or nan */
    const char *end = in;
    double x = 0, scale = 1;
    int digits = 0, frac = 0;
    for (; (*end >= '0' && *end <= '9') || (*end == '.' && !frac); end++) {
        if (*end == '.') {
            frac = 1;
            continue;
        }
        digits++;
        if (frac)
            x += (*end - '0') * (scale /= 10);
        else
            x = x * 10 + (*end - '0');
    }
    int pct = *end == '%';
    if (pct)
        end++;
    while (*end == ' ')
        end++;
    if (!digits || *end || (frac && !pct) || x > 1e18) {
        view_say(v, 1, "go to: \"%s\" is not a step (0-%s), N%% or end", in, last);
        return;
    }
    if (pct)
        x = x >= 100 ? (double)(v->steps - 1) : x / 100.0 * (double)(v->steps - 1);
    if (x > (double)(v->steps - 1)) {
        view_say(v, 1, "go to %s: the text has steps 0-%s", in, last);
        return;
    }
    view_jump(v, (size_t)(x + (pct ? 0.5 : 0)));
}

/* # N: selects unit N. */
static void select_unit(gt_view *v, const char *in)
{
    while (*in == ' ')
        in++;
    char *end;
    long u = *in >= '0' && *in <= '9' ? strtol(in, &end, 10) : -1;
    if (u < 0 || *end || u >= model_width(v->m, v->layer)) {
        if (*in)
            view_say(v, 1, "unit: \"%s\" is not a unit (0-%d)", in, model_width(v->m, v->layer) - 1);
        return;
    }
    view_select_unit(v, (int)u);
    view_say(v, 0, "unit %ld selected", u);
}

/* Finds the search text in the text as edited (the strip's characters) after (dir > 0) or
 * before the cursor, wrapping around; moves to the step at the match. */
static void search(gt_view *v, int dir)
{
    if (!v->ui->search[0]) {
        view_say(v, 1, "no search yet: / searches");
        return;
    }
    const gt_text *t = v->text;
    size_t cur = text_step_offset(t, v->ui->t);
    gt_edtext x;
    gt_error e = {0};
    if (edtext_open(&x, v->tr, &e)) {
        view_say(v, 1, "%s", e.msg);
        return;
    }
    /* smart case: a search without capitals finds either case */
    x.fold = edtext_smart_fold(v->ui->search);
    int wrapped;
    size_t len = strlen(v->ui->search), before;
    size_t found = edtext_find(&x, v->ui->search, len, cur, dir, &wrapped);
    size_t count = found == (size_t)-1 ? 0 : edtext_count(&x, v->ui->search, len, found, &before);
    int fold = x.fold;
    edtext_close(&x);
    if (found == (size_t)-1) {
        view_say(v, 1, "\"%s\" is not in the text", v->ui->search);
        return;
    }
    size_t s = text_step_at_offset(t, found);
    if (s >= v->steps)
        s = v->steps - 1;
    view_jump(v, s);
    v->ui->search_matches = (int)count;
    v->ui->search_index = (int)before;
    char a[32], b[32];
    view_say(v, 0, "match %s of %s%s%s", report_commas(before, a, sizeof a),
            report_commas(count, b, sizeof b), fold ? " (either case)" : "",
            wrapped ? (dir > 0 ? ", wrapped around the end" : ", wrapped around the start") : "");
}

/* The token under the cursor replaced by tok. */
static void edit_token(gt_view *v, int tok)
{
    char at[32];
    if (trace_token(v->tr, v->t) == tok) {
        view_say(v, 0, "step %s is already that %s; nothing changed",
                report_commas(v->t, at, sizeof at), model_step_noun(v->m));
        return;
    }
    gt_error e = {0};
    if (view_apply_edit(v, v->t, tok, &e)) {
        view_say(v, 1, "%s", e.msg);
        return;
    }
    if (!v->ui->msg_error) /* unless computing what depends on the edit failed */
        view_say(v, 0, "step %s edited; u undoes", report_commas(v->t, at, sizeof at));
}

/* The character typed after e. */
static void edit(gt_view *v, uint32_t cp)
{
    int tok = model_token(v->m, cp);
    char u[8] = "?";
    int n = utf8_encode(cp, u);
    u[n > 0 ? n : 1] = 0;
    if (tok < 0) {
        if (cp < 0x20)
            view_say(v, 1, "U+%04X is not in the vocabulary; nothing changed", (unsigned)cp);
        else
            view_say(v, 1, "'%s' is not in the vocabulary; nothing changed", u);
        return;
    }
    edit_token(v, tok);
}

static void close_prompt(gt_view *v)
{
    v->ui->input = INPUT_KEYS;
    v->ui->line.buf = NULL;
}

gt_act keys_prompt_key(gt_view *v, const gt_key *k)
{
    gt_input p = v->ui->input;
    if (k->sym == K_ESC || (k->ctrl && k->sym == K_CHAR && (k->cp == 'c' || k->cp == 'g'))) {
        close_prompt(v);
        return ACT_REDRAW;
    }
    const int words = p == INPUT_EDIT && v->m->words; /* a token typed at a prompt */
    if ((p == INPUT_EDIT && !words) || p == INPUT_NEWLINE) {
        if (k->sym == K_ENTER && p == INPUT_EDIT) { /* a newline only when asked twice */
            v->ui->input = INPUT_NEWLINE;
            return ACT_REDRAW;
        }
        uint32_t cp = k->sym == K_CHAR && !k->ctrl ? k->cp
                      : k->sym == K_ENTER          ? '\n'
                      : k->sym == K_TAB            ? '\t'
                                                   : UTF8_INVALID;
        if (cp == UTF8_INVALID)
            return ACT_NONE;
        close_prompt(v);
        edit(v, cp);
        return ACT_REDRAW;
    }
    if (!v->ui->line.buf) { /* a prompt opened with its line filled in (m) */
        prompt_start(&v->ui->line, v->ui->prompt, &v->ui->hist[p]);
        v->ui->line.pos = strlen(v->ui->prompt);
    }
    if (words && k->sym == K_TAB) {
        if (!keys_word_complete(v))
            view_say(v, 1, "no token of the vocabulary begins so");
        return ACT_REDRAW;
    }
    if (k->sym == K_ENTER) {
        prompt_remember(&v->ui->hist[p], v->ui->prompt);
        close_prompt(v);
        if (words) {
            const int tok = keys_word_token(v, v->ui->prompt);
            if (tok >= 0)
                edit_token(v, tok);
        } else if (p == INPUT_GOTO) {
            go_to(v, v->ui->prompt);
        } else if (p == INPUT_UNIT) {
            select_unit(v, v->ui->prompt);
        } else if (p == INPUT_MATCH) {
            keys_find_enter(v);
        } else {
            if (v->ui->prompt[0])
                snprintf(v->ui->search, sizeof v->ui->search, "%s", v->ui->prompt);
            v->find.last = FIND_LAST_SEARCH;
            search(v, 1);
        }
        return ACT_REDRAW;
    }
    return prompt_edit(&v->ui->line, k) ? ACT_REDRAW : ACT_NONE;
}

/* ---- the keys ---- */

static void change_layer(gt_view *v, int d)
{
    int L = v->m->layers;
    if (L == 1) {
        view_say(v, 0, "the model has one layer");
    } else if (v->layer + d < 0 || v->layer + d >= L) {
        view_say(v, 0, "layer %d is the %s (layers 0-%d)", v->layer, d > 0 ? "top" : "bottom",
                L - 1);
    } else {
        view_set_layer(v, v->layer + d);
        view_layer_chosen(v);
        if (v->ui->sort == SORT_IMPORTANCE && v->ivs)
            data_interv_want_importance(v->ivs, v->layer);
    }
}

static void open_prompt(gt_view *v, gt_input p)
{
    if (p == INPUT_EDIT && v->pending) {
        view_say(v, 1, "wait for the states to be computed (Esc stops)");
        return;
    }
    v->ui->input = p;
    prompt_start(&v->ui->line, v->ui->prompt, &v->ui->hist[p]);
}

static void undo(gt_view *v)
{
    char a[32], b[32];
    gt_edit ed;
    if (!view_undo(v, &ed)) {
        view_say(v, 0, "no edit to undo");
        return;
    }
    if (!v->ui->msg_error)
        view_say(v, 0, "undid the edit at step %s (%s left; Ctrl-R redoes)",
                report_commas(ed.step, a, sizeof a),
                report_commas(trace_edit_count(v->tr), b, sizeof b));
}

/* Ctrl-R: the last edit undone, made again. */
static void redo(gt_view *v)
{
    char at[32];
    if (!v->ui->nredo) {
        view_say(v, 0, "no undone edit to redo");
        return;
    }
    if (v->pending) {
        view_say(v, 1, "wait for the states to be computed (Esc stops)");
        return;
    }
    size_t step;
    gt_error e = {0};
    if (view_redo(v, &step, &e)) {
        view_say(v, 1, "%s", e.msg);
        return;
    }
    view_jump(v, step);
    if (!v->ui->msg_error)
        view_say(v, 0, "redid the edit at step %s (%d more to redo)",
                report_commas(step, at, sizeof at), v->ui->nredo);
}

/* E: the next edited step after the cursor, around the end. */
static void next_edit(gt_view *v)
{
    size_t n = trace_edit_count(v->tr), T = v->steps, at = v->t;
    if (!n) {
        view_say(v, 0, "no edit: e edits");
        return;
    }
    size_t s = trace_next_edited(v->tr, at + 1 < T ? at + 1 : T);
    if (s >= T)
        s = trace_next_edited(v->tr, 0);
    size_t k = 0, total = 0;
    for (size_t i = trace_next_edited(v->tr, 0); i < T; i = trace_next_edited(v->tr, i + 1)) {
        total++;
        k += i <= s;
    }
    view_jump(v, s);
    char a[32], b[32], c[32];
    view_say(v, 0, "edited step %s of %s: %s", report_commas(k, a, sizeof a),
            report_commas(total, b, sizeof b), report_commas(s, c, sizeof c));
}

/* The perturbation horizon K doubled (more) or halved. */
static void change_horizon(gt_view *v, int more)
{
    int K = v->ui->horizon, nk = more ? K * 2 : K / 2;
    if (nk < DATA_PERT_KMIN || nk > DATA_PERT_KMAX) {
        view_say(v, 0, "K is %d (%d-%d)", K, DATA_PERT_KMIN, DATA_PERT_KMAX);
        return;
    }
    /* the curves are computed again when the frame is prepared (view_prepare), once for
     * any number of + and - read together; every model's follow it (view_follow) */
    v->ui->horizon = nk;
    view_say(v, 0, "perturbation horizon K = %d", nk);
}

static void toggle_diff(gt_view *v)
{
    gt_error e = {0};
    if (view_set_diff(v, !v->ui->diff, &e)) /* no edit */
        view_say(v, 0, "%s", e.msg);
    else
        view_say(v, 0, v->ui->diff ? "gates and unit: edited - before the last edit (d: back)"
                              : "gates and unit: the text as edited");
}

static void write_text(gt_view *v)
{
    char name[300];
    gt_error e = {0};
    if (!trace_edit_count(v->tr))
        view_say(v, 0, "no edit: the text is as loaded");
    else if (export_text_to_cwd(v->tr, v->text_name, name, sizeof name, &e))
        view_say(v, 1, "writing the text failed: %.200s", e.msg);
    else {
        v->ui->written_gen = v->ui->edit_gen;
        char list[300];
        if (export_edits_to_cwd(v->tr, v->text_name, name, list, sizeof list, &e))
            view_say(v, 1, "edited text written to ./%s; its edits' list failed: %.150s", name,
                    e.msg);
        else
            view_say_kept(v, "edited text written to ./%s, its edits to ./%s", name, list);
    }
}

/* ---- interventions ---- */

/* After an intervention changed: everything computed again; what was done, and what is
 * changed now unless that says it again (`alone`: the interventions' words when what was
 * done is all there is). With a hypothesis the status line's delta (computing, then its
 * value) says it instead: a message would hide it until the next key. */
static void interventions_changed(gt_view *v, const char *did, const char *alone)
{
    view_model_changed(v);
    if (v->ui->msg_error)
        return;
    if (data_effect_applies(v->ivs, v->find.regex)) {
        v->ui->msg[0] = 0;
        return;
    }
    const char *what = v->ivs->what;
    if (!what[0] && !(alone && !alone[0]))
        view_say(v, 0, "%s; no interventions now", did);
    else if (alone && !strcmp(what, alone))
        view_say(v, 0, "%s", did);
    else
        view_say(v, 0, "%s; now %s", did, what);
}

static int have_interventions(gt_view *v)
{
    if (!v->ivs)
        view_say(v, 1, "interventions are not available here");
    return v->ivs != NULL;
}

/* < > (the layer) and { } (the selected unit): the carry gate's bias by d. */
static void shift_bias(gt_view *v, int unit, double d)
{
    if (!have_interventions(v))
        return;
    if (v->m->cell->carry < 0) {
        view_say(v, 1, "a %s has no carry gate (no forget or update gate) whose bias to shift",
                 v->m->cell->noun);
        return;
    }
    iv_shift(&v->ivs->iv, v->layer, unit, d);
    char did[96], alone[96];
    if (unit < 0) {
        snprintf(did, sizeof did, "forget bias of layer %d %+g", v->layer, d);
        snprintf(alone, sizeof alone, "forget bias %+g@%d", d, v->layer);
    } else {
        snprintf(did, sizeof did, "forget bias of unit %d %+g", unit, d);
        snprintf(alone, sizeof alone, "forget bias %+g@%d:%d", d, v->layer, unit);
    }
    interventions_changed(v, did, alone);
}

static void toggle_ablate(gt_view *v)
{
    if (!have_interventions(v))
        return;
    iv_toggle_ablate(&v->ivs->iv, v->layer, v->unit);
    int on = iv_ablated(&v->ivs->iv, v->layer, v->unit);
    char did[64], alone[64];
    snprintf(did, sizeof did, "unit %d %s", v->unit, on ? "ablated" : "back");
    snprintf(alone, sizeof alone, "ablated %d:%d", v->layer, v->unit);
    interventions_changed(v, did, on ? alone : NULL);
}

static void toggle_carousel(gt_view *v)
{
    if (!have_interventions(v))
        return;
    if (!iv_toggle_carousel(&v->ivs->iv, v->layer)) {
        view_say(v, 1, "a %s has no forget gate to hold at 1: the carousel is an LSTM's",
                 v->m->cell->noun);
        return;
    }
    char did[64], alone[32];
    snprintf(did, sizeof did, "carousel on layer %d %s", v->layer,
             v->ivs->iv.carousel[v->layer] ? "on (f = 1)" : "off");
    snprintf(alone, sizeof alone, "carousel@%d", v->layer);
    interventions_changed(v, did, v->ivs->iv.carousel[v->layer] ? alone : NULL);
}

/* Z: every model's interventions (another model may hold some the shown one cannot take,
 * on units or layers it lacks: doc/screen.md, "Interventions"). */
static void clear_interventions(gt_view *v)
{
    if (!have_interventions(v))
        return;
    const int n = v->peers ? v->npeers : 1;
    int any = 0;
    for (int k = 0; k < n; k++) {
        gt_view *o = v->peers ? &v->peers[k] : v;
        any |= o->ivs && iv_any(&o->ivs->iv);
    }
    if (!any) {
        view_say(v, 0, "no interventions to remove");
        return;
    }
    for (int k = 0; k < n; k++) {
        gt_view *o = v->peers ? &v->peers[k] : v;
        if (o != v && o->ivs && iv_any(&o->ivs->iv)) {
            iv_clear(&o->ivs->iv);
            view_model_changed(o);
        }
    }
    iv_clear(&v->ivs->iv);
    interventions_changed(v, n > 1 ? "every model's interventions removed"
                                   : "every intervention removed", "");
}

void keys_set_sort(gt_view *v, gt_sort o)
{
    v->ui->sort = o;
    if (v->ui->sort == SORT_MEAN) {
        data_stats_want(&v->stats, v->layer);
        if (!data_stats_units(&v->stats, v->layer))
            view_say(v, 0, "the mean carry gate over the report's windows is computed in the background");
    }
    if (v->ui->sort == SORT_IMPORTANCE && v->ivs) {
        data_interv_want_importance(v->ivs, v->layer);
        if (!v->ivs->imp_known && data_interv_importance_busy(v->ivs))
            view_say(v, 0, "each unit's importance is computed in the background");
    }
}

/* The next (dir > 0) or previous match of the last select or regular expression when
 * there is one, else of the last search. */
static void next_match(gt_view *v, int dir)
{
    if (!keys_find_jump(v, dir))
        search(v, dir);
}

/* M a, 'a and '': marks and going back, the key after M or '. */
gt_act keys_mark_pending(gt_view *v, const gt_key *k)
{
    const gt_input was = v->ui->input;
    v->ui->input = INPUT_KEYS;
    const int letter = k->sym == K_CHAR && !k->ctrl && k->cp >= 'a' && k->cp <= 'z';
    if (was == INPUT_MARK) { /* M a: mark the cursor's step as a */
        if (!letter) {
            view_say(v, 0, "no mark set (M wants a letter a-z)");
            return ACT_REDRAW;
        }
        v->ui->mark[k->cp - 'a'] = v->t + 1;
        char at[32];
        view_say(v, 0, "mark %c at step %s ('%c goes back to it)", (char)k->cp,
                report_commas(v->t, at, sizeof at), (char)k->cp);
        return ACT_REDRAW;
    }
    if (letter) { /* 'a: to mark a */
        if (!v->ui->mark[k->cp - 'a'])
            view_say(v, 1, "mark %c is not set (M%c sets it)", (char)k->cp, (char)k->cp);
        else
            view_jump(v, v->ui->mark[k->cp - 'a'] - 1);
        return ACT_REDRAW;
    }
    if (!(k->sym == K_CHAR && !k->ctrl && k->cp == '\'')) {
        view_say(v, 0, "no jump made (' wants ' or a letter a-z)");
        return ACT_REDRAW;
    }
    if (!v->ui->have_prev) /* '': back to where the cursor was before the jump */
        view_say(v, 0, "no jump yet to go back from");
    else
        view_jump(v, v->ui->prev_t);
    return ACT_REDRAW;
}


/* ---- the handlers of the key table's lines (keys_table.c) ---- */

void keys_begin(gt_view *v)
{
    v->ui->msg[0] = 0;
    v->ui->msg_error = 0;
    v->ui->msg_kept = 0;
    v->ui->quit_asked = 0;
}

gt_act keys_step(gt_view *v, int d)
{
    view_step(v, d);
    return ACT_REDRAW;
}

gt_act keys_page(gt_view *v, int d)
{
    view_step(v, d * (long)page_len(v));
    return ACT_REDRAW;
}

gt_act keys_ends(gt_view *v, int which)
{
    if (which == KEYS_ZERO)
        view_seek(v, 0);
    else
        view_jump(v, which == KEYS_HOME ? 0 : v->steps - 1);
    return ACT_REDRAW;
}

/* The strip scrolled d rows on (back when d < 0), the cursor staying. */
gt_act keys_scroll_text(gt_view *v, int d)
{
    long to = v->ui->strip_scroll + d;
    v->ui->strip_scroll = to > 200 ? 200 : to < -200 ? -200 : to;
    return ACT_REDRAW;
}

/* M (KEYS_MARK) or ': the key after it is awaited, and said. */
gt_act keys_mark(gt_view *v, int which)
{
    if (which != KEYS_MARK) {
        v->ui->input = INPUT_QUOTE;
        view_say(v, 0, "' then ' goes back to the step before the last jump, a letter to its mark");
        return ACT_REDRAW;
    }
    v->ui->input = INPUT_MARK;
    view_say(v, 0, "M then a letter a-z marks this step (' and the letter come back to it)");
    return ACT_REDRAW;
}

/* The unit d ranks on in the order shown (KEYS_PAGE: a page of the gate panel). */
gt_act keys_unit(gt_view *v, int d)
{
    const int page = view_units_per_page(v);
    select_rank(v, v->rank + (d == KEYS_PAGE ? page : d == -KEYS_PAGE ? -page : d));
    return ACT_REDRAW;
}

gt_act keys_unit_ends(gt_view *v, int which)
{
    if (which == KEYS_BY_NUMBER)
        open_prompt(v, INPUT_UNIT);
    else
        select_rank(v, which == KEYS_FIRST ? 0 : model_width(v->m, v->layer) - 1);
    return ACT_REDRAW;
}

gt_act keys_sort(gt_view *v, int which)
{
    if (which == KEYS_PICK) {
        v->ui->input = INPUT_ORDER;
        const gt_celltype *cl = v->m->cell;
        view_say(v, 0, "order? i index, %s%s%sc |%s|, d |%s%s|, p importance%s",
                 cl->carry < 0 ? "" : "g ", cl->carry < 0 ? "" : cl->carry_word,
                 cl->carry < 0 ? "" : " gate, m its mean, ", cl->carried, v->utf8 ? "Δ" : "d",
                 cl->carried, data_find_has_r(&v->find, v->layer) ? ", r |r|" : "");
    } else if (which == KEYS_NEXT) {
        keys_set_sort(v, keys_find_next_sort(v));
    } else {
        v->ui->sort_reverse = !v->ui->sort_reverse;
    }
    return ACT_REDRAW;
}

gt_act keys_sort_pick(gt_view *v, const gt_key *k)
{
    static const char keys[] = "igmcdpr";
    static const gt_sort order[] = {SORT_INDEX, SORT_CARRY, SORT_MEAN, SORT_ABSC,
                                    SORT_CHANGE, SORT_IMPORTANCE, SORT_R};
    v->ui->input = INPUT_KEYS;
    const char *at = k->sym == K_CHAR && !k->ctrl && k->cp > 0 && k->cp < 0x80
                         ? strchr(keys, (int)k->cp) : NULL;
    if (!at) {
        view_say(v, 0, "no order chosen: the units stay in theirs");
        return ACT_REDRAW;
    }
    gt_sort o = order[at - keys];
    if (o == SORT_R && !data_find_has_r(&v->find, v->layer)) {
        view_say(v, 1, "no |r| on this layer: m matches a regular expression first");
        return ACT_REDRAW;
    }
    if ((o == SORT_CARRY || o == SORT_MEAN) && v->m->cell->carry < 0) {
        view_say(v, 1, "a %s has no carry gate to sort by: the units stay in their order",
                 v->m->cell->noun);
        return ACT_REDRAW;
    }
    v->ui->msg[0] = 0;
    keys_set_sort(v, o);
    return ACT_REDRAW;
}

gt_act keys_layer(gt_view *v, int d)
{
    change_layer(v, d);
    return ACT_REDRAW;
}

/* c (KEYS_UNIT_SIGNALS): by the selected unit's signals in turn, then off. P: in turn by
 * the hypothesis's probe (when there is one), the signal's principal components
 * 1..DATA_COMP_K, off. */
gt_act keys_colour(gt_view *v, int which)
{
    int *heat = &v->ui->heat;
    if (which == KEYS_UNIT_SIGNALS) {
        if (*heat != HEAT_UNIT)
            *heat = HEAT_UNIT, v->ui->heat_pos = 0;
        else if (view_heat_signal(v->m, ++v->ui->heat_pos) < 0)
            *heat = HEAT_OFF;
        return ACT_REDRAW;
    }
    if (*heat < HEAT_PROBE)
        *heat = v->find.hyp_state == FIND_KNOWN ? HEAT_PROBE : HEAT_COMP;
    else if (*heat < HEAT_COMP + DATA_COMP_K - 1)
        (*heat)++;
    else
        *heat = HEAT_OFF;
    if (*heat >= HEAT_COMP)
        view_say(v, 0, "the text coloured by principal component %d of %s (P: the next)",
                 *heat - HEAT_COMP + 1, data_find_signal_name(&v->find));
    return ACT_REDRAW;
}

gt_act keys_go_to(gt_view *v, int arg)
{
    (void)arg;
    open_prompt(v, INPUT_GOTO);
    return ACT_REDRAW;
}

/* / (0): the search prompt; n (1), N (-1): the next, the previous hit. */
gt_act keys_search(gt_view *v, int dir)
{
    if (!dir)
        open_prompt(v, INPUT_SEARCH);
    else
        next_match(v, dir);
    return ACT_REDRAW;
}

gt_act keys_edit(gt_view *v, int arg)
{
    (void)arg;
    open_prompt(v, INPUT_EDIT);
    return ACT_REDRAW;
}

/* u (0): undo; Ctrl-R (KEYS_REDO): redo. */
gt_act keys_undo(gt_view *v, int which)
{
    if (which == KEYS_REDO)
        redo(v);
    else
        undo(v);
    return ACT_REDRAW;
}

gt_act keys_next_edit(gt_view *v, int arg)
{
    (void)arg;
    next_edit(v);
    return ACT_REDRAW;
}

/* + (1) doubles the perturbation horizon K, - (-1) halves it. */
gt_act keys_horizon(gt_view *v, int d)
{
    change_horizon(v, d > 0);
    return ACT_REDRAW;
}

/* A: the perturbation of every edit at once against the text as loaded, or of the last
 * edit alone; every model's curves follow when the frame is prepared (view_prepare). */
gt_act keys_pert_all(gt_view *v, int arg)
{
    (void)arg;
    v->ui->pert_all = !v->ui->pert_all;
    view_say(v, 0, v->ui->pert_all ? "perturbation: every edit against the text as loaded (A: "
                                     "the last edit)"
                                   : "perturbation: the last edit against the text before it");
    return ACT_REDRAW;
}

/* ( (-1) ) (1): the k the ratio measured / forget-only is read at, halved or doubled; at K
 * again it follows K. */
gt_act keys_ratio_k(gt_view *v, int d)
{
    const int K = v->ui->horizon;
    int at = v->ui->ratio_k ? v->ui->ratio_k : K;
    at = d < 0 ? (at > 1 ? at / 2 : 1) : at * 2;
    v->ui->ratio_k = at >= K ? 0 : at;
    if (v->ui->ratio_k)
        view_say(v, 0, "the ratio measured / forget-only read at k = %d (( ) halve, double)",
                 v->ui->ratio_k);
    else
        view_say(v, 0, "the ratio measured / forget-only read at K = %d, as K changes", K);
    return ACT_REDRAW;
}

gt_act keys_difference(gt_view *v, int arg)
{
    (void)arg;
    toggle_diff(v);
    return ACT_REDRAW;
}

gt_act keys_figure(gt_view *v, int arg)
{
    (void)arg;
    char name[300], a[32], b[32];
    size_t from, to;
    gt_error e = {0};
    if (v->pending)
        view_say(v, 1, "wait for the states to be computed (Esc stops)");
    else if (export_figure_to_cwd(v, name, sizeof name, &from, &to, &e))
        view_say(v, 1, "the figure failed: %.200s", e.msg);
    else
        view_say_kept(v, "./%s written: the figure of unit %d, steps %s to %s", name, v->unit,
                 report_commas(from, a, sizeof a), report_commas(to, b, sizeof b));
    return ACT_REDRAW;
}

/* F: the figure for a paper of what is shown (export_paper.h): the unit table's half-lives
 * (U), the models' reports side by side (r, several models; one model's unit table), or
 * the perturbation panel's edit. */
gt_act keys_paper(gt_view *v, int arg)
{
    (void)arg;
    static const char *const kind[3] = {"perturbation", "half-lives", "models'"};
    const gt_sheet *up = v->ui->sheet;
    char name[300];
    gt_error e = {0};
    gt_paper which = PAPER_PERTURBATION;
    if (up == &sheet_units || (up == &sheet_report && v->npeers < 2))
        which = PAPER_HALFLIVES;
    else if (up == &sheet_report)
        which = PAPER_CHECKPOINTS;
    if (up && up != &sheet_units && up != &sheet_report)
        view_say(v, 1, "no figure of %s: the perturbation's edit (the panels), the unit table "
                       "(U) or the report (r) have one", up->name);
    else if (export_paper(v, which, name, sizeof name, &e))
        view_say(v, 1, "the figure: %.200s", e.msg);
    else
        view_say_kept(v, "./%s written: the %s figure, its numbers in ./%s.csv", name,
                 kind[which], name); /* the name first: a narrow status line keeps it */
    return ACT_REDRAW;
}

gt_act keys_write(gt_view *v, int arg)
{
    (void)arg;
    write_text(v);
    return ACT_REDRAW;
}

/* W: the session to a file (keys_handle_models writes it: it knows every model). */
gt_act keys_session(gt_view *v, int arg)
{
    (void)v;
    (void)arg;
    return ACT_SESSION;
}

/* b: every model's curves of the edit shown kept, the next edit's drawn beside them; again:
 * let go. */
gt_act keys_pin(gt_view *v, int arg)
{
    (void)arg;
    const int n = v->peers ? v->npeers : 1;
    char at[32];
    if (v->pin.valid) {
        for (int k = 0; k < n; k++)
            data_pert_unpin(&(v->peers ? &v->peers[k] : v)->pin);
        view_say(v, 0, "the pinned curves let go (b pins the edit shown)");
        return ACT_REDRAW;
    }
    if (!trace_edit_count(v->tr) || !v->pert.valid) {
        view_say(v, 0, "no edit's curves to pin: e edits");
        return ACT_REDRAW;
    }
    gt_error e = {0};
    for (int k = 0; k < n; k++) {
        gt_view *o = v->peers ? &v->peers[k] : v;
        if (o->pert.valid &&
            data_pert_pin(&o->pin, &o->pert, o->ivs ? o->ivs->what : "", &e)) {
            view_say(v, 1, "%s", e.msg);
            return ACT_REDRAW;
        }
    }
    view_say(v, 0, "step %s's curves pinned: the next edit's are drawn beside them (b lets go)",
             report_commas(v->pin.step, at, sizeof at));
    return ACT_REDRAW;
}

/* < (-1) > (1): the layer's forget bias; { (-2) } (2): the selected unit's. */
gt_act keys_bias(gt_view *v, int which)
{
    const int unit = which == -1 || which == 1 ? -1 : v->unit;
    shift_bias(v, unit, which > 0 ? 0.5 : -0.5);
    return ACT_REDRAW;
}

/* a (0): ablate the selected unit; C (KEYS_CAROUSEL): the carousel. */
gt_act keys_ablate(gt_view *v, int which)
{
    if (which == KEYS_CAROUSEL)
        toggle_carousel(v);
    else
        toggle_ablate(v);
    return ACT_REDRAW;
}

gt_act keys_clear_interventions(gt_view *v, int arg)
{
    (void)arg;
    clear_interventions(v);
    return ACT_REDRAW;
}

/* x: the frame, once drawn and nothing it shows is still being computed (the screen's
 * loop: ui.c; doc/screen.md, "Exporting"). */
gt_act keys_export(gt_view *v, int arg)
{
    (void)v;
    (void)arg;
    return ACT_EXPORT;
}

gt_act keys_escape(gt_view *v, int arg)
{
    (void)arg;
    if (v->find.selecting) { /* the selection cancelled, nothing stopped */
        keys_find_escape(v);
        return ACT_REDRAW;
    }
    int stopped = data_effect_stop(&v->effect);
    stopped |= data_carriers_stop(&v->carriers);
    if (stopped) /* the effect or the carriers first: m v p's next */
        view_say(v, 0, "stopped");
    else if (!keys_find_escape(v) && (v->pending || trace_pass_running(v->tr)))
        view_cancel_pass(v);
    return ACT_REDRAW;
}

gt_act keys_redraw(gt_view *v, int arg)
{
    (void)v;
    (void)arg;
    return ACT_REDRAW;
}

gt_act keys_help_open(gt_view *v, int arg)
{
    (void)arg;
    v->ui->input = INPUT_HELP;
    v->ui->help_scroll = 0;
    return ACT_REDRAW;
}

/* q (KEYS_ASK) and Ctrl-C (KEYS_NOW) quit, but ask again first while edits are not
 * written (either again quits): Ctrl-C at once threw them away. */
gt_act keys_quit(gt_view *v, int which)
{
    (void)which;
    if (trace_edit_count(v->tr) && v->ui->edit_gen != v->ui->written_gen &&
        !v->ui->quit_asked) {
        v->ui->quit_asked = 1;
        view_say(v, 1, "the edits are not written: q or Ctrl-C again quits, w writes them");
        return ACT_REDRAW;
    }
    return ACT_QUIT;
}
