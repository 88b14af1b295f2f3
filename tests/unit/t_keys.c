/* Keys without a terminal: the bytes a terminal sends go through libtermkey
 * (termkey_new_abstract + termkey_push_bytes) and ui_translate_key, then keys_handle acts on
 * a view of a small two-layer model: stepping, paging, units, sorting, layers, the go-to,
 * search and edit prompts, undo, the report's and the derivative's sheets, help, export and
 * quit. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/unittable.h"
#include "screen/edtext.h"
#include "screen/data_jac.h"
#include "screen/frame.h"
#include "screen/panel_frame.h"
#include "screen/keys.h"
#include "term/ui.h"
#include "screen/view.h"
#include "screen/sheets.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"
#include "screen/sheet_derivative.h"
#include "screen/sheet_profile.h"
#include "gatetui/importance.h"
#include "gatetui/intervene.h"
#include "gatetui/dynamics.h"
#include "gatetui/jacobian.h"
#include "gatetui/run.h"
#include "gatetui/perturb.h"
#include "gatetui/report.h"
#include "gatetui/trace.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

static TermKey *tk;

/* The one key (or mouse event) the bytes make. */
static int key_of(const char *bytes, gt_key *k)
{
    termkey_push_bytes(tk, bytes, strlen(bytes));
    TermKeyKey key;
    TermKeyResult r = termkey_getkey(tk, &key);
    if (r == TERMKEY_RES_AGAIN)
        r = termkey_getkey_force(tk, &key);
    if (r != TERMKEY_RES_KEY)
        return 0;
    return key.type == TERMKEY_TYPE_MOUSE ? ui_translate_mouse(tk, &key, k)
                                          : ui_translate_key(&key, k);
}

static gt_act press(gt_view *v, const char *bytes)
{
    gt_key k;
    if (!key_of(bytes, &k))
        return (gt_act)-1;
    gt_act a = keys_handle(v, &k);
    gt_error e = {0};
    view_prepare(v, 120, 40, &e);
    return a;
}

/* The derivative at the cursor against the Jacobian computed straight from a float32
 * run of the text from its start (to T - K) on layer 1: the same numbers, bit for bit. */
static int same_as_direct(const gt_view *v, const gt_model *m, const uint16_t *tok)
{
    const gt_data_jac *jv = &sheet_derivative_data(v)->jac;
    const int K = jv->K;
    gt_error e;
    gt_run r;
    gt_jacobian j;
    if (!jv->valid || K < 1 || run_init(&r, m, &e))
        return 0;
    for (size_t s = 0; s < v->t - (size_t)K; s++)
        run_step(&r, tok[s]);
    int same = jacobian_init(&j, m, v->layer, K, 0, &e) == 0 &&
               jacobian_run(&j, r.h, r.c, tok + v->t - K, K, &e) == 0;
    for (int k = 1; same && k <= K; k++) {
        gt_jacobian_lag l;
        jacobian_lag(&j, k, v->unit, &l);
        same = l.frob == jv->lag[k - 1].frob && l.diag == jv->lag[k - 1].diag &&
               l.carry == jv->lag[k - 1].carry && jv->lag[k - 1].k == k;
    }
    jacobian_free(&j);
    run_free(&r);
    return same;
}

/* The tests' LSTM: 4 units, two layers (or the first alone), a readout. Returns 0. */
static int write_model_layers(const char *path, const char *vocab, int layers)
{
    enum { V = 5, D = 3, H = 4, G = 4 };
    static float w[4096];
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        w[i] = (float)((int)(i * 37 % 23) - 11) / 15.0f;
    stw_tensor t[] = {
        {"embedding.weight", V, D, w},           {"lstm.weight_ih_l0", G * H, D, w + 100},
        {"lstm.weight_hh_l0", G * H, H, w + 200}, {"lstm.bias_ih_l0", G * H, 0, w + 300},
        {"lstm.bias_hh_l0", G * H, 0, w + 400},   {"fc.weight", V, H, w + 900},
        {"fc.bias", V, 0, w + 1000},              {"lstm.weight_ih_l1", G * H, H, w + 500},
        {"lstm.weight_hh_l1", G * H, H, w + 600}, {"lstm.bias_ih_l1", G * H, 0, w + 700},
        {"lstm.bias_hh_l1", G * H, 0, w + 800},
    };
    const char *meta[] = {"vocab", vocab};
    return stw_write(path, t, layers > 1 ? (int)(sizeof t / sizeof t[0]) : 7, meta, 1);
}

static void write_model(const char *path, const char *vocab)
{
    write_model_layers(path, vocab, 2);
}

/* A GRU of the tests' LSTM's vocabulary, wider (6 units): one layer, a readout. Returns 0. */
static int write_gru(const char *path, const char *vocab)
{
    enum { V = 5, D = 3, H = 6, G = 3 };
    static float w[2048];
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        w[i] = (float)((int)(i * 29 % 19) - 9) / 13.0f;
    stw_tensor t[] = {
        {"embedding.weight", V, D, w},          {"gru.weight_ih_l0", G * H, D, w + 100},
        {"gru.weight_hh_l0", G * H, H, w + 200}, {"gru.bias_ih_l0", G * H, 0, w + 300},
        {"gru.bias_hh_l0", G * H, 0, w + 400},   {"fc.weight", V, H, w + 500},
        {"fc.bias", V, 0, w + 600},
    };
    const char *meta[] = {"vocab", vocab};
    return stw_write(path, t, (int)(sizeof t / sizeof t[0]), meta, 1);
}

