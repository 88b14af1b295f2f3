/* Golden frames of what the keys bring up, each compared cell by cell (its character and its
 * role) with tests/golden/frames/keys/NAME.txt: the status line's hints in each place (the panels,
 * after an edit, the difference, a selection), the help box page by page, every prompt and
 * the keys that wait for a second one (o, M, '), and each sheet over the panels (the
 * report's tables, the unit table, a unit's profile, the derivative) as its keys scroll and
 * sort it, in UTF-8 and in ASCII, with one model and with two (the table that compares
 * them). A two-layer LSTM of 40 units over a text of 1,320 steps; every frame is drawn once
 * what it shows is computed (nothing waits in the background). The derivative's line that
 * says how long it took has its digits as # (a time, not a value).
 * After a deliberate change to what these frames show, make them again with
 *     tests/golden/t_sheets --regen
 * (from the top of a built tree) and read the difference (git diff tests/golden/frames/keys)
 * before committing it. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/trace.h"
#include "screen/frame.h"
#include "screen/keys.h"
#include "screen/models.h"
#include "screen/view.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

static gt_surface surf;
static int last_cols = 100, last_rows = 30; /* the size of the last frame */
static const char *golden_dir;
static int regen;

/* Whether cell x of row y is a digit of a time: digits (or a point) up to " ms". */
static int in_time(int x, int y)
{
    const gt_cell *c = surf_cell(&surf, x, y);
    if (!((c->s[0] >= '0' && c->s[0] <= '9') || c->s[0] == '.') || c->s[1])
        return 0;
    while (x < surf.w && ((surf_cell(&surf, x, y)->s[0] >= '0' &&
                           surf_cell(&surf, x, y)->s[0] <= '9') ||
                          surf_cell(&surf, x, y)->s[0] == '.'))
        x++;
    return x + 2 < surf.w && !strcmp(surf_cell(&surf, x, y)->s, " ") &&
           !strcmp(surf_cell(&surf, x + 1, y)->s, "m") && !strcmp(surf_cell(&surf, x + 2, y)->s, "s");
}

/* The frame as text: its rows, then its roles (a letter per cell, 'a' + role), each without
 * its trailing blanks (plain cells). A time's digits before " ms" are one # in both. */
static void frame_text(char *out, size_t n)
{
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            k += (size_t)snprintf(out + k, n - k, "--- roles\n");
        for (int y = 0; y < surf.h && k + 8 * (size_t)surf.w + 16 < n; y++) {
            size_t keep = k;
            for (int x = 0; x < surf.w; x++) {
                const gt_cell *c = surf_cell(&surf, x, y);
                if (in_time(x, y) && x > 0 && in_time(x - 1, y))
                    continue; /* a time: its first digit stands for all */
                if (pass) {
                    out[k++] = (char)('a' + c->role);
                    keep = c->role != R_NORMAL ? k : keep;
                    continue;
                }
                const char *g = in_time(x, y) ? "#" : c->s;
                memcpy(out + k, g, strlen(g));
                k += strlen(g);
                if (g[0] && strcmp(g, " "))
                    keep = k;
            }
            k = keep;
            out[k++] = '\n';
        }
    }
    out[k] = 0;
}

/* The frame against tests/golden/frames/keys/NAME.txt (or written there with --regen). */
static void golden(const char *name, const char *what)
{
    static char got[1 << 20], want[1 << 20];
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", golden_dir, name);
    frame_text(got, sizeof got);
    if (regen) {
        FILE *f = fopen(path, "wb");
        int ok = f && fputs(got, f) >= 0;
        if (f)
            ok = fclose(f) == 0 && ok;
        tap_ok(ok, "%s: written to %s", name, path);
        return;
    }
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(want, 1, sizeof want - 1, f) : 0;
    if (f)
        fclose(f);
    want[n] = 0;
    int same = f && strcmp(got, want) == 0;
    tap_ok(same, "%s: %s, as %s", name, what, path);
    if (same)
        return;
    /* the first rows that differ */
    const char *a = got, *b = want;
    for (int line = 1, shown = 0; *a && shown < 4; line++) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
        if (la != lb || strncmp(a, b, la)) {
            printf("# line %d\n#  want: %.*s\n#  got:  %.*s\n", line, (int)lb, b, (int)la, a);
            shown++;
        }
        a = ea ? ea + 1 : a + la;
        b = eb ? eb + 1 : b + lb;
    }
}

/* Prepares the shown view at cols x rows until nothing it shows is computing, then draws
 * it into surf. */
static void settle(gt_models *ms, int cols, int rows, int utf8)
{
    gt_error e = {0};
    gt_view *v = models_view(ms);
    view_prepare(v, cols, rows, &e);
    TAP_WAIT_WHILE(models_busy(ms),
                   (models_tick(ms), view_prepare(models_view(ms), cols, rows, &e)));
    surf_free(&surf);
    surf_init(&surf, cols, rows, utf8);
    v = models_view(ms);
    v->utf8 = utf8;
    view_prepare(v, cols, rows, &e);
    frame_draw(&surf, v);
    v->utf8 = 1;
    last_cols = cols;
    last_rows = rows;
}

static void shot(gt_models *ms, const char *name, int cols, int rows, int utf8,
                 const char *what)
{
    settle(ms, cols, rows, utf8);
    golden(name, what);
}

/* A key, then the view prepared for the last frame's size, as the screen does after each
 * key it reads. */
static void press(gt_models *ms, gt_keysym sym, uint32_t cp, int shift)
{
    gt_key k = {sym, cp, 0, shift, 0, 0};
    gt_error e = {0};
    keys_handle_models(ms, &k);
    view_prepare(models_view(ms), last_cols, last_rows, &e);
}

static void type(gt_models *ms, const char *s)
{
    for (; *s; s++)
        press(ms, *s == '\n' ? K_ENTER : *s == 27 ? K_ESC : K_CHAR, (unsigned char)*s, 0);
}

/* The status line's hints and messages, the help, the prompts and the keys that wait. */
static void panels_and_prompts(gt_models *ms)
{
    shot(ms, "panels-100x30", 100, 30, 1, "the panels' hints");
    shot(ms, "panels-80x24-ascii", 80, 24, 0, "in ASCII at 80x24");
    type(ms, "?");
    for (int page = 0; page < 4; page++) {
        char name[64];
        snprintf(name, sizeof name, "help-80x24-%d", page);
        shot(ms, name, 80, 24, 1, "the help box, a page at a time");
        press(ms, K_PGDN, 0, 0);
    }
    shot(ms, "help-120x40-end", 120, 40, 1, "the help's end at 120x40");
    type(ms, "x?");
    shot(ms, "help-100x30-ascii", 100, 30, 0, "the help in ASCII");
    type(ms, "xg12");
    shot(ms, "prompt-goto", 100, 30, 1, "g and a step typed");
    type(ms, "\033/ab");
    shot(ms, "prompt-search", 100, 30, 1, "/ and a string typed");
    type(ms, "\033#3");
    shot(ms, "prompt-unit", 100, 30, 1, "# and a unit typed");
    type(ms, "\033ma+b");
    shot(ms, "prompt-match", 100, 30, 1, "m and an expression typed");
    type(ms, "\033e");
    shot(ms, "prompt-edit", 100, 30, 1, "e");
    type(ms, "\n");
    shot(ms, "prompt-edit-newline", 100, 30, 1, "e and Enter once");
    type(ms, "\033o");
    shot(ms, "pending-order", 100, 30, 1, "o waits for the order");
    type(ms, "zM");
    shot(ms, "pending-mark", 100, 30, 1, "M waits for a letter");
    type(ms, "b'");
    shot(ms, "pending-quote", 100, 30, 1, "' waits for ' or a letter");
    type(ms, "b");
    shot(ms, "mark-went", 100, 30, 1, "'b goes to mark b");
    type(ms, "v");
    shot(ms, "select", 100, 30, 1, "v: a selection's hints");
    type(ms, "\033");
    press(ms, K_RIGHT, 0, 0);
    type(ms, "ex");
    shot(ms, "edited-100x30", 100, 30, 1, "an edit: its hints and its perturbation");
    type(ms, "d");
    shot(ms, "difference-100x30", 100, 30, 1, "d: the difference and its hint");
    type(ms, "d");
}