static void test_translation(void)
{
    static const struct {
        const char *bytes, *name;
        gt_keysym sym;
        uint32_t cp;
        int ctrl;
    } cases[] = {
        {"\x1b[C", "right arrow", K_RIGHT, 0, 0}, {"\x1b[D", "left arrow", K_LEFT, 0, 0},
        {"\x1b[A", "up arrow", K_UP, 0, 0},       {"\x1b[B", "down arrow", K_DOWN, 0, 0},
        {"\x1b[5~", "PgUp", K_PGUP, 0, 0},        {"\x1b[6~", "PgDn", K_PGDN, 0, 0},
        {"\x1b[H", "Home", K_HOME, 0, 0},         {"\x1b[F", "End", K_END, 0, 0},
        {"\r", "Enter", K_ENTER, 0, 0},           {"\x7f", "Backspace", K_BACKSPACE, 0, 0},
        {"\x1b", "a lone Esc", K_ESC, 0, 0},      {"l", "l", K_CHAR, 'l', 0},
        {"]", "]", K_CHAR, ']', 0},               {"\x03", "Ctrl-C", K_CHAR, 'c', 1},
        {"\xc3\xa9", "é (UTF-8)", K_CHAR, 0xE9, 0}, {" ", "Space", K_CHAR, ' ', 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gt_key k;
        int ok = key_of(cases[i].bytes, &k) && k.sym == cases[i].sym &&
                 (cases[i].sym != K_CHAR || k.cp == cases[i].cp) && k.ctrl == cases[i].ctrl;
        tap_ok(ok, "%s is read as the right key", cases[i].name);
    }
}

/* Each byte of keys as one key (ASCII, Enter and a lone Esc). */
static void press_each(gt_view *v, const char *keys)
{
    for (const char *p = keys; *p; p++) {
        char one[2] = {*p, 0};
        press(v, one);
    }
}

static void test_moving(gt_view *v)
{
    size_t T = v->steps;
    press(v, "\x1b[C");
    press(v, "l");
    tap_ok(v->t == 2, "right arrow and l: step 2");
    press(v, "\x1b[D");
    press_each(v, "hh");
    tap_ok(v->t == 0, "left arrow and h, and no step before 0");
    press(v, "\x1b[F");
    tap_ok(v->t == T - 1, "End: the last step");
    press(v, "l");
    tap_ok(v->t == T - 1, "no step after the last");
    press(v, "\x1b[H");
    tap_ok(v->t == 0, "Home: step 0");
    press(v, "\x1b[6~");
    tap_ok(v->t == T - 1, "PgDn: a page (past the end of a short text: the last step)");
    press(v, "\x1b[5~");
    tap_ok(v->t == 0, "PgUp: back a page");
}

static void test_units(gt_view *v)
{
    const int H = v->m->hidden_max;
    press(v, "j");
    press(v, "\x1b[B");
    tap_ok(v->unit == 2, "j and the down arrow select unit 2");
    press(v, "k");
    tap_ok(v->unit == 1, "k selects unit 1");
    press(v, "J");
    tap_ok(v->unit == 3, "J: a page of units (to the last)");
    press(v, "s");
    tap_ok(v->ui->sort == SORT_CARRY && v->order[v->rank] == v->unit, "s sorts by the carry gate");
    int sorted = 1;
    const float *f = v->g + H;
    for (int i = 1; i < H; i++)
        sorted &= f[v->order[i - 1]] >= f[v->order[i]];
    tap_ok(sorted, "units in decreasing forget gate");
    press(v, "S");
    sorted = 1;
    for (int i = 1; i < H; i++)
        sorted &= f[v->order[i - 1]] <= f[v->order[i]];
    tap_ok(v->ui->sort_reverse && sorted, "S reverses the order");
    for (int i = 0; i < SORT_COUNT - 1; i++)
        press(v, "s");
    tap_ok(v->ui->sort == SORT_INDEX, "s cycles through the %d orders", SORT_COUNT);
    press(v, "S");

    press(v, "]");
    tap_ok(v->layer == 1, "] layer 1");
    press(v, "]");
    tap_ok(v->layer == 1 && strstr(v->ui->msg, "top"), "] at the top layer: a message");
    press(v, "[");
    tap_ok(v->layer == 0, "[ layer 0");
}

static void test_prompts(gt_view *v)
{
    press_each(v, "g10\r");
    tap_ok(v->t == 10 && v->ui->input == INPUT_KEYS, "g 10 Enter: step 10");
    press_each(v, "gx\r");
    tap_ok(v->t == 10 && v->ui->msg_error, "g x: an error message, no move");
    press_each(v, "g5\x1b");
    tap_ok(v->t == 10 && v->ui->input == INPUT_KEYS, "Esc cancels the prompt");
    press_each(v, "gend\r");
    tap_ok(v->t == v->steps - 1, "g end: the last step");

    press(v, "\x1b[H");
    press_each(v, "/cab\r");
    tap_ok(v->t == 17, "/cab Enter finds step 17");
    press(v, "n");
    tap_ok(v->t == 23, "n: the next match (23)");
    press(v, "n");
    tap_ok(v->t == 17 && strstr(v->ui->msg, "wrapped"), "n again wraps around to 17");
    press(v, "N");
    tap_ok(v->t == 23, "N: the previous match, wrapping back (23)");
}

/* ( ): the ratio measured / forget-only read at a quarter of K, then back at K. */
static void test_ratio_k(gt_view *v)
{
    gt_error e = {0};
    trace_edit(v->tr, 3, (trace_token(v->tr, 3) + 1) % v->m->vocab, &e);
    view_edits_changed(v);
    const int K = v->ui->horizon;
    press_each(v, "(("); /* a quarter of K: inside the curves of this short text */
    int k_at;
    const double r = data_pert_ratio(&v->pert, v->ui->ratio_k, &k_at);
    const double *mc = v->pert.lstm ? v->pert.r.dc : v->pert.r.dh;
    gt_surface sf;
    int shown = 0;
    char want[32];
    snprintf(want, sizeof want, "F(%d)", k_at);
    if (surf_init(&sf, 120, 40, 1) == 0) {
        frame_draw(&sf, v);
        const gt_rect pr = v->lay.r[P_PERTURB];
        for (int y = pr.y; y < pr.y + pr.h && !shown; y++) {
            char row[1024];
            surf_row_text(&sf, y, row, sizeof row);
            shown = strstr(row, want) != NULL;
        }
        surf_free(&sf);
    }
    tap_ok(v->ui->ratio_k == K / 4 && k_at >= 1 && k_at <= K / 4 && v->pert.r.K > K / 4 &&
               r == mc[k_at] / v->pert.r.fo[k_at] && shown,
           "( reads the ratio at k = %d, not K = %d (%s %.3g)", k_at, K, want, r);
    press_each(v, "))");
    tap_ok(v->ui->ratio_k == 0 && strstr(v->ui->msg, "as K changes"),
           ") back at K: the ratio follows K again");
    while (trace_undo(v->tr, NULL))
        ;
    view_edits_changed(v);
}

/* The page the file `name` holds, in page (empty when there is none). */
static void read_page(const char *name, char *page, size_t cap)
{
    FILE *f = fopen(name, "r");
    size_t n = f ? fread(page, 1, cap - 1, f) : 0;
    page[n] = 0;
    if (f)
        fclose(f);
}

/* X: the HTML figure of the selected unit around the cursor, in the signal the text is
 * coloured by, each step's title its value from the trace; named after the text and the
 * model, never over a file; after an edit "-edited", the edited character outlined with
 * what it was, counted in the caption. */
static void test_figure(gt_view *v)
{
    gt_error e = {0};
    v->ui->heat = HEAT_UNIT;
    v->ui->heat_pos = 3; /* f of an LSTM */
    view_seek(v, 10);
    view_prepare(v, 120, 40, &e);
    press(v, "X");
    char want[96], name[64];
    snprintf(name, sizeof name, "t-m-unit%d-f.html", v->unit);
    snprintf(want, sizeof want, "title=\"step 10: f %.4f\"",
             trace_gates(v->tr, 10, v->layer)[(size_t)v->m->hidden_max + (size_t)v->unit]);
    static char page[1 << 20];
    read_page(name, page, sizeof page);
    tap_ok(strstr(v->ui->msg, name) && strstr(page, want) && strstr(page, "title=\"step 0: f ") &&
               !strstr(page, " ed\"") && !strstr(page, "as edited"),
           "X writes the figure of unit %d in f around step 10 (%s), each title the trace's value",
           v->unit, name);
    press(v, "X");
    char second[64];
    snprintf(second, sizeof second, "t-m-unit%d-f-2.html", v->unit);
    tap_ok(access(second, F_OK) == 0, "X again: %s, not over the first", second);
    unlink(name);
    unlink(second);
    /* an edit at step 3 (' ' of "abc abc" to 'c') */
    view_apply_edit(v, 3, model_token(v->m, 'c'), &e);
    view_prepare(v, 120, 40, &e);
    press(v, "X");
    snprintf(name, sizeof name, "t-m-unit%d-f-edited.html", v->unit);
    read_page(name, page, sizeof page);
    tap_ok(strstr(v->ui->msg, name) && strstr(page, "class=\"p") &&
               strstr(page, ", edited, was ' '\">c</span>") && strstr(page, " ed\" title=\"step 3:") &&
               strstr(page, "1 character differs from the text's own, each outlined"),
           "X after an edit: %s, the edited character outlined, its title saying what it was, "
           "the caption counting it", name);
    unlink(name);
    gt_edit undone;
    view_undo(v, &undone);
    v->ui->heat = HEAT_OFF;
}

/* A: the perturbation of every edit at once against the text as loaded, from the first
 * edited step, as perturb_one computes it here; A again: the last edit's. */
static void test_all_edits(gt_view *v)
{
    gt_trace *tr = v->tr;
    const gt_model *m = v->m;
    gt_error e = {0};
    const size_t a = 3, b = 6;
    trace_edit(tr, a, (trace_token(tr, a) + 1) % m->vocab, &e);
    trace_edit(tr, b, (trace_token(tr, b) + 1) % m->vocab, &e);
    view_edits_changed(v);
    view_prepare(v, 120, 40, &e); /* the curves, computed with the frame */
    const int last_step = (int)v->pert.step;
    press(v, "A");
    const size_t K = (size_t)v->pert.r.K, n = K + 1;
    uint16_t orig[128], now[128];
    float h0[64], c0[64];
    gt_perturb p;
    int same = v->pert.valid && v->pert.all && v->pert.step == a && v->pert.nedits == 2 &&
               n <= 128 && (size_t)(m->layers * m->hidden_max) <= 64 &&
               perturb_init(&p, m, 0, (int)K, 1, &e) == GT_OK;
    if (same) {
        for (size_t i = 0; i < n; i++) {
            orig[i] = (uint16_t)trace_original_at(tr, a + i);
            now[i] = (uint16_t)trace_token(tr, a + i);
        }
        trace_state_before(tr, a, h0, c0, &e);
        const gt_perturb_result *r = perturb_one(&p, h0, c0, orig, now, n);
        for (size_t k = 0; r && same && k <= K; k++)
            same = r->dc[k] == v->pert.r.dc[k] && r->dh[k] == v->pert.r.dh[k];
        same = same && r;
        perturb_free(&p);
    }
    tap_ok(same && strstr(v->ui->msg, "every edit"),
           "A: the perturbation of both edits (steps 3 and 6) against the text as loaded, "
           "from step 3, as computed here");
    press(v, "A");
    tap_ok(!v->pert.all && (int)v->pert.step == last_step && last_step == (int)b,
           "A again: the last edit's (step 6)");
    while (trace_undo(tr, NULL))
        ;
    view_edits_changed(v);
}

/* An edit, its curves and horizon, the difference, writing the text; a second edit and
 * the undos. */
static void test_edits(gt_view *v)
{
    gt_trace *tr = v->tr;
    const gt_model *m = v->m;
    press_each(v, "ez");
    tap_ok(trace_edit_count(tr) == 0 && v->ui->msg_error, "e z: not in the vocabulary, refused");
    tap_ok(!v->pert.valid, "no edit: no perturbation curves");
    press(v, "d");
    tap_ok(!v->ui->diff && strstr(v->ui->msg, "no edit"), "d without an edit: nothing to compare, says so");
    tap_ok(press(v, "w") == ACT_REDRAW && access("t-edited.txt", F_OK) != 0 &&
               strstr(v->ui->msg, "no edit"),
           "w without an edit writes nothing");
    size_t at = v->t;
    int before = trace_token(tr, at);
    press_each(v, "e ");
    tap_ok(trace_edit_count(tr) == 1 && trace_token(tr, at) != before && trace_edited(tr, at),
           "e Space edits the step under the cursor");
    size_t Kend = v->steps - 1 - at < 64 ? v->steps - 1 - at : 64;
    tap_ok(v->pert.valid && v->pert.step == at && v->pert.old_tok == before &&
               v->pert.r.K == (int)Kend && v->pert.layer == 0 && v->pert.r.fo[0] > 0 &&
               v->pert.r.dc[0] == v->pert.r.fo[0],
           "the edit's curves are computed at once (K %d, D_c(0) = F(0))", v->pert.r.K);
    press(v, "+");
    tap_ok(v->pert.horizon == 128 && strstr(v->ui->msg, "128"), "+ doubles K");
    press_each(v, "--");
    tap_ok(v->pert.horizon == 32, "- halves it");
    press(v, "=");
    tap_ok(v->pert.horizon == 64, "= doubles it too");
    press_each(v, "------");
    tap_ok(v->pert.horizon == DATA_PERT_KMIN && strstr(v->ui->msg, "K is"), "K stops at %d",
           DATA_PERT_KMIN);
    gt_key plus, minus;
    key_of("+", &plus);
    key_of("-", &minus);
    for (int i = 0; i < 1000; i++) /* a long queue of keys read before one frame */
        keys_handle(v, i % 2 ? &minus : &plus);
    keys_handle(v, &plus);
    tap_ok(v->pert.horizon == DATA_PERT_KMIN && v->ui->horizon == 2 * DATA_PERT_KMIN,
           "1,001 + and - read together: the curves not computed again key by key");
    gt_error pe = {0};
    view_prepare(v, 120, 40, &pe);
    tap_ok(v->pert.horizon == 2 * DATA_PERT_KMIN && v->pert.valid &&
               v->pert.r.K == (2 * DATA_PERT_KMIN < (int)Kend ? 2 * DATA_PERT_KMIN : (int)Kend),
           "the frame after them computes them once, at K %d", v->pert.r.K);
    gt_key undo, redo;
    key_of("u", &undo);
    key_of("\x12", &redo);
    keys_handle(v, &undo);
    keys_handle(v, &redo);
    tap_ok(v->curves_stale && trace_edit_count(tr) == 1 && !view_settled(v),
           "u and Ctrl-R read together: the curves not computed key by key");
    view_prepare(v, 120, 40, &pe);
    tap_ok(!v->curves_stale && v->pert.valid && v->pert.step == at && view_settled(v),
           "the frame after them computes them, once");
    press(v, "-");
    press_each(v, "++++");
    press(v, "]");
    tap_ok(v->pert.valid && v->pert.layer == 1, "] recomputes the curves for layer 1");
    press(v, "[");
    tap_ok(v->pert.valid && v->pert.layer == 0, "[ back to layer 0's");
    press(v, "d");
    tap_ok(v->ui->diff && v->sg != v->g && v->sc[0] == v->c[0] - data_diff_c(&v->dr, at)[0] &&
               v->dr.step == at,
           "d: the gate bars and the unit show edited - before");
    press(v, "d");
    tap_ok(!v->ui->diff && v->sg == v->g, "d again: the values");
    tap_ok(press(v, "w") == ACT_REDRAW && access("t-edited.txt", F_OK) == 0 &&
               strstr(v->ui->msg, "t-edited.txt"),
           "w writes the edited text to ./t-edited.txt");
    press(v, "w");
    tap_ok(access("t-edited-2.txt", F_OK) == 0, "w again: ./t-edited-2.txt, not over the first");
    press_each(v, "e\r");
    tap_ok(trace_edit_count(tr) == 1 && v->ui->input == INPUT_NEWLINE,
           "e Enter: nothing edited yet, the prompt asks before a newline");
    press(v, "\r");
    tap_ok(trace_edit_count(tr) == 2 && m->vocab_cp[trace_token(tr, at)] == '\n',
           "Enter again edits it to a newline");
    tap_ok(v->pert.valid && m->vocab_cp[v->pert.old_tok] == ' ' &&
               m->vocab_cp[v->pert.new_tok] == '\n',
           "a second edit: the curves are the newest edit's");
    press_each(v, "du");
    tap_ok(v->pert.valid && v->pert.new_tok != v->pert.old_tok && v->pert.old_tok == before &&
               v->ui->diff,
           "u: the first edit's curves again");
    press(v, "u");
    tap_ok(trace_edit_count(tr) == 0 && trace_token(tr, at) == before && !trace_edited(tr, at),
           "u u undoes both");
    tap_ok(!v->pert.valid && !v->ui->diff, "no edit left: no curves, no difference");
    press(v, "u");
    tap_ok(strstr(v->ui->msg, "no edit") != NULL, "u with nothing to undo says so");
}

static void test_stats_view(gt_view *v)
{
    tap_ok(press(v, "r") == ACT_REDRAW && sheet_up(v, &sheet_report), "r opens the report's tables");
    TAP_WAIT_WHILE(data_stats_busy(&v->stats), view_tick(v));
    tap_ok(v->stats.text[0] && strstr(v->stats.text[0], "Gates over all positions"),
           "the report's tables are computed in the background");
    size_t tt = v->t;
    int uu = v->unit;
    press_each(v, "jkk");
    tap_ok(sheet_report_ui(v)->scroll == 0 && v->t == tt && v->unit == uu,
           "j and k scroll the tables, not units");
    press(v, "]");
    tap_ok(v->layer == 1 && (data_stats_busy(&v->stats) || v->stats.text[1]),
           "] asks for layer 1's tables");
    press(v, "\x1b");
    tap_ok(!sheet_up(v, &sheet_report), "Esc closes the report's tables");
    press_each(v, "rr");
    tap_ok(!sheet_up(v, &sheet_report), "r closes it too");
    press(v, "[");
}

/* Waits for the report of v (at most 6 s). */
static void wait_stats(gt_view *v)
{
    for (int i = 0; i < 3000 && data_stats_busy(&v->stats); i++) {
        usleep(2000);
        view_tick(v);
    }
}

/* The step of the first windows' line ("  at 1,234  ...") at or after line `from` of text,
 * read here with sscanf (not report_line_step); -1 when there is none. */
static long window_step_after(const char *text, int from)
{
    const char *p = text;
    for (int i = 0; p && *p; i++) {
        char num[32], digits[32];
        if (i >= from && p[0] == ' ' && sscanf(p, " at %31[0-9,] ", num) == 1) {
            size_t n = 0;
            for (const char *q = num; *q; q++)
                if (*q != ',')
                    digits[n++] = *q;
            digits[n] = 0;
            return strtol(digits, NULL, 10);
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return -1;
}

/* 1 when v's frame at 120x40 has a row holding a, then b after it. */
static int view_frame_has(gt_view *v, const char *a, const char *b)
{
    gt_error e = {0};
    gt_surface sf;
    if (view_prepare(v, 120, 40, &e) || surf_init(&sf, 120, 40, 1))
        return 0;
    frame_draw(&sf, v);
    int hit = 0;
    for (int y = 0; y < sf.h && !hit; y++) {
        char row[4096];
        surf_row_text(&sf, y, row, sizeof row);
        const char *x = strstr(row, a);
        hit = x && strstr(x + strlen(a), b) != NULL;
    }
    surf_free(&sf);
    return hit;
}

/* Enter over the report's tables goes to the edited step of the first window's line shown (marked
 * ▶): read back from the tables' text and the frame; scrolled past it, the next window's. */
static void test_report_go(const gt_model *m)
{
    char text[700];
    for (int i = 0; i < 699; i++)
        text[i] = "abc ab\ncab a"[i * 7 % 12];
    text[699] = 0;
    gt_error e = {0};
    gt_text t;
    gt_trace *tr = NULL;
    gt_view v;
    if (text_from_memory(&t, "w.txt", text, strlen(text), m, &e) ||
        trace_open(&tr, m, &t, NULL, &e) || view_init(&v, m, &t, tr, 0, &e)) {
        tap_ok(0, "a text of five full windows opens: %s", e.msg);
        return;
    }
    view_prepare(&v, 120, 40, &e);
    press(&v, "r");
    wait_stats(&v);
    press(&v, "\x0c");
    const char *tables = v.stats.text[0];
    long first = tables ? window_step_after(tables, 0) : -1;
    tap_ok(first > 0 && strstr(tables, "Each window's own pairs, in text order"),
           "the report's tables list each window's own pairs (first edited step %ld)", first);
    /* the heading's columns end where the first row's do: "edited" over the step, "pairs" */
    const char *head = tables ? strstr(tables, "edited") : NULL, *row = head ? strchr(head, '\n') : 0;
    const char *bol = head;
    while (bol && bol > tables && bol[-1] != '\n')
        bol--;
    int ends = 0;
    if (row) {
        row++;
        const long e1 = (long)(head + 6 - bol), p1 = (long)(strstr(bol, "pairs") + 5 - bol);
        long step_end = 0, pairs_end = 0;
        int k = 0;
        for (long i = 0; row[i] && row[i] != '\n'; i++)
            if (row[i] != ' ' && (row[i + 1] == ' ' || row[i + 1] == '\n')) {
                k++; /* the ends of "at", the step, the steps, the pairs */
                if (k == 2)
                    step_end = i + 1;
                if (k == 4)
                    pairs_end = i + 1;
            }
        ends = step_end == e1 && pairs_end == p1;
    }
    tap_ok(ends, "the windows' heading lines up with their rows");
    size_t step = 0;
    for (int i = 0; i < 200 && sheet_report_step(&v, &step, NULL) != 0; i++)
        press(&v, "j"); /* down to the windows' table */
    char at[64];
    snprintf(at, sizeof at, "at %9ld", first);
    tap_ok(view_frame_has(&v, "\xe2\x96\xb6", at), "the first window's line is marked \xe2\x96\xb6");
    press(&v, "\r");
    tap_ok(first > 0 && v.t == (size_t)first && sheet_up(&v, &sheet_report) &&
               strstr(v.ui->msg, "('' goes back)"),
           "Enter goes to its edited step (%zu), the tables still shown", v.t);
    int line = -1, was = -1;
    sheet_report_step(&v, &step, &was);
    for (int i = 0; i < 200 && (line < 0 || line == was); i++) { /* scrolled past it */
        press(&v, "j");
        if (sheet_report_step(&v, &step, &line) != 0)
            line = -1;
    }
    long second = tables ? window_step_after(tables, was + 1) : -1;
    press(&v, "\r");
    tap_ok(second > first && v.t == (size_t)second,
           "scrolled past it, Enter goes to the next window's step (%ld: %zu)", second, v.t);
    for (int i = 0; i < 200 && sheet_report_step(&v, &step, NULL) == 0; i++)
        press(&v, "j");
    size_t before = v.t;
    press(&v, "\r");
    tap_ok(v.t == before && strstr(v.ui->msg, "no window's step in the lines shown"),
           "with no window's line shown Enter says so and stays");
    press(&v, "\x1b");
    view_free(&v);
    trace_close(tr);
    text_free(&t);
}

/* U: the unit table from the report computed in the background; the row keys, the column
 * sorted by and s change its order as the rows say; Enter selects the unit on the panels;
 * s on the panels reaches the mean carry gate, whose order is the table's. */
static void test_unit_table(gt_view *v)
{
    tap_ok(press(v, "U") == ACT_REDRAW && sheet_up(v, &sheet_units), "U opens the unit table");
    wait_stats(v);
    press(v, "\x0c"); /* a frame after the report came */
    const gt_unit_row *rows = data_stats_units(&v->stats, v->layer);
    const int H = v->m->hidden_max, *order = sheet_units_data(v)->order;
    tap_ok(rows && sheet_units_data(v)->known && v->stats.ngates == 3 && v->stats.carry == 1,
           "its rows come with the report (%d gates)", v->stats.ngates);
    if (!rows)
        return;
    press_each(v, "llll"); /* unit, mean i, f, o: to t½ gate */
    int bad = 0;
    for (int i = 1; i < H; i++)
        bad += rows[order[i - 1]].halflife < rows[order[i]].halflife;
    tap_ok(sheet_units_ui(v)->col == UT_HALFLIFE && bad == 0,
           "l four times: by the gate's half-life, largest first");
    press(v, "s");
    bad = 0;
    for (int i = 1; i < H; i++)
        bad += rows[order[i - 1]].halflife > rows[order[i]].halflife;
    tap_ok(sheet_units_ui(v)->reverse && bad == 0, "s: smallest first");
    press_each(v, "hh"); /* mean o, mean f */
    const int unit = v->unit;
    press(v, "\x1b[1;2B"); /* Shift-Down: the table's own key, not the panels' page of units */
    tap_ok(sheet_units_ui(v)->row == 1 && v->unit == unit,
           "Shift-Down in the unit table: its next row (the unit on the panels unchanged)");
    press(v, "j");
    size_t t = v->t;
    int want = sheet_units_data(v)->order[2];
    tap_ok(sheet_units_ui(v)->row == 2 && sheet_units_ui(v)->gate == 1 && v->t == t,
           "h twice: by mean f; j j the third row, the cursor stays");
    press(v, "\r");
    tap_ok(!v->ui->sheet && v->unit == want && strstr(v->ui->msg, "selected"),
           "Enter: unit %d (the row's, %d) selected on the panels", v->unit, want);
    v->ui->sort = SORT_INDEX;
    v->ui->sort_reverse = 0;
    press_each(v, "ss");
    bad = 0;
    for (int i = 1; i < H; i++)
        bad += rows[v->order[i - 1]].mean[1] < rows[v->order[i]].mean[1];
    tap_ok(v->ui->sort == SORT_MEAN && bad == 0,
           "s s: the units by the mean carry gate over the text, largest first");
    v->ui->sort = SORT_INDEX;
    sheet_units_ui(v)->col = sheet_units_ui(v)->reverse = 0;
}

/* The prompt's line edited as in a shell, its history; q asked again while edits are not
 * written; redo; '' back to the position before a jump; E through the edits; H, L and # for
 * units; a new order shows its top. */
static void test_more_keys(gt_view *v)
{
    gt_trace *tr = v->tr;
    press(v, "g");
    press_each(v, "13");
    press(v, "\x1b[D");
    press(v, "\x1b[D");
    press(v, "2");
    tap_ok(strcmp(v->ui->prompt, "213") == 0 && v->ui->line.pos == 1, "g: left arrow twice, 2: \"213\"");
    press(v, "\x1b[F");
    press(v, "\x7f");
    tap_ok(strcmp(v->ui->prompt, "21") == 0, "End, Backspace: \"21\"");
    press(v, "\x15");
    tap_ok(v->ui->prompt[0] == 0, "Ctrl-U empties the line before the cursor");
    press_each(v, "1 end");
    press(v, "\x17");
    tap_ok(strcmp(v->ui->prompt, "1 ") == 0, "Ctrl-W deletes the word before the cursor");
    press(v, "\x15");
    press_each(v, "12\r");
    tap_ok(v->t == 12 && v->ui->input == INPUT_KEYS, "g 12 Enter: step 12");
    press(v, "g");
    press(v, "\x1b[A");
    tap_ok(strcmp(v->ui->prompt, "12") == 0, "g then the up arrow: the last line entered (12)");
    press(v, "\x1b[B");
    tap_ok(v->ui->prompt[0] == 0, "the down arrow: back to the empty line");
    press(v, "\x1b");

    press_each(v, "g5\r");
    press_each(v, "g20\r");
    press_each(v, "''");
    tap_ok(v->t == 5, "'': back to step 5, where g 20 jumped from");
    press_each(v, "''");
    tap_ok(v->t == 20, "'' again: step 20");
    press(v, "l");
    press(v, "'");
    tap_ok(v->ui->input == INPUT_QUOTE && strstr(v->ui->msg, "' then ' goes back"),
           "': the message line says a second key is awaited (%s)", v->ui->msg);
    press(v, "X");
    tap_ok(v->t == 21 && v->ui->input == INPUT_KEYS && strstr(v->ui->msg, "no jump made"),
           "' then another key: no jump, and it says so");
    press(v, "M");
    tap_ok(v->ui->input == INPUT_MARK && strstr(v->ui->msg, "M then a letter"),
           "M: the message line says a letter is awaited");
    press(v, "7");
    tap_ok(v->ui->input == INPUT_KEYS && strstr(v->ui->msg, "no mark set"), "M then a digit: no mark, said");
    press_each(v, "Mb");
    press_each(v, "g2\r");
    press_each(v, "'b");
    tap_ok(v->t == 21 && v->ui->mark[1] == 22, "M b marks step 21; 'b goes back to it");
    press_each(v, "''");
    tap_ok(v->t == 2, "'' after 'b: step 2");
    press_each(v, "'q");
    tap_ok(v->t == 2 && v->ui->msg_error && strstr(v->ui->msg, "not set"), "'q: no mark q, says so");
    press_each(v, "Mm");
    tap_ok(v->ui->mark['m' - 'a'] == v->t + 1 && v->ui->input == INPUT_KEYS &&
               strstr(v->ui->msg, "mark m at step"),
           "M m: the key after M names the mark, m too (not the prompt of m)");
    const int unit = v->unit;
    press(v, "M");
    press(v, "\x1b[B");
    tap_ok(v->ui->input == INPUT_KEYS && v->unit == unit && strstr(v->ui->msg, "no mark set"),
           "M then an arrow: the arrow is the key M waited for (no mark, the unit unchanged)");
    press(v, "l");

    press_each(v, "g3\rea");
    press_each(v, "g8\reb");
    tap_ok(trace_edit_count(tr) == 2, "two edits (steps 3 and 8)");
    press_each(v, "g0\rE");
    tap_ok(v->t == 3 && strstr(v->ui->msg, "1 of 2"), "E: the first edit (step 3, 1 of 2)");
    press(v, "E");
    tap_ok(v->t == 8, "E: the next (step 8)");
    press(v, "E");
    tap_ok(v->t == 3, "E: around the end to step 3");
    press(v, "u");
    tap_ok(trace_edit_count(tr) == 1 && !trace_edited(tr, 8), "u undoes step 8's edit");
    press(v, "\x12");
    tap_ok(trace_edit_count(tr) == 2 && trace_edited(tr, 8) && v->t == 8,
           "Ctrl-R redoes it and goes there");
    press(v, "\x12");
    tap_ok(trace_edit_count(tr) == 2 && strstr(v->ui->msg, "no undone"), "Ctrl-R again: nothing to redo");
    tap_ok(press(v, "q") == ACT_REDRAW && strstr(v->ui->msg, "not written"),
           "q with edits not written: asks again");
    press(v, "l");
    tap_ok(press(v, "q") == ACT_REDRAW, "another key between: q asks again");
    tap_ok(press(v, "q") == ACT_QUIT, "q twice: quits");
    press(v, "l");
    tap_ok(press(v, "\x03") == ACT_REDRAW && strstr(v->ui->msg, "q or Ctrl-C again quits"),
           "Ctrl-C with edits not written: asks again too (it threw them away at once)");
    tap_ok(press(v, "\x03") == ACT_QUIT, "Ctrl-C twice: quits");
    press(v, "w");
    char lines[256] = "";
    FILE *lf = fopen("t-edited-3.edits.txt", "r");
    for (char ln[128]; lf && fgets(ln, sizeof ln, lf);)
        if (ln[0] != '#' && strlen(lines) + strlen(ln) < sizeof lines)
            strcat(lines, ln);
    if (lf)
        fclose(lf);
    tap_ok(strstr(v->ui->msg, "its edits to ./t-edited-3.edits.txt") && strlen(lines) > 0 &&
               strncmp(lines, "3\t3\t", 4) == 0 && strstr(lines, "\n8\t8\t"),
           "w writes the edits' list beside the text: steps 3 and 8, in the order made");
    tap_ok(press(v, "q") == ACT_QUIT, "after w: q quits at once");
    press_each(v, "uu");
    unlink("t-edited-3.txt");
    unlink("t-edited-3.edits.txt");
    tap_ok(trace_edit_count(tr) == 0, "both undone");

    press(v, "L");
    tap_ok(v->rank == v->m->hidden_max - 1, "L: the last unit of the order");
    press(v, "H");
    tap_ok(v->rank == 0, "H: the first");
    press_each(v, "#2\r");
    tap_ok(v->unit == 2, "# 2 Enter: unit 2");
    press_each(v, "#9\r");
    tap_ok(v->unit == 2 && v->ui->msg_error, "# 9: not a unit of 4, refused");
    press(v, "s");
    tap_ok(v->ui->sort != SORT_INDEX && v->unit == 2 && v->order[v->rank] == 2,
           "s: a new order, unit 2 still selected (rank %d)", v->rank);
    int was = v->rank;
    press(v, "S");
    tap_ok(v->unit == 2 && v->rank == v->m->hidden_max - 1 - was,
           "S: reversed, unit 2 still selected (rank %d)", v->rank);
    press(v, "S");
    press_each(v, "od");
    tap_ok(v->ui->sort == SORT_CHANGE && v->unit == 2 && v->ui->input == INPUT_KEYS,
           "o d: the order by |dc| at once, unit 2 still selected");
    press(v, "o");
    tap_ok(v->ui->input == INPUT_ORDER && strstr(v->ui->msg, "order? i index, g forget gate") != NULL,
           "o: the choice on the message line (%s)", v->ui->msg);
    press(v, "x");
    tap_ok(v->ui->sort == SORT_CHANGE && v->ui->input == INPUT_KEYS && strstr(v->ui->msg, "no order"),
           "o x: no order chosen, the order and x unused (%s)", v->ui->msg);
    press_each(v, "or");
    tap_ok(v->ui->sort == SORT_CHANGE && v->ui->msg_error,
           "o r without a hypothesis: refused (%s)", v->ui->msg);
    press_each(v, "oi");
    tap_ok(v->ui->sort == SORT_INDEX && v->unit == 2, "o i: by index again");
    press(v, "s");
    press(v, "S"); /* as s S left it */
    while (v->ui->sort != SORT_INDEX)
        press(v, "s");
    press(v, "S");
}

/* The bytes a terminal sends for mouse button code `code` at cell (x, y) from 0 (X10). */
static const char *mouse_bytes(int code, int x, int y)
{
    static char b[8];
    snprintf(b, sizeof b, "\x1b[M%c%c%c", 32 + code, 33 + x, 33 + y);
    return b;
}

/* The mouse as a terminal reports it: a click on a unit row, on a character of the strip,
 * the wheel over the units and over the strip. */
static void test_mouse(gt_view *v)
{
    gt_key k;
    tap_ok(key_of(mouse_bytes(0, 6, 11), &k) && k.sym == K_CLICK && k.x == 6 && k.y == 11,
           "a press of the first button at (6, 11): a click there");
    tap_ok(key_of(mouse_bytes(3, 6, 11), &k) == 0, "a release: nothing");
    press_each(v, "g0\r");
    gt_rect g = v->lay.r[P_GATES];
    int want = v->order[v->ui->top + 2];
    press(v, mouse_bytes(0, g.x + 4, g.y + 2 + 2));
    tap_ok(v->unit == want, "a click on the third unit row selects its unit (%d)", want);
    /* the strip: rows of whole lines ("abc abc\n", "ab ca ba cab\n", ...), the cursor's
     * row in the middle */
    gt_rect st = v->lay.r[P_STRIP];
    int pairs = (st.h - 1) / 2;
    int cx = st.x + 1, cy = st.y + 1 + 2 * (pairs / 2);
    press_each(v, "g9\r");
    press(v, mouse_bytes(0, cx + 3, cy));
    tap_ok(v->t == 11, "a click on the 4th cell of the cursor's row (\"ab ca ba cab\"): step 11");
    press(v, mouse_bytes(0, cx + 1, cy - 2));
    tap_ok(v->t == 1, "on the 2nd cell of the row above it (\"abc abc\"): step 1");
    tap_ok(press(v, mouse_bytes(0, cx + 9, cy)) == ACT_NONE && v->t == 1,
           "that row in the middle now, a click past its end: nothing");
    tap_ok(press(v, mouse_bytes(0, cx, cy + 1)) == ACT_NONE && v->t == 1,
           "a click on the row of marks: nothing");
    press_each(v, "g4\r");
    press(v, mouse_bytes(65, cx, cy));
    tap_ok(v->t == 7, "the wheel down over the strip: 3 steps on (7)");
    press(v, "H");
    press(v, mouse_bytes(65, g.x + 4, g.y + 3));
    tap_ok(v->rank == 3, "the wheel down over the units: 3 units down");
    press(v, mouse_bytes(64, g.x + 4, g.y + 3));
    tap_ok(v->rank == 0, "the wheel up: back 3");
}

static void test_help_and_quit(gt_view *v)
{
    press(v, "?");
    tap_ok(v->ui->input == INPUT_HELP, "? opens the help");
    tap_ok(press(v, "q") == ACT_REDRAW && v->ui->input != INPUT_HELP,
           "any key closes it (q too, without quitting)");
    tap_ok(press(v, "c") == ACT_REDRAW && v->ui->heat, "c colours the text");
    tap_ok(press(v, "x") == ACT_EXPORT, "x exports");
    tap_ok(press(v, "q") == ACT_QUIT, "q quits");
    tap_ok(press(v, "\x03") == ACT_QUIT, "Ctrl-C quits");
}

/* The derivative's eigenvalues, once its child has computed them (ticks until then): its
 * DATA_EIG_K largest moduli against the first of the whole spectrum of the step computed
 * here from a float32 run of the text. */
static int eig_as_direct(gt_view *v, const gt_model *m, const uint16_t *tok)
{
    for (int i = 0; i < 5000 && data_eig_busy(&sheet_derivative_data(v)->eig); i++) {
        usleep(2000);
        view_tick(v);
    }
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    if (!de->valid || de->step != v->t || de->layer != v->layer)
        return 0;
    gt_run r;
    gt_error e;
    gt_spectrum sp;
    if (run_init(&r, m, &e))
        return 0;
    for (size_t s = 0; s < v->t; s++)
        run_step(&r, tok[s]);
    int ok = spectrum_from(&sp, m, v->layer, r.h, r.c, tok[v->t], v->t, &e) == 0;
    run_free(&r);
    if (!ok)
        return 0;
    ok = sp.n == de->n && sp.H == de->H && de->count == (sp.n < DATA_EIG_K ? sp.n : DATA_EIG_K);
    for (int i = 0; ok && i < de->count; i++)
        ok = fabs(sp.abs[i] - de->abs[i]) <= 1e-9;
    for (int i = 0; ok && i < sp.H; i++)
        ok = fabs(sp.carry[i] - de->carry[i]) <= 1e-9;
    spectrum_free(&sp);
    return ok;
}

/* Its fixed point under the cursor's character and the layer's Lyapunov half-lives (the
 * children done: eig_as_direct waited for every one), against fixed_from from the state of
 * a float32 run and lyapunov_compute over the text, computed here. */
static int fixed_lyapunov_as_direct(gt_view *v, const gt_model *m, const gt_text *t)
{
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    if (!de->fp_valid || de->fp_step != v->t || de->fp_layer != v->layer || !de->ly_valid ||
        de->ly_layer != v->layer)
        return 0;
    gt_run r;
    gt_error e;
    if (run_init(&r, m, &e))
        return 0;
    for (size_t s = 0; s < v->t; s++)
        run_step(&r, t->tok[s]);
    gt_fixed f;
    double dist;
    int ok = fixed_from(&f, &dist, m, v->layer, t->tok[v->t], r.h, r.c, DATA_EIG_HOLD, &e) == 0;
    run_free(&r);
    if (!ok)
        return 0;
    ok = de->fp_found == (f.count > 0) &&
         (!f.count || (dist == de->fp_dist && f.point[0].max_abs == de->fp_max_abs));
    fixed_free(&f);
    gt_lyapunov l;
    /* J_1..J_n of the text's steps 1..n, the warm-up n / 20 up to 100 (doc/screen.md) */
    size_t n = t->steps - 1 < DATA_EIG_LY_STEPS ? t->steps - 1 : DATA_EIG_LY_STEPS;
    size_t w = n / 20 < 100 ? n / 20 : 100;
    if (!ok || lyapunov_compute(&l, m, v->layer, de->ly_modes, t->tok, n, w, 1, &e))
        return 0;
    ok = de->ly_steps == n && de->ly_warmup == w;
    for (int i = 0; ok && i < de->ly_modes; i++)
        ok = ((isnan(l.halflife[i]) && isnan(de->ly_hl[i])) || l.halflife[i] == de->ly_hl[i]) &&
             ((isnan(l.halflife_hw[i]) && isnan(de->ly_hw[i])) ||
              l.halflife_hw[i] == de->ly_hw[i]);
    lyapunov_free(&l);
    return ok;
}

/* 1 when the derivative's Lyapunov line names the steps summed, W+1..N (not
 * --lyapunov's default range), and the first half-life +- its 95% half-width, in a UTF-8
 * locale (the glyphs ½ and ±); want: what it looks for. */
static int lyapunov_line_named(gt_view *v, const gt_text *t, char *want, size_t len)
{
    char a[32], b[32], was[64];
    const size_t n = t->steps - 1 < DATA_EIG_LY_STEPS ? t->steps - 1 : DATA_EIG_LY_STEPS;
    snprintf(want, len, "Lyapunov t\xc2\xbd (steps %s..%s, \xc2\xb1 95%%):",
             report_commas((n / 20 < 100 ? n / 20 : 100) + 1, a, sizeof a),
             report_commas(n, b, sizeof b));
    char first[64];
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    snprintf(first, sizeof first, " %.1f\xc2\xb1%.1f ", de->ly_hl[0], de->ly_hw[0]);
    snprintf(was, sizeof was, "%s", setlocale(LC_CTYPE, NULL));
    int hit = setlocale(LC_CTYPE, "C.UTF-8") != NULL && view_frame_has(v, want, first);
    setlocale(LC_CTYPE, was);
    return hit;
}

/* Until the derivative the view asks for is computed (on its thread) and shown. */
static void jac_settle(gt_view *v)
{
    gt_error e = {0};
    do {
        TAP_WAIT_WHILE(data_jac_busy(&sheet_derivative_data(v)->jac), view_tick(v));
        view_prepare(v, 120, 40, &e);
    } while (data_jac_busy(&sheet_derivative_data(v)->jac));
}

/* D: the derivative's sheet, on layer 1 then 0, against a direct computation. */
static void test_jacobian_view(gt_view *v, const gt_model *m, const gt_text *t)
{
    const gt_data_jac *jv = &sheet_derivative_data(v)->jac;
    const gt_data_eig *eig = &sheet_derivative_data(v)->eig;
    press(v, "]");
    view_seek(v, 20);
    gt_act a = press(v, "D");
    tap_ok(a == ACT_REDRAW && data_jac_busy(jv) && !jv->valid,
           "D returns at once, the derivative computed on a thread of its own");
    jac_settle(v);
    tap_ok(sheet_up(v, &sheet_derivative) && jv->valid && jv->step == 20 && jv->K == 20 &&
               jv->layer == 1 && same_as_direct(v, m, t->tok),
           "D: the derivative at step 20 on layer 1, lags 1..20 (fewer than 32 so near the "
           "start), as computed straight from a run of the text");
    /* with room, each lag's row ends with the character read at step T - k */
    {
        gt_surface sf;
        gt_error de = {0};
        int rows_ok = 0, rows_seen = 0, legend = 0, decade = 0, dots = 0;
        if (surf_init(&sf, 200, 60, 1) == 0 && view_prepare(v, 200, 60, &de) == GT_OK) {
            frame_draw(&sf, v);
            for (int y = 0; y < 60; y++) {
                char row[2048], name[32];
                surf_row_text(&sf, y, row, sizeof row);
                legend |= strstr(row, "|J|_F  ") && strstr(row, "|C|_F  ") && strstr(row, "|J_jj|");
                const char *at = strstr(row, "1e0\xe2\x94\x82"); /* 1e0 and the axis */
                decade |= at && at - row > 67;
                for (int x = 70; x < 200; x++) /* the curves' dots, right of the table */
                    dots += (unsigned char)surf_cell(&sf, x, y)->s[0] == 0xe2 &&
                            (unsigned char)surf_cell(&sf, x, y)->s[1] >= 0xa0 &&
                            (unsigned char)surf_cell(&sf, x, y)->s[1] <= 0xa3;
                int k;
                double j0;
                if (sscanf(row, " %d %le", &k, &j0) == 2 && k >= 1 && k <= 20 && strstr(row, "e")) {
                    panel_char_name(v, trace_token(v->tr, 20 - (size_t)k), name, sizeof name);
                    rows_seen++;
                    rows_ok += strstr(row, name) != NULL;
                }
            }
            surf_free(&sf);
        }
        view_prepare(v, 120, 40, &de);
        tap_ok(rows_seen == 20 && rows_ok == rows_seen,
               "D at 200x60: each lag's row names the character read at step T - k (%d of %d)",
               rows_ok, rows_seen);
        tap_ok(legend && decade && dots > 40,
               "D at 200x60: beside the table, |J|_F, |C|_F and the unit's J_jj and C_jj against "
               "k on a log scale (the legend %s, the 1e0 decade %s, %d cells of dots)",
               legend ? "there" : "missing", decade ? "there" : "missing", dots);
    }
    const int eig_ok = eig_as_direct(v, m, t->tok) && eig->abs[0] > 0;
    tap_ok(eig_ok,
           "D: the moduli of the step's eigenvalues and the sorted carry gates at step 20, "
           "computed by a child, as computed here (largest |eigenvalue| %.3g)", eig->abs[0]);
    tap_ok(fixed_lyapunov_as_direct(v, m, t),
           "D: the fixed point under step 20's character (found %d, |s - s*| %.3g) and the "
           "layer's %d Lyapunov half-lives, computed by children, as computed here",
           eig->fp_found, eig->fp_dist, eig->ly_modes);
    char ly[96];
    tap_ok(lyapunov_line_named(v, t, ly, sizeof ly),
           "D: the Lyapunov line names its steps, %s, then the half-lives with their +- (%.1f "
           "+- %.1f)", ly, eig->ly_hl[0], eig->ly_hw[0]);
    press(v, "+");
    tap_ok(sheet_derivative_ui(v)->K == 64 && v->pert.horizon == DATA_PERT_KDEFAULT,
           "+ doubles its K, not the perturbation's");
    /* at the smallest size the view's long lines are cut with a mark, not silently */
    gt_surface sf;
    int marked = 0;
    gt_error pe = {0};
    char was[64];
    snprintf(was, sizeof was, "%s", setlocale(LC_CTYPE, NULL));
    int utf8 = setlocale(LC_CTYPE, "C.UTF-8") != NULL; /* the glyphs' widths */
    if (utf8 && surf_init(&sf, 64, 22, 1) == 0 && view_prepare(v, 64, 22, &pe) == GT_OK) {
        frame_draw(&sf, v);
        for (int x = 0; x < 64; x++)
            marked |= strcmp(surf_cell(&sf, x, 20)->s, "\xe2\x80\xa6") == 0;
        surf_free(&sf);
    }
    setlocale(LC_CTYPE, was);
    view_prepare(v, 120, 40, &pe);
    tap_ok(utf8 && marked, "at 64x22 the derivative's last line, too long, ends with \xe2\x80\xa6");
    press_each(v, "---");
    jac_settle(v);
    tap_ok(sheet_derivative_ui(v)->K == 8 && jv->K == 8 && same_as_direct(v, m, t->tok),
           "- halves it: 8 lags");
    press_each(v, "lj");
    jac_settle(v);
    tap_ok(jv->step == 21 && jv->unit == v->unit && same_as_direct(v, m, t->tok),
           "l steps and j selects another unit: the view follows");
    press(v, "[");
    jac_settle(v);
    tap_ok(jv->layer == 0 && same_as_direct(v, m, t->tok), "[: layer 0's derivative");
    tap_ok(eig_as_direct(v, m, t->tok), "[: layer 0's eigenvalues at step 21");
    tap_ok(fixed_lyapunov_as_direct(v, m, t), "[: layer 0's fixed point and Lyapunov half-lives");
    press(v, "r");
    tap_ok(sheet_up(v, &sheet_report) && !sheet_up(v, &sheet_derivative),
           "r closes it for the report's sheet");
    press(v, "D");
    tap_ok(sheet_up(v, &sheet_derivative) && !sheet_up(v, &sheet_report),
           "D closes the report's sheet for it");
    press(v, "\x1b");
    tap_ok(!sheet_up(v, &sheet_derivative), "Esc closes the derivative's sheet");
    press_each(v, "DD");
    tap_ok(!sheet_up(v, &sheet_derivative), "D closes it too");
    press_each(v, "Dp");
    tap_ok(sheet_up(v, &sheet_profile) && !sheet_up(v, &sheet_derivative),
           "p over the derivative: the profile instead");
    press(v, "\x1b");
    tap_ok(!sheet_up(v, &sheet_profile) && !sheet_up(v, &sheet_derivative),
           "Esc closes it back to the panels");
}

/* Types s into the prompt that key opened, then Enter. */
static void prompt(gt_view *v, const char *key, const char *s)
{
    press(v, key);
    for (const char *p = s; *p;) {
        char one[8] = {0};
        size_t n = ((unsigned char)*p & 0xE0) == 0xC0 ? 2 : 1;
        memcpy(one, p, n);
        press(v, one);
        p += n;
    }
    press(v, "\r");
}

/* Each key of s (an escape sequence as one) handled on the model shown, then a frame. */
static void models_press(gt_models *ms, const char *s)
{
    gt_error e = {0};
    for (const char *p = s; *p;) {
        char one[8] = {0};
        size_t n = p[0] == '\x1b' && p[1] == '[' ? 3 : 1;
        memcpy(one, p, n);
        gt_key k;
        if (key_of(one, &k))
            keys_handle_models(ms, &k);
        view_prepare(models_view(ms), 120, 40, &e);
        p += n;
    }
}

/* 1 when the frame of the model shown (120x40) has s on one of its rows. */
static int frame_has(gt_models *ms, const char *s)
{
    return view_frame_has(models_view(ms), s, "");
}

/* Two models after an edit: the horizon and the difference are the screen's, not a model's;
 * each model's data follows them whichever model they were changed on. */
static void test_models_follow(gt_models *ms)
{
    const gt_key tab = {K_TAB, 0, 0, 0, 0, 0};
    const gt_view *a = &ms->v[0], *b = &ms->v[1];
    models_press(ms, "+");
    tap_ok(ms->cur == 0 && a->pert.horizon == 128 && b->pert.horizon == 128 &&
               frame_has(ms, "K 128"),
           "+ on the first model: K 128 on its screen and in the other's curves");
    {
        gt_key plus, minus;
        key_of("+", &plus);
        key_of("-", &minus);
        for (int i = 0; i < 1000; i++) /* a long queue read before one frame */
            keys_handle_models(ms, i % 2 ? &minus : &plus);
        keys_handle_models(ms, &minus);
        tap_ok(a->pert.horizon == 128 && b->pert.horizon == 128 && ms->ui.horizon == 64,
               "1,001 + and - read together: neither model's curves computed key by key");
        gt_error e = {0};
        view_prepare(models_view(ms), 120, 40, &e);
        tap_ok(a->pert.horizon == 64 && b->pert.horizon == 64 && b->pert.valid,
               "the frame after them computes both models' curves once, at K 64");
        models_press(ms, "+");
    }
    keys_handle_models(ms, &tab);
    tap_ok(ms->cur == 1 && b->pert.valid && b->pert.r.K == a->pert.r.K && frame_has(ms, "K 128"),
           "Tab: the other model's screen has the same K (%d, %d)", b->pert.r.K, a->pert.r.K);
    models_press(ms, "--");
    keys_handle_models(ms, &tab);
    tap_ok(ms->cur == 0 && a->pert.horizon == 32 && frame_has(ms, "K 32") && b->pert.horizon == 32,
           "- - on the second model, Tab back: K 32 on the first");
    models_press(ms, "d");
    keys_handle_models(ms, &tab);
    models_press(ms, "\x0c"); /* ^L: the message goes, the hints show */
    tap_ok(ms->cur == 1 && b->ui->diff && b->dr.valid && frame_has(ms, "d values") &&
               b->sg != b->g,
           "d on the first model, Tab: the second shows the difference too");
    models_press(ms, "d");
    keys_handle_models(ms, &tab);
    models_press(ms, "\x0c");
    tap_ok(ms->cur == 0 && !a->ui->diff && frame_has(ms, "d difference") &&
               a->sg == a->g,
           "d off on the second, Tab back: the first shows the values");
    models_press(ms, "g9\rea");
    if (trace_edit_count(ms->tr[1]) == 1) /* step 9 was an a already */
        models_press(ms, "eb");
    size_t last = trace_edit_at(ms->tr[1], trace_edit_count(ms->tr[1]) - 1)->step;
    models_press(ms, "d");
    keys_handle_models(ms, &tab);
    models_press(ms, "\x0c"); /* the frame: the difference is computed for it */
    tap_ok(ms->cur == 1 && last == 9 && b->ui->diff && b->dr.valid && b->dr.step == 9,
           "an edit with the difference off, d, Tab: the other model's difference is of that edit");
    models_press(ms, "d");
    keys_handle_models(ms, &tab);
}

/* Two models: Tab changes which model's data is drawn, not what is open or selected. */
static void test_models(const gt_model *m, const gt_text *t)
{
    gt_model two[2] = {*m, *m};
    gt_session sn;
    gt_models ms;
    gt_error e = {0};
    if (session_borrow(&sn, two, 2, t, &e) || models_open(&ms, &sn, 0, 0, 1, &e)) {
        printf("# %s\n", e.msg);
        tap_ok(0, "two models open");
        return;
    }
    const gt_key p = {K_CHAR, 'p', 0, 0, 0, 0}, tab = {K_TAB, 0, 0, 0, 0, 0};
    const gt_key esc = {K_ESC, 0, 0, 0, 0, 0};
    view_prepare(models_view(&ms), 120, 40, &e);
    keys_handle_models(&ms, &p);
    tap_ok(ms.cur == 0 && sheet_up(models_view(&ms), &sheet_profile), "two models: p opens the profile");
    keys_handle_models(&ms, &tab);
    view_prepare(models_view(&ms), 120, 40, &e);
    tap_ok(ms.cur == 1 && sheet_up(models_view(&ms), &sheet_profile) &&
               models_view(&ms)->find.prof_wanted,
           "Tab: the other model, its profile open");
    keys_handle_models(&ms, &tab);
    view_prepare(models_view(&ms), 120, 40, &e);
    tap_ok(ms.cur == 0 && sheet_up(models_view(&ms), &sheet_profile),
           "Tab back: the profile still open");
    keys_handle_models(&ms, &esc);
    keys_handle_models(&ms, &tab);
    tap_ok(ms.cur == 1 && !models_view(&ms)->ui->sheet,
           "Esc closes it for every model");
    models_press(&ms, "X"); /* the figure names the model's file, not the screen's [2/2] */
    static char page[1 << 20];
    char fig[64];
    snprintf(fig, sizeof fig, "t-m-unit%d-h.html", models_view(&ms)->unit);
    read_page(fig, page, sizeof page);
    tap_ok(strstr(page, "m.safetensors #2 on t.txt") && !strstr(page, "[2/2]"),
           "X with two models (one file twice): %s's caption names the model as every output "
           "does (its place, #2), without the screen's [2/2]",
           fig);
    unlink(fig);
    models_press(&ms, "U");
    for (int i = 0; i < 3000 && models_busy(&ms); i++) {
        usleep(2000);
        models_tick(&ms);
    }
    models_press(&ms, "j");
    const gt_unit_row *one = data_stats_units(&ms.v[1].stats, 0);
    keys_handle_models(&ms, &tab);
    view_prepare(models_view(&ms), 120, 40, &e);
    const gt_view *other = models_view(&ms);
    tap_ok(ms.cur == 0 && sheet_up(other, &sheet_units) && sheet_units_data(other)->known && one &&
               data_stats_units(&other->stats, 0) != one && sheet_units_ui(other)->row == 1,
           "U with two models: each its own unit table; Tab shows the other's at the same row");
    keys_handle_models(&ms, &esc);
    keys_handle_models(&ms, &tab);
    const gt_key e_ = {K_CHAR, 'e', 0, 0, 0, 0}, b = {K_CHAR, 'b', 0, 0, 0, 0};
    const gt_key u = {K_CHAR, 'u', 0, 0, 0, 0}, redo = {K_CHAR, 'r', 1, 0, 0, 0};
    keys_handle_models(&ms, &e_);
    keys_handle_models(&ms, &b);
    tap_ok(trace_edit_count(ms.tr[0]) == 1 && trace_edit_count(ms.tr[1]) == 1,
           "an edit is made on every model");
    keys_handle_models(&ms, &u);
    tap_ok(trace_edit_count(ms.tr[0]) == 0 && trace_edit_count(ms.tr[1]) == 0,
           "u undoes it on every model");
    keys_handle_models(&ms, &tab);
    keys_handle_models(&ms, &redo);
    tap_ok(ms.cur == 0 && trace_edit_count(ms.tr[0]) == 1 && trace_edit_count(ms.tr[1]) == 1,
           "Ctrl-R on the other model redoes it on every model");
    test_models_follow(&ms);
    models_press(&ms, "g5\r#3\r");
    keys_handle_models(&ms, &tab);
    models_press(&ms, "g\x1b[A");
    tap_ok(ms.cur == 1 && strcmp(models_view(&ms)->ui->prompt, "5") == 0 &&
               models_view(&ms)->unit == 3 && ms.v[1].unit == 3,
           "Tab: the prompt's history, the unit chosen, the same on the other model");
    models_press(&ms, "\x1b");
    models_close(&ms);
    session_close(&sn);
}

/* two[0] (set by the caller) beside the model written at path, loaded into two[1], on text
 * t as the screen opens several models: 0, or 1 after a failed check named what. */
static int open_beside(gt_model two[2], const gt_text *t, const char *path, gt_session *sn,
                       gt_models *ms, const char *what)
{
    gt_error e = {0};
    if (model_load(&two[1], path, NULL, &e)) {
        printf("# %s\n", e.msg);
        tap_ok(0, "%s", what);
        return 1;
    }
    if (session_borrow(sn, two, 2, t, &e) || models_open(ms, sn, 0, 0, 1, &e)) {
        printf("# %s\n", e.msg);
        tap_ok(0, "%s", what);
        model_free(&two[1]);
        return 1;
    }
    return 0;
}

static void close_beside(gt_model two[2], gt_session *sn, gt_models *ms, const char *path)
{
    models_close(ms);
    session_close(sn);
    model_free(&two[1]);
    unlink(path);
}

/* Two models of different shapes (two layers and one) share the interventions where they
 * apply: > on the first's layer 0 shifts the second's layer 0 too; on layer 1, which the
 * second lacks, the second keeps its own and the status line says so; then Z removes every
 * model's, not only the one shown's. */
static void test_models_clear(const gt_model *m, const gt_text *t, const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/one.safetensors", dir);
    gt_model two[2] = {*m};
    gt_session sn;
    gt_models ms;
    if (write_model_layers(path, "\\n abc", 1) ||
        open_beside(two, t, path, &sn, &ms, "the two-layer and the one-layer model open"))
        return;
    models_press(&ms, ">");
    tap_ok(iv_shift_of(&ms.ivs[0].iv, 0, 3) == 0.5 && iv_shift_of(&ms.ivs[1].iv, 0, 3) == 0.5 &&
               !strstr(ms.ui.msg, "only in part"),
           "> on the two-layer model: the one-layer model's layer 0 shifted too (%s)", ms.ui.msg);
    models_press(&ms, "]>");
    tap_ok(ms.v[0].layer == 1 && iv_shift_of(&ms.ivs[0].iv, 1, 0) == 0.5 &&
               iv_shift_of(&ms.ivs[1].iv, 0, 0) == 0.5 && strstr(ms.ui.msg, "only in part"),
           "] > : layer 1, which the other lacks; it keeps its own, said (%s)", ms.ui.msg);
    models_press(&ms, "[\t>\t");
    const int both = ms.cur == 0 && iv_shift_of(&ms.ivs[0].iv, 0, 0) == 1.0 &&
                     iv_shift_of(&ms.ivs[1].iv, 0, 0) == 1.0;
    models_press(&ms, "Z");
    tap_ok(both && !iv_any(&ms.ivs[0].iv) && !iv_any(&ms.ivs[1].iv) &&
               strstr(ms.ui.msg, "every model's interventions removed"),
           "> on the other model: both at +1.0 on layer 0; Z on the first: every model's "
           "interventions removed (%s)", ms.ui.msg);
    models_press(&ms, "Z");
    tap_ok(strstr(ms.ui.msg, "no interventions to remove") != NULL,
           "Z again: no interventions to remove (%s)", ms.ui.msg);
    close_beside(two, &sn, &ms, path);
}

/* An LSTM beside a GRU: each takes what it can hold of the other's interventions and keeps
 * its own of a kind the other cannot hold. C (the carousel) on the LSTM: the GRU has none to
 * take (said); shown, the GRU leaves the LSTM's carousel on after any key (it cleared it);
 * > on the GRU shifts the LSTM's carry gate too. */
static void test_models_cells(const gt_model *m, const gt_text *t, const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/gru.safetensors", dir);
    gt_model two[2] = {*m};
    gt_session sn;
    gt_models ms;
    if (write_gru(path, "\\n abc") || open_beside(two, t, path, &sn, &ms, "an LSTM and a GRU open"))
        return;
    models_press(&ms, "C");
    tap_ok(ms.ivs[0].iv.carousel[0] && !ms.ivs[1].iv.carousel[0] &&
               strstr(ms.ui.msg, "only in part") != NULL,
           "C on the LSTM: its carousel on, the GRU has none to take, said (%s)", ms.ui.msg);
    models_press(&ms, "\tl");
    tap_ok(ms.cur == 1 && ms.ivs[0].iv.carousel[0],
           "Tab, a key on the GRU: the LSTM's carousel still on");
    models_press(&ms, ">");
    tap_ok(iv_shift_of(&ms.ivs[1].iv, 0, 0) == 0.5 && iv_shift_of(&ms.ivs[0].iv, 0, 0) == 0.5 &&
               ms.ivs[0].iv.carousel[0],
           "> on the GRU: both carry gates shifted by 0.5, the LSTM's carousel kept");
    models_press(&ms, "\t>");
    int all = ms.cur == 0;
    for (int j = 0; j < 6; j++) /* the whole layer's shift, the GRU's 6 units all */
        all &= iv_shift_of(&ms.ivs[1].iv, 0, j) == 1.0 && (j >= 4 || iv_shift_of(&ms.ivs[0].iv, 0, j) == 1.0);
    tap_ok(all && !strstr(ms.ui.msg, "only in part"),
           "> on the LSTM of 4 units: the GRU's 6 all at +1.0, the whole layer's as the LSTM's (%s)",
           ms.ui.msg);
    close_beside(two, &sn, &ms, path);
}

/* The text as edited, in bytes: `w` writes it and `/` searches it, with edited characters
 * longer and shorter than the ones they replace (é is two bytes), next to each other, and at
 * the last step. */
static void test_edited_text(const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/e.safetensors", dir);
    write_model(path, "\\n ab\xc3\xa9");
    gt_error e = {0};
    gt_model m;
    gt_text t;
    /* steps: a b é ' ' b a \n é é ' ' a b \n (bytes: é takes two) */
    const char *text = "ab\xc3\xa9 ba\n\xc3\xa9\xc3\xa9 ab\n";
    if (model_load(&m, path, NULL, &e) ||
        text_from_memory(&t, "e.txt", text, strlen(text), &m, &e)) {
        printf("# %s\n", e.msg);
        tap_ok(0, "the model with é loads");
        return;
    }
    gt_trace *tr;
    gt_view v;
    trace_open(&tr, &m, &t, NULL, &e);
    view_init(&v, &m, &t, tr, 0, &e);
    view_prepare(&v, 120, 40, &e);
    const char *edits[][2] = {{"1", "\xc3\xa9"}, {"2", "a"}, {"7", "a"}, {"12", "b"}};
    for (int i = 0; i < 4; i++) {
        prompt(&v, "g", edits[i][0]);
        press(&v, "e");
        press(&v, edits[i][1]);
    }
    tap_ok(trace_edit_count(tr) == 4 && t.steps == 13, "é text: four edits");
    const char *want = "a\xc3\xa9" "a ba\na\xc3\xa9 abb"; /* as edited */
    char got[64] = "";
    FILE *f = NULL;
    int ok = press(&v, "w") == ACT_REDRAW && (f = fopen("e-edited.txt", "rb")) != NULL;
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f)
        fclose(f);
    tap_ok(ok && n == strlen(want) && memcmp(got, want, n) == 0,
           "w writes the edited text, characters of other lengths in place (%zu bytes)", n);

    prompt(&v, "g", "0");
    prompt(&v, "/", "\xc3\xa9" "a ");
    tap_ok(v.t == 1, "/éa finds two edited characters side by side (step 1)");
    prompt(&v, "/", "abb");
    tap_ok(v.t == 10, "/abb finds a match ending with the edited last step (step 10)");
    press(&v, "N");
    tap_ok(v.t == 10 && strstr(v.ui->msg, "wrapped"), "N: the only match, wrapping around");
    prompt(&v, "/", "\xc3\xa9");
    tap_ok(v.t == 1 && strstr(v.ui->msg, "wrapped"), "/é from step 10 wraps to the edited step 1");
    press(&v, "n");
    tap_ok(v.t == 8, "n: the next é is the loaded one at step 8 (step 2's is edited away)");
    press(&v, "N");
    tap_ok(v.t == 1, "N: back to step 1");
    prompt(&v, "/", "ab");
    tap_ok(v.t == 10, "/ab after step 1: step 10 (step 0's a is now followed by é)");
    prompt(&v, "/", "\xc3\xa9\xc3\xa9");
    tap_ok(v.ui->msg_error && strstr(v.ui->msg, "is not in the text"),
           "/éé, in the text as loaded (steps 7-8), is not in the edited text");

    gt_edtext x;
    int wr;
    ok = edtext_open(&x, tr, &e) == GT_OK && x.n == 4;
    size_t at = ok ? edtext_find(&x, "\na\xc3\xa9", 4, 0, 1, &wr) : 0;
    tap_ok(at == 7 && !wr, "a match spanning an edited character starts at the loaded offset");
    at = ok ? edtext_find(&x, "b\n", 2, 0, 1, &wr) : 0;
    tap_ok(at == (size_t)-1, "the loaded last character, edited away, is not found");
    at = ok ? edtext_find(&x, "a\xc3\xa9", 3, 15, -1, &wr) : 0;
    tap_ok(at == 8 && !wr, "backwards from the end: the nearest match first (offset 8)");
    edtext_close(&x);
    while (trace_undo(tr, NULL))
        ;
    ok = edtext_open(&x, tr, &e) == GT_OK && x.n == 0;
    at = ok ? edtext_find(&x, "\xc3\xa9\xc3\xa9", 4, 0, 1, &wr) : 0;
    tap_ok(at == 8, "all undone: /éé finds the text's own again");
    edtext_close(&x);

    view_free(&v);
    trace_close(tr);
    text_free(&t);
    model_free(&m);
    unlink(path);
    unlink("e-edited.txt");
    unlink("e-edited.edits.txt");
}

/* Layer k's values at step s of tokens tok run straight through model m in float32, against
 * the view's at its cursor: the same bits. */
static int view_is_run(const gt_view *v, const gt_model *m, const uint16_t *tok)
{
    gt_run r;
    gt_error e;
    if (run_init(&r, m, &e))
        return 0;
    for (size_t s = 0; s <= v->t; s++)
        run_step(&r, tok[s]);
    const size_t H = (size_t)m->hidden_max, G = (size_t)m->gates;
    int same = memcmp(v->g, run_gates(&r, v->layer), G * H * sizeof(float)) == 0 &&
               memcmp(v->c, run_c(&r, v->layer), H * sizeof(float)) == 0 &&
               memcmp(v->h, run_h(&r, v->layer), H * sizeof(float)) == 0;
    run_free(&r);
    return same;
}

/* < > { } a C Z: each changes the model the panels show, made again from the interventions
 * with the edits kept; the sort by importance comes from the background. */
static void test_interventions(gt_model *m, gt_text *t)
{
    gt_error e = {0};
    gt_data_interv ivs;
    gt_trace *tr;
    gt_view v;
    if (data_interv_init(&ivs, m, NULL, t, &e) || trace_open(&tr, &ivs.m, t, NULL, &e) ||
        view_init(&v, &ivs.m, t, tr, 1, &e)) {
        tap_ok(0, "interventions: the screen opens (%s)", e.msg);
        return;
    }
    v.ivs = &ivs;
    view_prepare(&v, 120, 40, &e);
    const int H = m->hidden_max;
    uint16_t tok[64];
    size_t T = t->steps < 64 ? t->steps : 64;
    memcpy(tok, t->tok, T * sizeof *tok);
    press_each(&v, "lllll");
    press(&v, "e");
    press(&v, "c");
    tok[5] = (uint16_t)model_token(m, 'c');
    press_each(&v, "lll");
    tap_ok(trace_edit_count(tr) == 1 && view_is_run(&v, m, tok), "an edit, then no intervention");

    gt_intervention want;
    gt_model mw;
    iv_init(&want, m, &e);
    press(&v, ">");
    iv_shift(&want, 1, -1, 0.5);
    iv_apply(&mw, m, &want, &e);
    tap_ok(ivs.iv.shift[(size_t)H + 3] == 0.5 && ivs.iv.shift[0] == 0 &&
               trace_edit_count(tr) == 1 && view_is_run(&v, &mw, tok),
           "> shifts layer 1's forget bias by 0.5; the edit is kept; the values are the "
           "changed model's");
    iv_model_free(&mw);
    press(&v, "j");
    press(&v, "{");
    press(&v, "{");
    iv_shift(&want, 1, v.unit, -1.0);
    iv_apply(&mw, m, &want, &e);
    tap_ok(ivs.iv.shift[(size_t)H + (size_t)v.unit] == -0.5 && view_is_run(&v, &mw, tok) &&
               strstr(ivs.what, "forget bias +0.5@1") && strstr(ivs.what, "-0.5@1:1"),
           "{ { shift the selected unit's by -1: %s", ivs.what);
    iv_model_free(&mw);
    press(&v, "<");
    press(&v, "}");
    press(&v, "}");
    tap_ok(!iv_any(&ivs.iv), "< and } } bring it back to none");
    press(&v, "a");
    tap_ok(ivs.iv.ablate[(size_t)H + (size_t)v.unit] && v.c[v.unit] == 0 && v.h[v.unit] == 0,
           "a ablates the selected unit: its c and h are 0");
    press(&v, "a");
    tap_ok(!iv_any(&ivs.iv) && view_is_run(&v, m, tok), "a again: back");
    press(&v, "C");
    int ones = 1;
    for (int j = 0; j < H; j++)
        ones &= v.g[H + j] == 1.0f;
    tap_ok(ivs.iv.carousel[1] && ones, "C: the carousel, f = 1 exactly on layer 1");
    /* its half-lives, all infinite, in the header's column: the gate rows' "∞" right under
       the "½" of "t½", as a number's last digit would be */
    char was[64];
    snprintf(was, sizeof was, "%s", setlocale(LC_CTYPE, NULL));
    int inf_col = -1, hl_col = -2, rows_inf = 0, rows_off = 0;
    gt_surface sf;
    if (setlocale(LC_CTYPE, "C.UTF-8") && surf_init(&sf, 120, 40, 1) == 0) {
        v.utf8 = 1;
        view_prepare(&v, 120, 40, &e);
        frame_draw(&sf, &v);
        const gt_rect g = v.lay.r[P_GATES];
        for (int y = g.y; y < g.y + g.h; y++)
            for (int x = g.x; x < g.x + g.w; x++) {
                const char *c = surf_cell(&sf, x, y)->s;
                if (strcmp(c, "\xc2\xbd") == 0)
                    hl_col = x;
                if (strcmp(c, "\xe2\x88\x9e") == 0) {
                    rows_inf++;
                    rows_off += inf_col >= 0 && x != inf_col;
                    inf_col = x;
                }
            }
        surf_free(&sf);
        v.utf8 = 0;
    }
    setlocale(LC_CTYPE, was);
    tap_ok(rows_inf > 0 && !rows_off && inf_col == hl_col,
           "C: every gate row's half-life \xe2\x88\x9e under the header's t\xc2\xbd (column %d, "
           "header %d, %d rows)", inf_col, hl_col, rows_inf);
    press(&v, "a");
    press(&v, "Z");
    tap_ok(!iv_any(&ivs.iv) && trace_edit_count(tr) == 1 && view_is_run(&v, m, tok) &&
               strstr(v.ui->msg, "removed"),
           "Z removes every intervention and keeps the edit");
    press(&v, "Z");
    tap_ok(strstr(v.ui->msg, "no interventions") != NULL, "Z with none: a message");
    press(&v, "0");
    tap_ok(v.t == 0, "0 still goes to the first step");

    while (v.ui->sort != SORT_IMPORTANCE)
        press(&v, "s");
    TAP_WAIT_WHILE(data_interv_busy(&ivs), view_tick(&v));
    view_prepare(&v, 120, 40, &e);
    gt_report_options o;
    report_options_init(&o);
    o.layer = 1;
    gt_importance im;
    int same = ivs.imp_known && importance_compute(&im, m, t->tok, t->steps, &o, &e) == 0;
    for (int j = 0; same && j < H; j++) /* the same numbers; the order of their float32 keys */
        same = ivs.imp[j] == im.unit_loss[j] - im.loss.nats &&
               (j == 0 || (float)ivs.imp[v.order[j - 1]] >= (float)ivs.imp[v.order[j]]);
    same = same && v.order[0] == im.order[0];
    if (ivs.imp_known)
        importance_free(&im);
    tap_ok(same,
           "s reaches the sort by importance, computed in the background: --importance's "
           "numbers, the most important unit first");
    iv_free(&want);
    view_free(&v);
    trace_close(tr);
    data_interv_free(&ivs);
}

/* An intervention far into a long text: the key returns at once, the states of the model
 * as changed computed in the background up to the cursor (the status line says so, the last
 * frame's values kept meanwhile), a key typed meanwhile moves the cursor, and once the pass
 * is there the values are the changed model's. */
static void test_intervention_background(gt_model *m)
{
    const size_t N = 1000000; /* far beyond what the trace computes at once on any machine */
    char *text = malloc(N);
    gt_text t;
    gt_error e = {0};
    gt_data_interv ivs;
    gt_trace *tr = NULL;
    gt_view v;
    for (size_t i = 0; text && i < N; i++)
        text[i] = "abc ab ca\n"[(i * 7 + i / 11) % 10];
    if (!text || text_from_memory(&t, "long.txt", text, N, m, &e) ||
        data_interv_init(&ivs, m, NULL, &t, &e) || trace_open(&tr, &ivs.m, &t, NULL, &e) ||
        view_init(&v, &ivs.m, &t, tr, 0, &e)) {
        tap_ok(0, "an intervention in the background: the screen opens (%s)", e.msg);
        free(text);
        return;
    }
    free(text);
    v.ivs = &ivs;
    view_seek(&v, N - 1);
    TAP_WAIT_WHILE(v.pending, view_tick(&v));
    view_prepare(&v, 120, 40, &e);
    const float before = v.g[m->hidden_max]; /* the forget gate of unit 0 at the cursor */
    trace_edit(tr, N - 50, (trace_token(tr, N - 50) + 1) % m->vocab, &e); /* an edit near */
    view_edits_changed(&v);
    view_prepare(&v, 120, 40, &e); /* the curves, computed with the frame */
    const int had_curves = v.pert.valid && v.pert.step == N - 50;
    press(&v, ">");
    int waited = v.pending && v.stale && v.t == N - 1 && v.g[m->hidden_max] == before &&
                 had_curves && v.edits_wait && !v.pert.valid;
    gt_surface s;
    int said = 0;
    if (surf_init(&s, 120, 40, 1) == 0) {
        frame_draw(&s, &v);
        char line[512] = "";
        for (int x = 0, n = 0; x < 120 && n < 500; x++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s", surf_cell(&s, x, 39)->s);
        said = strstr(line, "computing the states of the model as changed") != NULL;
        char title[512] = ""; /* the gate panel's title: the values are from before */
        const gt_rect g = v.lay.r[P_GATES];
        for (int x = 0, n = 0; x < 120 && n < 500; x++)
            n += snprintf(title + n, sizeof title - (size_t)n, "%s", surf_cell(&s, x, g.y)->s);
        said &= strstr(title, "as before the change") != NULL;
        surf_free(&s);
    }
    tap_ok(waited && said, "> at step 999,999 returns at once: the states of the changed model "
           "computed in the background, the status line saying so, the last values kept (the "
           "gate panel's title saying so), the edit's curves waiting for them too");
    press(&v, "h");
    tap_ok(v.pending && v.ui->t == N - 2 && v.t == N - 1,
           "a key meanwhile moves the cursor (to %zu) while the states are computed", v.ui->t);
    TAP_WAIT_WHILE(v.pending || v.edits_wait, view_tick(&v));
    view_prepare(&v, 120, 40, &e);
    uint16_t *tok = malloc(N * sizeof *tok);
    if (tok)
        trace_read(tr, 0, N, tok);
    tap_ok(v.pert.valid && v.pert.step == N - 50 && !v.edits_wait,
           "and the edit's curves once the pass has reached it");
    tap_ok(tok && !v.pending && !v.stale && v.t == N - 2 && view_is_run(&v, &ivs.m, tok) &&
               v.g[m->hidden_max] != before,
           "then the values at the cursor are the changed model's");
    free(tok);
    view_free(&v);
    trace_close(tr);
    data_interv_free(&ivs);
    text_free(&t);
}

int main(void)
{
    char dir[] = "/tmp/t_keys.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "%s/m.safetensors", dir);
    write_model(path, "\\n abc");
    tk = termkey_new_abstract("xterm", TERMKEY_FLAG_UTF8);
    if (chdir(dir) != 0) /* w writes the edited text here */
        return 1;
    test_translation();

    gt_error e = {0};
    gt_model m;
    gt_text t;
    const char *text = "abc abc\nab ca ba cab\nabcabc  abc\n";
    if (model_load(&m, path, NULL, &e) || text_from_memory(&t, "t.txt", text, strlen(text), &m, &e)) {
        printf("# %s\n", e.msg);
        return 1;
    }
    gt_trace *tr;
    gt_view v;
    trace_open(&tr, &m, &t, NULL, &e);
    view_init(&v, &m, &t, tr, 0, &e);
    view_prepare(&v, 120, 40, &e);
    test_moving(&v);
    test_units(&v);
    test_prompts(&v);
    test_edits(&v);
    test_all_edits(&v);
    test_figure(&v);
    test_ratio_k(&v);
    test_stats_view(&v);
    test_report_go(&m);
    test_unit_table(&v);
    test_jacobian_view(&v, &m, &t);
    test_more_keys(&v);
    test_mouse(&v);
    test_help_and_quit(&v);
    test_edited_text(dir);
    test_interventions(&m, &t);
    test_intervention_background(&m);
    test_models(&m, &t);
    test_models_clear(&m, &t, dir);
    test_models_cells(&m, &t, dir);

    termkey_destroy(tk);
    view_free(&v);
    trace_close(tr);
    text_free(&t);
    model_free(&m);
    unlink(path);
    unlink("t-edited.txt");
    unlink("t-edited-2.txt");
    unlink("t-edited.edits.txt");
    unlink("t-edited-2.edits.txt");
    rmdir(dir);
    return tap_done();
}