/* Each sheet over the panels, its keys, and going from one to another. */
static void sheets(gt_models *ms)
{
    type(ms, "r");
    shot(ms, "report-100x30", 100, 30, 1, "r: the report's tables");
    shot(ms, "report-200x60", 200, 60, 1, "at 200x60 in two columns");
    shot(ms, "report-80x24-ascii", 80, 24, 0, "at 80x24 in ASCII");
    type(ms, "jjj");
    press(ms, K_PGDN, 0, 0);
    shot(ms, "report-scrolled", 100, 30, 1, "scrolled by three lines and a page");
    for (int i = 0; i < 20; i++)
        type(ms, "j");
    press(ms, K_ENTER, 0, 0);
    shot(ms, "report-enter", 100, 30, 1, "Enter on the windows' table");
    type(ms, "]");
    shot(ms, "report-layer1", 100, 30, 1, "] : layer 1's tables");
    type(ms, "[U");
    shot(ms, "units-100x30", 100, 30, 1, "U over the report: the unit table");
    type(ms, "lls");
    press(ms, K_DOWN, 0, 0);
    type(ms, "jj");
    shot(ms, "units-sorted", 100, 30, 1, "sorted by another column, reversed, row 4");
    shot(ms, "units-64x22-ascii", 64, 22, 0, "at 64x22 in ASCII");
    press(ms, K_ENTER, 0, 0);
    shot(ms, "units-enter", 100, 30, 1, "Enter: the row's unit selected, the table closed");
    type(ms, "p");
    shot(ms, "profile-100x30", 100, 30, 1, "p: the unit's profile");
    type(ms, "jjjj");
    shot(ms, "profile-scrolled", 100, 30, 1, "scrolled");
    press(ms, K_ENTER, 0, 0);
    shot(ms, "profile-enter", 100, 30, 1, "Enter: to the step marked");
    type(ms, "D");
    shot(ms, "derivative-120x40", 120, 40, 1, "D over the profile: the derivative");
    type(ms, "-");
    press(ms, K_DOWN, 0, 0);
    shot(ms, "derivative-K16", 120, 40, 1, "- halves its K, the next unit");
    shot(ms, "derivative-80x24-ascii", 80, 24, 0, "at 80x24 in ASCII");
    type(ms, "v");
    shot(ms, "derivative-select", 120, 40, 1, "v over the derivative");
    type(ms, "\033\033");
    shot(ms, "derivative-esc", 120, 40, 1, "Esc closes the derivative, Esc again ends the selection");
}

/* While the effect computes, the status line's deltas over the windows complete so far, as
 * the child's notes give them (data_effect_tick): here the result's, said of 3 windows of
 * 11, drawn in both forms; then the result again. */
static void effect_so_far(gt_models *ms)
{
    gt_view *v = models_view(ms);
    gt_data_effect *d = &v->effect;
    const int state = d->state;
    d->state = EFFECT_COMPUTING;
    d->part_in = d->in;
    d->part_out = d->out;
    d->part_done = 3;
    d->part_windows = 11;
    const int size[2][3] = {{100, 30, 1}, {80, 24, 0}};
    for (int i = 0; i < 2; i++) {
        surf_free(&surf);
        surf_init(&surf, size[i][0], size[i][1], size[i][2]);
        v->utf8 = size[i][2];
        frame_draw(&surf, v);
        v->utf8 = 1;
        golden(i ? "effect-so-far-80x24-ascii" : "effect-so-far-100x30",
               i ? "the shorter form" : "while it computes: the deltas over 3 windows of 11");
    }
    d->state = state;
    d->part_done = d->part_windows = 0;
}

/* The carriers of the edit made above (B), and the effect of an ablation where a hypothesis
 * holds: its status line, its sheet (I), Esc stopping it, and the sheet without an
 * intervention. */
static void causes(gt_models *ms)
{
    type(ms, "B");
    shot(ms, "carriers-100x30", 100, 30, 1, "B: every unit by what it carries of the edit");
    type(ms, "jjj");
    shot(ms, "carriers-80x24-ascii", 80, 24, 0, "scrolled, at 80x24 in ASCII");
    type(ms, "B");
    shot(ms, "carriers-closed", 100, 30, 1, "B again: the panels, the carried-by line");
    type(ms, "ma\n");
    type(ms, "alh");
    shot(ms, "effect-status-100x30", 100, 30, 1, "m a, a, a step on and back: the deltas in the status line");
    shot(ms, "effect-status-80x24-ascii", 80, 24, 0, "at 80x24 in ASCII: the shorter form");
    effect_so_far(ms);
    type(ms, "I");
    shot(ms, "effect-100x30", 100, 30, 1, "I: the effect's table with its controls");
    type(ms, "J");
    shot(ms, "effect-80x24-ascii", 80, 24, 0, "a page on, at 80x24 in ASCII");
    type(ms, "I>");
    gt_view *v = models_view(ms);
    const int was_busy = data_effect_busy(&v->effect);
    press(ms, K_ESC, 0, 0);
    tap_ok(was_busy && v->effect.state == EFFECT_STOPPED && !data_effect_busy(&v->effect),
           "Esc stops the effect's computation (it was running: %d)", was_busy);
    shot(ms, "effect-stopped", 100, 30, 1, "I closed, >, Esc: the effect stopped");
    type(ms, "I");
    shot(ms, "effect-again", 100, 30, 1, "I: computed again for the ablation and the bias");
    type(ms, "Z");
    shot(ms, "effect-none", 100, 30, 1, "Z: no intervention, the sheet says what it needs");
    type(ms, "\033");
}

/* Two models: the report's table that compares them, scrolled, one model's whole report. */
static void two_models(gt_models *ms)
{
    type(ms, "r");
    shot(ms, "models-report-100x30", 100, 30, 1, "two models: r, the table comparing them");
    shot(ms, "models-report-80x24", 80, 24, 1, "at 80x24 one model's column");
    press(ms, K_RIGHT, 0, 0);
    shot(ms, "models-report-right", 80, 24, 1, "-> the next model's column");
    press(ms, K_ENTER, 0, 0);
    shot(ms, "models-report-one", 80, 24, 1, "Enter: the model shown's whole report");
    press(ms, K_TAB, 0, 0);
    shot(ms, "models-report-tab", 80, 24, 1, "Tab: the other model's");
    type(ms, "U");
    shot(ms, "models-units", 100, 30, 1, "U: the unit table of the model shown");
    type(ms, "\033");
}

int main(int argc, char **argv)
{
    if (!tap_utf8_locale())
        return 0;
    regen = argc > 1 && strcmp(argv[1], "--regen") == 0;
    const char *top = getenv("top_srcdir");
    static char gdir[1024], cwd[512];
    if (!getcwd(cwd, sizeof cwd))
        return 1;
    top = top ? top : ".";
    snprintf(gdir, sizeof gdir, "%s%s%s/tests/golden/frames/keys", top[0] == '/' ? "" : cwd,
             top[0] == '/' ? "" : "/", top);
    golden_dir = gdir;
    char dir[] = "/tmp/t_sheets.XXXXXX", path[256];
    if (stw_lstm40_dir(dir, path, sizeof path, 2, 2024) != 0)
        return 1;
    static char text[2000];
    size_t n = stw_lstm40_text(text, sizeof text);
    gt_error e = {0};
    gt_model m;
    gt_text t;
    if (model_load(&m, "m.safetensors", NULL, &e) || text_from_memory(&t, "t.txt", text, n, &m, &e)) {
        printf("Bail out! %s\n", e.msg);
        return 1;
    }
    gt_model two[2] = {m, m};
    for (int k = 1; k <= 2; k++) {
        gt_session sn;
        gt_models ms;
        if (session_borrow(&sn, two, k, &t, &e) || models_open(&ms, &sn, 1, 0, 1, &e)) {
            printf("Bail out! %s\n", e.msg);
            return 1;
        }
        ms.ui.pass_wanted = 1;
        trace_pass_start(ms.tr[0], t.steps, NULL);
        view_seek(models_view(&ms), 600);
        if (k == 1) {
            panels_and_prompts(&ms);
            sheets(&ms);
            causes(&ms);
        } else {
            two_models(&ms);
        }
        models_close(&ms);
        session_close(&sn);
    }
    surf_free(&surf);
    text_free(&t);
    model_free(&m);
    unlink(path);
    rmdir(dir);
    return tap_done();
}
