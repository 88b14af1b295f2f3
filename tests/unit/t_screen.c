/* The screen drawn without a terminal: a view of a one-layer LSTM of 40 units over a text of
 * 1,320 steps, its frames drawn into a surface at the sizes that matter (64x22, 80x24,
 * 120x40, 200x60) and read back cell by cell: the selection's column, unknown differences,
 * the help box, the gate panel's range, the report's tables after a resize, three models'
 * table over the panels at 80 and 200 columns scrolled sideways, the go-to prompt's
 * numbers, the orders of s, the roles' looks without colour and in 8 colours, the
 * background pass's progress after an edit, and the text strip's rows (words whole, steady
 * as the cursor moves, clicks finding what is drawn). */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/trace.h"
#include "screen/frame.h"
#include "screen/keys.h"
#include "screen/keys_mouse.h"
#include "screen/models.h"
#include "screen/panel_frame.h"
#include "screen/view.h"
#include "screen/sheets.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"
#include "../lib/stwrite.h"
#include "term/term.h"
#include "../lib/tap.h"

enum { H = 40 };

static gt_surface surf;

/* The frame of the view at cols x rows, in surf (UTF-8 glyphs). */
static void draw(gt_view *v, int cols, int rows)
{
    gt_error e = {0};
    surf_free(&surf);
    surf_init(&surf, cols, rows, 1);
    view_prepare(v, cols, rows, &e);
    frame_draw(&surf, v);
}

/* The column (from 0) where needle starts in row y of the frame, or -1. */
static int frame_col(int y, const char *needle)
{
    char row[4096];
    surf_row_text(&surf, y, row, sizeof row);
    const char *p = strstr(row, needle);
    return p ? (int)(p - row) : -1;
}

/* Whether any row of the frame contains needle. */
static int frame_has(const char *needle)
{
    char row[4096];
    for (int y = 0; y < surf.h; y++) {
        surf_row_text(&surf, y, row, sizeof row);
        if (strstr(row, needle))
            return 1;
    }
    return 0;
}

static gt_act key(gt_view *v, gt_keysym sym, uint32_t cp)
{
    gt_key k = {sym, cp, 0, 0, 0, 0};
    gt_act a = keys_handle(v, &k);
    gt_error e = {0};
    view_prepare(v, v->lay.cols, v->lay.rows, &e);
    return a;
}

static void type(gt_view *v, const char *s)
{
    for (; *s; s++)
        key(v, *s == '\n' ? K_ENTER : K_CHAR, (unsigned char)*s);
}

/* Only the selected unit's row has the selection's role in the column before the numbers. */
static void test_selection_column(gt_view *v)
{
    v->ui->unit = 3;
    draw(v, 120, 40);
    gt_rect g = v->lay.r[P_GATES];
    int selected = 0, others = 0, rows = 0;
    for (int y = g.y + 2; y < g.y + g.h; y++) {
        char row[512];
        surf_row_text(&surf, y, row, sizeof row);
        if (!row[0])
            continue;
        rows++;
        int sel = strncmp(row, "▶", strlen("▶")) == 0;
        int role = surf_cell(&surf, 0, y)->role;
        selected += sel && role == R_SELECTED;
        if (getenv("T_SCREEN_DEBUG") && !sel && role == R_SELECTED)
            printf("# %d: %s\n", y, row);
        others += !sel && role == R_SELECTED;
    }
    tap_ok(rows > 20 && selected == 1 && others == 0,
           "the selection's colour in column 0 of the selected row only (%d of %d rows)", others,
           rows);
}

/* The difference far past the edit: ? where it is not known, never nan. */
static void test_unknown_difference(gt_view *v)
{
    gt_error e = {0};
    v->ui->t = v->t = 1;
    int tok = (trace_token(v->tr, 1) + 1) % v->m->vocab;
    tap_ok(trace_edit(v->tr, 1, tok, &e) == 0, "an edit at step 1");
    view_edits_changed(v);
    tap_ok(view_set_diff(v, 1, &e) == 0 && v->ui->diff, "the difference on");
    view_seek(v, 1300);
    TAP_WAIT_WHILE(v->pending, view_tick(v));
    draw(v, 120, 40);
    tap_ok(!v->diff_known && !frame_has("nan") && !frame_has("NaN") && frame_has("?"),
           "1,299 steps after the edit: ? where the difference is not known, no nan");
    view_set_diff(v, 0, &e);
    trace_undo(v->tr, NULL);
    view_edits_changed(v);
}

/* The help box: within the frame, no text against its right edge (nothing cut), and every
 * key of the manual's list somewhere as it scrolls. */
static void test_help(gt_view *v)
{
    static const char *const need[] = {"G", "Space", "=", "Shift-↑", "^L", "^C", "t½"};
    static const int sizes[][2] = {{64, 22}, {80, 24}, {120, 40}};
    for (int z = 0; z < 3; z++) {
        int cols = sizes[z][0], rows = sizes[z][1];
        draw(v, cols, rows);
        key(v, K_CHAR, '?');
        draw(v, cols, rows);
        /* it opens on the step keys: the first row of the box that names a key */
        char first[1024] = "";
        for (int y = 0; y < rows && !first[0]; y++) {
            char row[1024];
            surf_row_text(&surf, y, row, sizeof row);
            if (strstr(row, "│ ") && !strstr(row, "help") && strlen(row) > 8)
                snprintf(first, sizeof first, "%s", row);
        }
        tap_ok(strstr(first, "← → h l") != NULL,
               "help at %dx%d opens on the step keys (its first line: %s)", cols, rows, first);
        int found[7] = {0}, cut = 0, pages = 0, last = -1;
        while (v->ui->input == INPUT_HELP && v->ui->help_scroll != last && pages < 100) {
            last = v->ui->help_scroll;
            draw(v, cols, rows);
            pages++;
            for (int y = 0; y < rows; y++) {
                char row[1024];
                surf_row_text(&surf, y, row, sizeof row);
                for (int i = 0; i < 7; i++)
                    found[i] |= strstr(row, need[i]) != NULL;
                /* a row of the box: text up to one space before its right border */
                int right = -1;
                for (int x = 2; x < cols; x++)
                    if (strcmp(surf_cell(&surf, x, y)->s, "│") == 0 &&
                        surf_cell(&surf, x, y)->role == R_TITLE)
                        right = x;
                cut += right > 0 && surf_cell(&surf, right - 1, y)->s[0] != ' ' &&
                       surf_cell(&surf, right - 1, y)->role != R_TITLE;
            }
            key(v, K_DOWN, 0);
        }
        int all = 1;
        for (int i = 0; i < 7; i++) {
            all &= found[i];
            if (!found[i])
                printf("# not found: %s\n", need[i]);
        }
        tap_ok(all && !cut, "help at %dx%d: every key found over %d scroll positions, %d rows cut",
               cols, rows, pages, cut);
        tap_ok(key(v, K_CHAR, 'x') == ACT_REDRAW && v->ui->input != INPUT_HELP,
               "a key other than an arrow closes it");
    }
}

/* The gate panel's title gives the units its rows show, as they number them. */
static void test_unit_range(gt_view *v)
{
    v->ui->sort = SORT_INDEX;
    v->ui->sort_reverse = 0;
    v->ui->unit = 30;
    draw(v, 64, 22);
    int page = view_units_per_page(v);
    char want[64];
    snprintf(want, sizeof want, "units %d-%d of %d", v->order[v->ui->top],
             v->order[v->ui->top + page - 1], H);
    char row[512];
    surf_row_text(&surf, v->lay.r[P_GATES].y + 2, row, sizeof row);
    char first[16];
    snprintf(first, sizeof first, "%d", v->order[v->ui->top]);
    tap_ok(v->ui->top > 0 && frame_has(want) && strstr(row, first),
           "the title's range (%s) is the units of the first and last rows", want);
}

/* The gate panel's note says which rows are shown whatever the order, from 80 columns on
 * (where title and note do not both fit the title is shortened: "by |c|, highest first"
 * over rows 134-161 without the note misled); below, where the note is left out, the title
 * does not say "highest first" (the selected unit the last of the order, so that the rows
 * shown are not the first); every order, and each reversed. */
static void test_range_note(gt_view *v)
{
    int missing = 0, tried = 0, missing_cols = 0, claims = 0;
    for (int o = 0; o < 2 * SORT_COUNT; o++) { /* each order, then each reversed */
        if (o % SORT_COUNT == SORT_IMPORTANCE || o % SORT_COUNT == SORT_MEAN)
            continue;
        v->ui->sort = (gt_sort)(o % SORT_COUNT);
        v->ui->sort_reverse = o >= SORT_COUNT;
        for (int cols = 64; cols <= 200; cols++) {
            draw(v, cols, 30);
            v->ui->unit = v->order[H - 1];
            draw(v, cols, 30);
            char row[1024], want[64];
            surf_row_text(&surf, v->lay.r[P_GATES].y, row, sizeof row);
            const int page = view_units_per_page(v), top = v->ui->top;
            const int index = o % SORT_COUNT == SORT_INDEX, end = top + page < H ? top + page : H;
            const int a = index ? v->order[top] : top + 1, b = index ? v->order[end - 1] : end;
            snprintf(want, sizeof want, "%s %d-%d of %d", index ? "units" : "rows", a, b, H);
            char shortform[64]; /* where the note does not fit whole: 23-40/256 */
            snprintf(shortform, sizeof shortform, " %d-%d/%d ", a, b, H);
            const int has = top > 0 && (strstr(row, want) || strstr(row, shortform));
            tried++;
            if (!has && cols >= 80) {
                missing++;
                missing_cols = cols;
            }
            claims += !has && strstr(row, "highest first") != NULL;
        }
    }
    tap_ok(tried > 0 && missing == 0 && claims == 0,
           "the rows shown in the gate panel's note in every order from 80 columns (%d of %d "
           "without it, the last at %d columns); without it, no \"highest first\" (%d)",
           missing, tried, missing_cols, claims);
    v->ui->sort = SORT_INDEX;
    v->ui->sort_reverse = 0;
}

/* Too small a terminal: the notice in whole words at every size where its words fit (the
 * shorter form where the full one does not), nothing cut mid-word. */
static void test_too_small(gt_view *v)
{
    static const struct {
        int cols, rows;
        const char *want[5];
    } at[] = {
        {40, 10, {"terminal too small", "40x10: gatetui needs 64x22", "q quits"}},
        {20, 6, {"terminal too small", "20x6: gatetui needs", "64x22", "q quits"}},
        {10, 5, {"too small:", "10x5,", "needs", "64x22; q", "quits"}},
        {12, 5, {"too small:", "12x5, needs", "64x22; q", "quits"}},
    };
    _Static_assert(LAYOUT_MIN_COLS == 64 && LAYOUT_MIN_ROWS == 22, "the notices below name 64x22");
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        draw(v, at[i].cols, at[i].rows);
        int y = 0, bad = 0;
        char row[256];
        for (int k = 0; k < 5 && at[i].want[k]; k++) { /* each line in turn, alone on its row */
            while (y < surf.h && frame_col(y, at[i].want[k]) < 0)
                y++;
            if (y >= surf.h) {
                printf("# %dx%d: no row holds \"%s\"\n", at[i].cols, at[i].rows, at[i].want[k]);
                bad = 1;
                break;
            }
            surf_row_text(&surf, y, row, sizeof row);
            size_t end = strlen(row);
            while (end && row[end - 1] == ' ')
                end--;
            row[end] = 0;
            if (strcmp(row + strspn(row, " "), at[i].want[k]) != 0) {
                printf("# %dx%d: row %d is \"%s\", not \"%s\"\n", at[i].cols, at[i].rows, y,
                       row, at[i].want[k]);
                bad = 1;
            }
            y++;
        }
        tap_ok(!bad, "%dx%d: the notice in whole words, line by line", at[i].cols, at[i].rows);
    }
    draw(v, 120, 40);
}

/* After a resize to a larger screen the report's sheet's scroll is where its end is in view. */
static void test_stats_resize(gt_view *v)
{
    gt_data_stats *sv = &v->stats;
    size_t n = 0;
    char *text = malloc(200 * 48);
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(text + n, "table line %3d of two hundred\n", i);
    free(sv->text[0]);
    sv->text[0] = text;
    sv->lines[0] = 200;
    sv->width[0] = 30;
    v->ui->sheet = &sheet_report; /* up over the tables planted here: nothing computed */
    draw(v, 64, 22);
    for (int i = 0; i < 100; i++)
        key(v, K_PGDN, 0);
    int small_end = sheet_report_ui(v)->scroll;
    draw(v, 200, 60);
    const int scrolled = sheet_report_ui(v)->scroll;
    tap_ok(small_end > 0 && scrolled == sheet_report_max_scroll(v) && scrolled < small_end &&
               frame_has("table line 199"),
           "the report's sheet scrolled to its end at 64x22 (%d), then 200x60: scroll %d, its "
           "end shown",
           small_end, scrolled);
    v->ui->sheet = NULL;
}

/* The stats view shows the report's text with its intervals where their lines fit, else the
 * same lines without them, the note saying from how wide they show. */
static void test_stats_intervals(gt_view *v)
{
    gt_data_stats *sv = &v->stats;
    const char *ci = "gates\nhalf-life   10.4   2.9   3.8   9.5   with intervals [9.5, 11.4] "
                     "[2.7, 3.1]\nunits\n";
    free(sv->text[0]);
    free(sv->raw[0]);
    free(sv->bare[0]);
    sv->text[0] = strdup(ci);
    sv->raw[0] = strdup(ci);
    sv->bare[0] = strdup("gates\nhalf-life   10.4   2.9   3.8   9.5   (a wider view)\nunits\n");
    sv->lines[0] = 3;
    sv->width[0] = sv->ci_width[0] = 73;
    sv->wrap_at[0] = -1; /* not yet fitted to a width */
    v->ui->sheet = &sheet_report;
    sheet_report_ui(v)->scroll = 0;
    draw(v, 100, 30);
    int wide = frame_has("[9.5, 11.4] [2.7, 3.1]") && !frame_has("(a wider view)");
    draw(v, 70, 30);
    tap_ok(wide && frame_has("9.5   (a wider view)") && !frame_has("[9.5") &&
               frame_has("95% intervals from 74 columns") && frame_has(" units"),
           "stats view: the intervals at 100 columns; at 70 the same lines without them, the "
           "note saying from how wide they show");
    v->ui->sheet = NULL;
}

/* The unit numbers the unit table's rows show, top down, into units[]; the rows' count. The
 * selected row's index in *sel (-1: none, -2: more than one). */
static int table_rows(const gt_view *v, int *units, int *sel, char measured[][16])
{
    gt_rect g = v->lay.r[P_GATES];
    int n = 0;
    *sel = -1;
    for (int y = g.y + 2; y < g.y + g.h && n < H; y++) {
        char row[1024];
        surf_row_text(&surf, y, row, sizeof row);
        if (sscanf(row, "%d", &units[n]) != 1)
            break;
        if (measured) /* the seventh column: t½ meas (three gates' means before it) */
            snprintf(measured[n], 16, "%.8s", row + 6 * 9);
        if (surf_cell(&surf, 1, y)->role == R_SELECTED)
            *sel = *sel == -1 ? n : -2;
        n++;
    }
    return n;
}

/* The unit table's sheet of rows made here (the report's would wait for a child): its
 * columns named, the rows in the order of the column chosen (largest first, a measured
 * half-life past K longest), the selected row marked and kept in sight, s reversing, Enter
 * selecting the unit on the panels; drawing changes nothing; the panels' order by the mean
 * carry gate is the table's. */
static void test_unit_table(gt_view *v)
{
    gt_data_stats *sv = &v->stats;
    gt_unit_row *rows = calloc(H, sizeof *rows);
    for (int j = 0; j < H; j++) {
        rows[j].mean[0] = 0.5;
        rows[j].mean[1] = (double)((j * 7) % H) / H; /* a permutation of the units */
        rows[j].mean[2] = 0.25;
        rows[j].halflife = j;
        rows[j].halflife_bias = H - j;
        rows[j].halflife_measured = j % 5 == 0 ? NAN : (double)((j * 13) % H) + 0.5;
        rows[j].measured_ci = (gt_interval){rows[j].halflife_measured - 0.25,
                                            j % 3 ? rows[j].halflife_measured + 0.25 : NAN,
                                            j % 5 != 0, j % 5 == 0};
    }
    free(sv->units[0]);
    sv->units[0] = rows;
    sv->ngates = 3, sv->carry = 1, sv->K = 64;
    snprintf(sv->gate_name[0], 4, "i"), snprintf(sv->gate_name[1], 4, "f");
    snprintf(sv->gate_name[2], 4, "o");
    v->ui->layer = 0;
    draw(v, 120, 40);
    key(v, K_CHAR, 'U');
    for (int i = 0; i < 6; i++) /* unit, mean i f o, t½ gate, t½ bias: to t½ meas */
        key(v, K_RIGHT, 0);
    draw(v, 120, 40);
    int units[H], sel, n, want[H], w = 0, bad = 0;
    char meas[H][16];
    n = table_rows(v, units, &sel, meas);
    for (int j = 0; j < H; j += 5) /* past K first, by unit */
        want[w++] = j;
    for (int r = H - 1; r >= 0; r--) /* then measured (13 j mod H) + 0.5, largest first */
        for (int j = 0; j < H; j++)
            if (j % 5 && (j * 13) % H == r)
                want[w++] = j;
    for (int i = 0; i < n; i++)
        bad += units[i] != want[i];
    tap_ok(sheet_up(v, &sheet_units) && frame_has("t½ meas▼") && frame_has("mean f") &&
               frame_has("t½ bias") && frame_has("right") && n == sheet_units_page(v) && bad == 0 &&
               sel == 0 &&
               strstr(meas[0], "> 64") && frame_has("by t½ meas▼"),
           "U: the unit table by the measured half-life, past K first, row 1 selected (%d rows, %d "
           "out of order, selected %d)", n, bad, sel);
    /* the measured half-life's interval beside it: unit 2 (26.5 [26.25, 26.75]), unit 3's
       upper end open (39.5 [39.25, > 64]), past K none; left out at 90 columns, saying so */
    int y2 = -1, y3 = -1;
    for (int y = 0; y < 40; y++) {
        char row[4096];
        surf_row_text(&surf, y, row, sizeof row);
        y2 = strstr(row, "26.50  [26.25, 26.75]") ? y : y2;
        y3 = strstr(row, "39.50   [39.25, > 64]") ? y : y3;
    }
    tap_ok(frame_has("t½ meas▼    95% interval") && y2 > 0 && y3 > 0 &&
               frame_col(y2, "[26.25, 26.75]") + 14 == frame_col(y3, "[39.25, > 64]") + 13 &&
               frame_has("> 64               -"),
           "U at 120: each measured half-life's 95%% interval beside it, right-aligned");
    /* narrower, the columns closer (one apart, then without the room for the order's mark),
       the intervals' column kept down to some width, the note saying which below it; every
       column still there at 64 */
    int wmin = 0;
    for (int cols = 120; cols >= 40 && !wmin; cols--) {
        draw(v, cols, 40);
        if (!frame_has("[26.25"))
            wmin = cols + 1;
    }
    draw(v, wmin, 40);
    int at = frame_has("95% interval ") && frame_has("[26.25") && frame_has("right");
    char note[64];
    snprintf(note, sizeof note, "95%% intervals from %d columns", wmin);
    draw(v, wmin - 1, 40);
    int below = !frame_has("95% interval ") && frame_has("right") && frame_has(note);
    draw(v, 64, 40);
    tap_ok(wmin == 78 /* as doc/screen.md says */ && at && below && !frame_has("[26.25") &&
               frame_has(note) &&
               frame_has("right") && !frame_has(" …"),
           "U at %d columns: the columns closer, the intervals' column still there; at %d and 64 "
           "left out, the note says from how wide it shows; every column at 64",
           wmin, wmin - 1);
    draw(v, 120, 40);
    for (int i = 0; i < 45; i++)
        key(v, K_DOWN, 0);
    key(v, K_PGUP, 0);
    int row = sheet_units_ui(v)->row, page = sheet_units_page(v);
    draw(v, 120, 24);
    n = table_rows(v, units, &sel, NULL);
    tap_ok(row == H - 1 - page && n == sheet_units_page(v) && sel >= 0 &&
               units[sel] == want[sheet_units_ui(v)->row],
           "↓ past the end, PgUp: row %d of %d, its unit %d in sight at 120x24",
           sheet_units_ui(v)->row, H,
           sel >= 0 ? units[sel] : -1);
    gt_shared before = *v->ui;
    gt_units_ui table = *sheet_units_ui(v);
    int order[H];
    memcpy(order, sheet_units_data(v)->order, sizeof order);
    frame_draw(&surf, v);
    frame_draw(&surf, v);
    tap_ok(memcmp(&before, v->ui, sizeof before) == 0 &&
               memcmp(&table, sheet_units_ui(v), sizeof table) == 0 &&
               memcmp(order, sheet_units_data(v)->order, sizeof order) == 0,
           "drawing the unit table changes no state (the screen's, the table's own)");
    key(v, K_CHAR, 's');
    key(v, K_PGUP, 0);
    key(v, K_PGUP, 0);
    draw(v, 120, 40);
    n = table_rows(v, units, &sel, NULL);
    tap_ok(n > 0 && units[0] == want[H - 1] && frame_has("t½ meas▲"),
           "s: smallest first (unit %d at the top)", n > 0 ? units[0] : -1);
    int chosen = sheet_units_data(v)->order[sheet_units_ui(v)->row];
    key(v, K_ENTER, 0);
    tap_ok(!v->ui->sheet && v->ui->unit == chosen,
           "Enter: the panels again, unit %d selected (%d)", chosen, v->ui->unit);
    v->ui->sort = SORT_MEAN;
    draw(v, 120, 40);
    bad = 0;
    for (int i = 1; i < H; i++)
        bad += rows[v->order[i - 1]].mean[1] < rows[v->order[i]].mean[1];
    tap_ok(bad == 0 && frame_has("by mean f over the report's windows"),
           "s to the mean carry gate: the panels' order is the unit table's mean f, largest first");
    v->ui->sort = SORT_INDEX;
    sheet_units_ui(v)->reverse = sheet_units_ui(v)->col = 0;
}

/* g: decimal steps and percentages only. */
/* Step counts with thousands separators wherever the screen says one: the header, the
 * go-to prompt and its refusal, the messages of a mark, an edit and its undo and redo. */
static void test_step_commas(gt_view *v)
{
    draw(v, 120, 40);
    key(v, K_CHAR, 'g');
    draw(v, 120, 40);
    int prompt = frame_has("go to step (0-1,319, N%, end)");
    type(v, "1200\n");
    draw(v, 120, 40);
    tap_ok(v->t == 1200 && prompt && frame_has("step 1,200 of 0..1,319"),
           "the go-to prompt and the header: 0-1,319, step 1,200 of 0..1,319");
    key(v, K_CHAR, 'g');
    type(v, "x\n");
    tap_ok(strstr(v->ui->msg, "is not a step (0-1,319)") != NULL, "a refused step: (0-1,319) [%s]",
           v->ui->msg);
    type(v, "Mq");
    tap_ok(strstr(v->ui->msg, "mark q at step 1,200") != NULL, "M q: \"%s\"", v->ui->msg);
    type(v, "eb");
    tap_ok(strstr(v->ui->msg, "step 1,200 edited") != NULL, "an edit: \"%s\"", v->ui->msg);
    type(v, "u");
    tap_ok(strstr(v->ui->msg, "undid the edit at step 1,200 (0 left") != NULL, "u: \"%s\"",
           v->ui->msg);
    key(v, K_ESC, 0);
    v->ui->msg[0] = 0;
}

static void test_goto_numbers(gt_view *v)
{
    static const char *const bad[] = {"nan%", "nan", "0x10", "1e3", "-1", "inf", "12.5",
                                      "+3", "1 2", "%"};
    draw(v, 120, 40);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v->ui->t = v->t = 7;
        key(v, K_CHAR, 'g');
        type(v, bad[i]);
        key(v, K_ENTER, 0);
        tap_ok(v->t == 7 && v->ui->msg_error, "g %s: refused, the cursor stays", bad[i]);
    }
    key(v, K_CHAR, 'g');
    type(v, " 12 \n");
    tap_ok(v->t == 12, "g 12: step 12");
    key(v, K_CHAR, 'g');
    type(v, "50%\n");
    tap_ok(v->t == (size_t)lround(0.5 * (double)(v->steps - 1)), "g 50%%: the middle step");
    key(v, K_CHAR, 'g');
    type(v, "12.5%\n");
    tap_ok(v->t == (size_t)lround(0.125 * (double)(v->steps - 1)), "g 12.5%%: an eighth");
}

/* s: each order it goes through differs from the others somewhere. The orders by importance
 * and by the mean carry gate are left out: they wait for a computation in the background
 * (tests/unit/t_keys checks them; test_unit_table the mean's order), and until then keep the
 * units in their order. */
static void test_sort_orders(gt_view *v)
{
    int orders[SORT_COUNT][H];
    int same = 0, n = 0;
    for (size_t st = 100; st < 1100; st += 100) {
        v->ui->t = v->t = st;
        n = 0;
        for (int o = 0; o < SORT_COUNT; o++) {
            if (o == SORT_IMPORTANCE || o == SORT_MEAN)
                continue;
            v->ui->sort = (gt_sort)o;
            draw(v, 120, 40);
            memcpy(orders[n++], v->order, sizeof orders[0]);
        }
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                same += memcmp(orders[a], orders[b], sizeof orders[a]) == 0;
    }
    tap_ok(same == 0, "the %d orders of s differ at each of 10 steps (%d equal pairs)",
           n, same);
    v->ui->sort = SORT_INDEX;
}

/* The last search's matches highlighted in the strip: every highlighted run reads the
 * search, and there is one. */
static void test_search_highlight(gt_view *v)
{
    draw(v, 120, 40);
    key(v, K_CHAR, '/');
    type(v, "bead\n");
    draw(v, 120, 40);
    gt_rect st = v->lay.r[P_STRIP];
    int runs = 0, wrong = 0;
    for (int y = st.y + 1; y < st.y + st.h; y++) {
        char run[64] = "";
        for (int x = 0; x <= surf.w; x++) {
            const gt_cell *c = x < surf.w ? surf_cell(&surf, x, y) : NULL;
            if (c && (c->role == R_FOUND || (c->role == R_CURSOR && run[0]))) {
                if (strlen(run) + strlen(c->s) < sizeof run)
                    strcat(run, c->s);
            } else if (run[0]) {
                runs++;
                wrong += strcmp(run, "bead") != 0 && strstr("bead", run) == NULL;
                run[0] = 0;
            }
        }
    }
    tap_ok(runs >= 1 && !wrong, "/bead: %d highlighted runs in the strip, %d not reading it",
           runs, wrong);
    key(v, K_CHAR, 'g');
    type(v, "0\n");
    draw(v, 120, 40);
    int before = v->nfound;
    v->find.last = FIND_LAST_MATCH; /* m was the last: its marks, not the search's */
    draw(v, 120, 40);
    tap_ok(before > 0 && v->nfound == 0, "after m the search's matches are no longer shown");
    v->find.last = FIND_LAST_SEARCH;
    v->ui->search[0] = 0;
}

/* Without colours the perturbation curves are drawn with their letters, not braille dots
 * that only colour tells apart; the decade labels in one format, no empty decade on top. */
static void test_mono_curves(gt_view *v)
{
    gt_error e = {0};
    v->ui->t = v->t = 200;
    trace_edit(v->tr, 200, (trace_token(v->tr, 200) + 1) % v->m->vocab, &e);
    view_edits_changed(v);
    int count[2][2] = {{0}}; /* [mono][braille, letters] */
    int labels_bad = 0, top_label = 0, decades[64], nd = 0;
    const int K0 = v->ui->horizon;
    for (int pass = 0; pass < 3; pass++) { /* in colour, without, without at K = 1024, taller */
        const int mono = pass > 0;
        v->mono = mono;
        v->ui->horizon = pass == 2 ? 1024 : K0;
        if (pass == 2)
            draw(v, 200, 70); /* a plot of many rows */
        else
            draw(v, 120, 40);
        gt_rect p = v->lay.r[P_PERTURB];
        for (int y = p.y + 1; y < p.y + p.h; y++) {
            int bar = 0;
            for (int x = p.x + 1; x < p.x + p.w; x++) {
                const gt_cell *c = surf_cell(&surf, x, y);
                if (strcmp(c->s, "│") == 0 && x > p.x + 2)
                    bar = x;
                else if (bar && x < p.x + p.w - 2) { /* inside the plot */
                    const unsigned char *u = (const unsigned char *)c->s;
                    count[mono][0] += u[0] == 0xE2 && u[1] >= 0xA0 && u[1] <= 0xA3;
                    count[mono][1] += strchr("cFhL", c->s[0]) && c->s[0] && !c->s[1];
                }
            }
            if (bar && mono) { /* the label left of the axis: empty or 1eN */
                char lab[16] = "";
                for (int x = bar - 5; x < bar; x++)
                    strcat(lab, surf_cell(&surf, x, y)->s);
                char *l = lab;
                while (*l == ' ')
                    l++;
                int d;
                char rest;
                labels_bad += *l && sscanf(l, "1e%d%c", &d, &rest) != 1;
                if (pass == 2 && *l && nd < 64 && sscanf(l, "1e%d", &d) == 1)
                    decades[nd++] = d; /* a long axis */
                if (*l && !top_label)
                    top_label = y == p.y + 3 ? 1 : -1; /* the first plot row */
            }
        }
    }
    tap_ok(count[0][0] > 10 && count[1][0] == 0 && count[1][1] > 10,
           "curves: %d braille cells with colours; without, %d braille and %d letters",
           count[0][0], count[1][0], count[1][1]);
    v->ui->horizon = K0;
    int even = nd >= 3;
    for (int i = 2; i < nd; i++) /* every label as far from the one before */
        even &= decades[i - 1] - decades[i] == decades[0] - decades[1];
    tap_ok(!labels_bad && top_label == 1 && even,
           "the decades labelled 1eN, one at the plot's top row; at K = 1024 evenly spaced (%d "
           "labels, every %d decades)", nd, nd >= 2 ? decades[0] - decades[1] : 0);
    v->mono = 0;
    trace_undo(v->tr, NULL);
    view_edits_changed(v);
}

/* Ctrl-E and Ctrl-Y scroll the strip a row without moving the cursor; a click still finds
 * the step of the character under it; moving the cursor brings the strip back to it. */
static void test_strip_scroll(gt_view *v)
{
    char r0[3][512], r1[3][512], r2[3][512];
    v->ui->t = v->t = 600;
    draw(v, 120, 40);
    gt_rect st = v->lay.r[P_STRIP];
    int rows = (st.h - 1) / 2, y0 = st.y + 1;
    for (int k = 0; k < rows && k < 3; k++)
        surf_row_text(&surf, y0 + 2 * k, r0[k], sizeof r0[k]);
    long second = keys_strip_step_at(v, st.x + 1, y0 + 2);
    gt_key ce = {K_CHAR, 'e', 1, 0, 0, 0}, cy = {K_CHAR, 'y', 1, 0, 0, 0};
    keys_handle(v, &ce);
    draw(v, 120, 40);
    for (int k = 0; k < rows && k < 3; k++)
        surf_row_text(&surf, y0 + 2 * k, r1[k], sizeof r1[k]);
    long first = keys_strip_step_at(v, st.x + 1, y0);
    tap_ok(rows >= 2 && v->t == 600 && strcmp(r1[0], r0[1]) == 0 && first == second,
           "Ctrl-E: the second row of text comes up, the cursor stays, a click finds the same step");
    keys_handle(v, &cy);
    keys_handle(v, &cy);
    draw(v, 120, 40);
    for (int k = 0; k < rows && k < 3; k++)
        surf_row_text(&surf, y0 + 2 * k, r2[k], sizeof r2[k]);
    tap_ok(v->t == 600 && strcmp(r2[1], r0[0]) == 0, "Ctrl-Y twice: a row back from where it was");
    for (int i = 0; i < 6; i++)
        keys_handle(v, &ce);
    draw(v, 120, 40);
    int cursor_shown = 0;
    for (int k = 0; k < rows; k++)
        for (int x = 0; x < surf.w; x++)
            cursor_shown |= surf_cell(&surf, x, y0 + 2 * k)->role == R_CURSOR;
    key(v, K_RIGHT, 0);
    draw(v, 120, 40);
    tap_ok(!cursor_shown && v->t == 601 && v->ui->strip_scroll == 0,
           "scrolled past the cursor it is not shown; a step brings the strip back to it");
}

/* With c the strip's title shows the scale of its shades, -1 to +1 in order. */
/* c in turn: the selected unit's c, h, i, f, g, o, then off; each step of the strip in the
 * shade of its value (a gate as 2g - 1, c through tanh), computed here from the trace. */
static void test_heat_signals(gt_view *v)
{
    static const char *const note[6] = {"coloured by c of unit 2 as tanh c (c: next)",
                                        "coloured by h of unit 2 (c: next)",
                                        "coloured by i of unit 2 as 2i-1 (c: next)",
                                        "coloured by f of unit 2 as 2f-1 (c: next)",
                                        "coloured by g of unit 2 (c: next)",
                                        "coloured by o of unit 2 as 2o-1 (c: off)"};
    static const int sig[6] = {4, 5, 0, 1, 2, 3};
    v->ui->heat = HEAT_OFF;
    sheet_set(v, NULL);
    view_select_unit(v, 2);
    view_seek(v, 40);
    int said = 0, shaded = 0, compared = 0;
    const size_t nh = (size_t)v->m->hidden_max;
    for (int i = 0; i < 6; i++) {
        key(v, K_CHAR, 'c');
        draw(v, 120, 40);
        said += frame_has(note[i]);
        /* the marks row under the cursor's: its column; the steps before it to its left */
        const gt_rect st = v->lay.r[P_STRIP];
        int cx = -1, cy = -1;
        for (int y = st.y + 1; y < st.y + st.h && cx < 0; y++)
            for (int x = 0; x < surf.w; x++)
                if (strcmp(surf_cell(&surf, x, y)->s, "▲") == 0)
                    cx = x, cy = y - 1;
        for (int j = 1; cx - j > 0 && j <= 8; j++) {
            const size_t step = v->t - (size_t)j;
            float x;
            if (sig[i] < 4) {
                const float g = trace_gates(v->tr, step, v->layer)[(size_t)sig[i] * nh + 2];
                x = sig[i] == 2 ? g : 2 * g - 1;
            } else {
                x = sig[i] == 4 ? tanhf(trace_c(v->tr, step, v->layer)[2])
                                : trace_h(v->tr, step, v->layer)[2];
            }
            long k = lroundf(x * 3.0f);
            k = k < -3 ? -3 : k > 3 ? 3 : k;
            compared++;
            shaded += surf_cell(&surf, cx - j, cy)->role == R_HEAT_0 + k;
        }
    }
    key(v, K_CHAR, 'c');
    tap_ok(said == 6 && compared >= 6 * 3 && shaded == compared && v->ui->heat == HEAT_OFF,
           "c in turn colours the text by the unit's c, h, i, f, g, o (gates as 2g-1), each step "
           "in its value's shade (%d of %d), then off (%d notes)", shaded, compared, said);
}

static void test_heat_scale(gt_view *v)
{
    int found = 0;
    for (int heat = 0; heat < 2; heat++) {
        v->ui->heat = heat;
        draw(v, 120, 40);
        int y = v->lay.r[P_STRIP].y, run = 0, ok = 0;
        for (int x = 0; x < surf.w; x++) {
            int want = R_HEAT_N3 + run;
            run = surf_cell(&surf, x, y)->role == want ? run + 1 : 0;
            ok |= run == 7;
        }
        found += ok << heat;
    }
    char row[512];
    surf_row_text(&surf, v->lay.r[P_STRIP].y, row, sizeof row);
    tap_ok(found == 2 && strstr(row, "-1 ---0+++ +1"),
           "c: the title shows the seven shades from -1 to +1 (off: none)");
    /* cell by cell, as the terminal shows each: in colour its background, without colour
     * its attribute on a visible sign, every shade unlike the others */
    int x0 = -1, bad = 0, sy = v->lay.r[P_STRIP].y;
    for (int x = 0; x + 7 <= surf.w && x0 < 0; x++) {
        int run = 0;
        while (run < 7 && surf_cell(&surf, x + run, sy)->role == R_HEAT_N3 + run)
            run++;
        x0 = run == 7 ? x : -1;
    }
    static const int colors[] = {0, 8, 256};
    for (int c = 0; x0 >= 0 && c < 3; c++) {
        short f[7], b[7];
        unsigned long a[7];
        for (int i = 0; i < 7; i++) {
            const gt_cell *cell = surf_cell(&surf, x0 + i, sy);
            term_role_look(cell->role, colors[c], &f[i], &b[i], &a[i]);
            bad += strcmp(cell->s, " ") == 0 || strcmp(cell->s, "█") == 0;
        }
        for (int i = 0; i < 7; i++)
            for (int j = i + 1; j < 7; j++)
                bad += f[i] == f[j] && b[i] == b[j] && a[i] == a[j];
        if (colors[c]) { /* the negatives' backgrounds, zero's (the default), the positives' */
            for (int i = 0; i < 3; i++)
                bad += b[i] == -1 || b[6 - i] == -1 || b[i] == b[6 - i];
            bad += b[3] != -1;
        } else { /* zero plain; the strongest unlike the cursor in more than boldness (the
                  * bold of R_HEADER, the dim of R_DIM) */
            short ff, bb;
            unsigned long cur, bold, dim;
            term_role_look(R_CURSOR, 0, &ff, &bb, &cur);
            term_role_look(R_HEADER, 0, &ff, &bb, &bold);
            term_role_look(R_DIM, 0, &ff, &bb, &dim);
            bad += a[3] != 0 || ((a[6] ^ cur) & ~(bold | dim)) == 0 || a[4] == 0;
        }
        if (bad)
            printf("# %d colours: %d faults\n", colors[c], bad);
    }
    tap_ok(x0 >= 0 && bad == 0, "c: the scale's cells, in 256, 8 and no colours, seven distinct "
           "looks, shown as backgrounds in colour");
    v->ui->heat = 0;
}

/* The cursor and an edit look like no shade of the text's colouring, nor like each other. */
/* The cursor on an edited character keeps the edit's look (R_CURSOR_EDIT); elsewhere the
 * cursor's own. */
static void test_cursor_on_edit(gt_view *v)
{
    gt_error e = {0};
    v->ui->t = v->t = 700;
    int roles[2] = {0, 0};
    for (int edited = 0; edited < 2; edited++) {
        if (edited)
            trace_edit(v->tr, v->t, (trace_token(v->tr, v->t) + 1) % v->m->vocab, &e);
        draw(v, 120, 40);
        gt_rect st = v->lay.r[P_STRIP];
        for (int y = st.y; y < st.y + st.h; y++)
            for (int x = 0; x < surf.w; x++) {
                int r = surf_cell(&surf, x, y)->role;
                if (r == R_CURSOR || r == R_CURSOR_EDIT)
                    roles[edited] = r;
            }
    }
    trace_undo(v->tr, NULL);
    view_edits_changed(v);
    tap_ok(roles[0] == R_CURSOR && roles[1] == R_CURSOR_EDIT,
           "the cursor's character: its own look, and the edit's mark on it once edited");
}

static void test_looks(void)
{
    static const int colors[] = {0, 8, 256};
    for (int c = 0; c < 3; c++) {
        short f[R_COUNT], b[R_COUNT];
        unsigned long a[R_COUNT];
        for (int r = 0; r < R_COUNT; r++)
            term_role_look(r, colors[c], &f[r], &b[r], &a[r]);
        int clash = 0;
        const int mine[2] = {R_CURSOR, R_EDIT};
        for (int i = 0; i < 2; i++) {
            int r = mine[i];
            for (int h = R_HEAT_N3; h <= R_HEAT_P3; h++)
                clash += f[r] == f[h] && b[r] == b[h] && a[r] == a[h];
        }
        clash += f[R_CURSOR] == f[R_EDIT] && b[R_CURSOR] == b[R_EDIT] && a[R_CURSOR] == a[R_EDIT];
        /* in 8 colours the background alone must tell the cursor from a shade */
        if (colors[c] == 8)
            for (int h = R_HEAT_N3; h <= R_HEAT_P3; h++)
                clash += b[R_CURSOR] == b[h];
        tap_ok(clash == 0, "%d colours: the cursor and an edit unlike the shades of c (%d clashes)",
               colors[c], clash);
        /* the cursor on an edited character: unlike the cursor, an edit and every shade */
        const int ce = R_CURSOR_EDIT;
        int same = 0;
        for (int r = 0; r < R_COUNT; r++)
            same += r != ce && f[r] == f[ce] && b[r] == b[ce] && a[r] == a[ce];
        tap_ok(same == 0, "%d colours: the cursor on an edit looks like no other role (%d do)",
               colors[c], same);
    }
}

/* The pass after an edit late in the text: its progress counts the states known from step
 * 0, not from the edit. */
static void test_progress(gt_view *v)
{
    gt_error e = {0};
    trace_pass_start(v->tr, v->steps, &e);
    while (trace_pass_running(v->tr))
        usleep(1000);
    size_t at = v->steps * 3 / 4;
    trace_edit(v->tr, at, (trace_token(v->tr, at) + 1) % v->m->vocab, &e);
    double p = trace_pass_progress(v->tr);
    tap_ok(p > 0.7 && p < 0.76, "an edit at 3/4 of the text: the states are %.0f%% known", 100 * p);
    trace_undo(v->tr, NULL);
}

/* ---- the strip's rows: words whole, stable as the cursor moves, clicks where drawn ---- */

typedef struct striprow {
    char s[512][8]; /* each cell's glyph, "" after a wide one */
    unsigned char wide[512], role[512];
    int n;          /* W */
} striprow;

static void read_strip(const gt_view *v, striprow *rows, int *pairs, int *W)
{
    gt_rect st = v->lay.r[P_STRIP];
    *pairs = (st.h - 1) / 2;
    *W = st.w - 2;
    for (int k = 0; k < *pairs && k < 8; k++)
        for (int i = 0; i < *W && i < 512; i++) {
            const gt_cell *c = surf_cell(&surf, st.x + 1 + i, st.y + 1 + 2 * k);
            strcpy(rows[k].s[i], c->s);
            rows[k].wide[i] = c->wide;
            rows[k].role[i] = c->role;
            rows[k].n = *W;
        }
}

/* A cell of a word: one cell wide, not a space, not a newline, not blank. */
static int word_cell(const striprow *r, int i)
{
    return i >= 0 && i < r->n && r->s[i][0] && strcmp(r->s[i], " ") != 0 &&
           strcmp(r->s[i], "↵") != 0 && strcmp(r->s[i], "⇥") != 0 && !r->wide[i] &&
           !(i > 0 && r->wide[i - 1]);
}

/* Rows k and k + 1 split a word that would have fitted on row k + 1. */
static int split_word(const striprow *r, int k)
{
    int last = r[k].n - 1;
    while (last >= 0 && !r[k].s[last][0] && !(last > 0 && r[k].wide[last - 1]))
        last--;
    if (!word_cell(&r[k], last) || !word_cell(&r[k + 1], 0))
        return 0;
    int len = 0;
    for (int i = last; word_cell(&r[k], i); i--)
        len++;
    for (int i = 0; word_cell(&r[k + 1], i); i++)
        len++;
    return len <= r[k].n;
}

static int cursor_col(const striprow *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->role[i] == R_CURSOR)
            return i;
    return -1;
}

static int same_row(const striprow *a, const striprow *b)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->s[i], b->s[i]) != 0)
            return 0;
    return 1;
}

/* Every cell of the strip's text rows clicked: a character of a step gives that step, whose
 * glyph is the one drawn there (both cells of a wide one); the cursor's, the cursor's step.
 * Returns the cells that disagree. */
static int clicks_disagree(gt_view *v)
{
    gt_rect st = v->lay.r[P_STRIP];
    int pairs = (st.h - 1) / 2, bad = 0;
    for (int k = 0; k < pairs; k++) {
        int y = st.y + 1 + 2 * k;
        for (int x = st.x + 1; x < st.x + st.w - 1; x++) {
            const gt_cell *c = surf_cell(&surf, x, y);
            const gt_cell *g = c->s[0] || x == st.x + 1 ? c : surf_cell(&surf, x - 1, y);
            long s = keys_strip_step_at(v, x, y);
            if (s < 0) { /* nothing there: a blank */
                bad += strcmp(g->s, " ") != 0;
                continue;
            }
            if (g->role == R_SKIPPED)
                continue;
            char want[16];
            view_token_glyph(v, trace_token(v->tr, (size_t)s), want);
            bad += strcmp(want, g->s) != 0 || (g->role == R_CURSOR) != (s == (long)v->t);
        }
    }
    return bad;
}

/* The strip of text at the sizes and steps that matter: no row ends inside a word that would
 * fit on the next one; one step on leaves every row as it was when the cursor stays on its row
 * (its cell further right), or moves them all up one when it goes on to the next; the cursor's
 * mark under its character; a click on each cell finds the character drawn there. */
static void test_strip_words(const gt_model *m, const char *text, size_t n, const char *what)
{
    gt_error e = {0};
    gt_text t;
    gt_trace *tr;
    gt_view v;
    if (text_from_memory(&t, what, text, n, m, &e) || trace_open(&tr, m, &t, NULL, &e) ||
        view_init(&v, m, &t, tr, 0, &e)) {
        tap_ok(0, "%s: %s", what, e.msg);
        return;
    }
    v.utf8 = 1;
    static striprow a[8], b[8];
    int sizes[][2] = {{64, 22}, {80, 24}, {97, 40}, {120, 40}, {200, 60}};
    int splits = 0, unstable = 0, marks = 0, clicks = 0, moves = 0, shifts = 0;
    for (int z = 0; z < 5; z++) {
        size_t blk = text_step_at_offset(&t, 4096); /* rows break at 4096 bytes too */
        size_t from[] = {0, blk > 40 ? blk - 40 : v.steps / 3, v.steps > 90 ? v.steps - 90 : 0};
        for (int f = 0; f < 3; f++) {
            int pairs, W;
            v.ui->t = v.t = from[f];
            draw(&v, sizes[z][0], sizes[z][1]);
            read_strip(&v, a, &pairs, &W);
            for (int i = 0; i < 80 && v.t + 1 < v.steps; i++) {
                for (int k = 0; k + 1 < pairs; k++)
                    splits += split_word(a, k);
                int mid = pairs / 2, cx = cursor_col(&a[mid]);
                gt_rect st = v.lay.r[P_STRIP];
                marks += cx < 0 ||
                         strcmp(surf_cell(&surf, st.x + 1 + cx, st.y + 2 + 2 * mid)->s, "▲") != 0;
                if (i % 16 == 0)
                    clicks += clicks_disagree(&v);
                v.ui->t = ++v.t;
                draw(&v, sizes[z][0], sizes[z][1]);
                read_strip(&v, b, &pairs, &W);
                int nx = cursor_col(&b[mid]), ok = 1;
                if (nx > cx) {
                    for (int k = 0; k < pairs; k++)
                        ok &= same_row(&a[k], &b[k]);
                } else {
                    shifts++;
                    for (int k = 0; k + 1 < pairs; k++)
                        ok &= same_row(&a[k + 1], &b[k]);
                }
                unstable += !ok;
                moves++;
                memcpy(a, b, sizeof a);
            }
        }
    }
    tap_ok(splits == 0, "%s: no strip row ends inside a word that fits a row (%d do)", what, splits);
    tap_ok(moves > 900 && shifts > 10 && unstable == 0,
           "%s: a step on keeps the strip's rows, or moves them up one row (%d of %d steps "
           "otherwise; %d moved up)", what, unstable, moves, shifts);
    tap_ok(marks == 0, "%s: ▲ under the cursor's character (%d times not)", what, marks);
    tap_ok(clicks == 0, "%s: a click on each cell of the strip finds the character drawn there "
           "(%d cells not)", what, clicks);
    view_free(&v);
    trace_close(tr);
    text_free(&t);
}

/* Long lines of words of 1 to 12 letters, now and then a word longer than any row, one of
 * wide characters, a letter with a combining mark; one line of more than 8,192 bytes with a
 * space before each multiple of 4,096 (where rows break anyway). */
static size_t long_lines(char *out, size_t cap)
{
    unsigned x = 777;
    size_t n = 0;
    while (n + 400 < cap) {
        size_t line = n < 2000 ? 9000 : 150 + (x >> 8) % 750, end = n + line;
        while (n < end && n + 300 < cap) {
            x = x * 1103515245u + 12345u;
            unsigned r = (x >> 16) % 100;
            if (r < 3)
                for (int i = 0; i < 230; i++)
                    out[n++] = "abcdex"[i % 6];
            else if (r < 8)
                n += (size_t)sprintf(out + n, "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2");
            else if (r < 12)
                n += (size_t)sprintf(out + n, "de\xcc\x81x");
            else
                for (unsigned i = 0, len = 1 + (x >> 8) % 12; i < len; i++)
                    out[n++] = "abcdex"[(x >> (i % 8)) % 6];
            out[n++] = ' ';
        }
        out[n++] = '\n';
    }
    for (size_t b = 4095; b < n; b += 4096)
        if (b < 9000)
            out[b] = ' ';
    return n;
}


/* A column of the table that compares several models, made up (name, loss, half-life). */
static gt_compare_col made_col(const char *name, double loss, double hl)
{
    gt_compare_col c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.kind, sizeof c.kind, "LSTM");
    snprintf(c.carry, sizeof c.carry, "f");
    c.hidden = H;
    c.K = 64;
    c.pairs = 1;
    c.loss = loss;
    c.mean = 0.6, c.left = 0.1, c.right = 0.3, c.hl_median = 1.5, c.hl_max = 12;
    c.ge10 = 1, c.ge10_measured = 7;
    c.hl_measured = hl, c.hl_linearized = hl - 1, c.hl_forget_only = 2.5;
    c.ci_measured = (gt_interval){hl - 0.3, hl + 0.3, 1, 0};
    c.ci_linearized = (gt_interval){hl - 1.8, hl - 0.2, 1, 0};
    c.ci_forget_only = (gt_interval){2.4, 2.6, 1, 0};
    c.hl_hidden = hl - 2;
    c.ci_hidden = (gt_interval){hl - 2.3, hl - 1.7, 1, 0};
    c.cell = 1;
    return c;
}

/* Three models over the report's tables: the table that compares them at 80 and 200 columns, its
 * columns scrolled sideways with the label column fixed, Enter the model shown's report. */
static void test_compare_table(const gt_model *m, const gt_text *t)
{
    gt_model three[3] = {*m, *m, *m};
    gt_session sn;
    gt_models ms;
    gt_error e = {0};
    if (session_borrow(&sn, three, 3, t, &e) || models_open(&ms, &sn, 1, 0, 1, &e)) {
        tap_ok(0, "three models open: %s", e.msg);
        return;
    }
    static const char *const names[3] = {"first-model.bin", "second-model.bin", "third.bin"};
    for (int k = 0; k < 3; k++) {
        ms.v[k].stats.cols[0] = made_col(names[k], 1.25 + k, k < 2 ? 14.5 + k : 20.5);
        ms.v[k].stats.have_col[0] = 1;
    }
    gt_view *v = models_view(&ms);
    v->ui->sheet = &sheet_report; /* up over the columns planted here: nothing computed */
    draw(v, 200, 50);
    int y = v->lay.r[P_GATES].y + 1, seen = 0;
    for (int k = 0; k < 3; k++)
        seen += frame_col(y, names[k]) > 0;
    tap_ok(seen == 3 && frame_has("report: t.txt, layer 0, 3 models") &&
               frame_has("models 1-3 of 3") && frame_col(y + 2, "1.250") > 0 &&
               frame_col(y + 2, "3.250") > frame_col(y + 2, "2.250") &&
               frame_col(y + 7, "of h, measured") > 0 && frame_col(y + 7, "12.5 [12.2, 12.8]") > 0 &&
               frame_col(y + 7, "* 13.5 [13.2, 13.8]") > 0 &&
               frame_col(y + 7, "* 18.5 [18.2, 18.8]") > 0 && frame_col(y + 8, "of c, measured") > 0 &&
               frame_col(y + 8, "14.5 [14.2, 14.8]") > 0 && frame_col(y + 8, "* 15.5 [15.2, 15.8]") > 0 &&
               frame_col(y + 8, "* 20.5 [20.2, 20.8]") > 0 && frame_col(y + 9, "* 14.5") < 0 &&
               frame_col(y + 9, "* 19.5 [18.7, 20.3]") > 0 && frame_col(y + 10, "*") < 0 &&
               frame_col(y + 10, "2.5 [2.4, 2.6]") > 0 &&
               frame_col(y + 11, "[lo, hi] 95% interval") == 1 && frame_col(y, "model") == 1,
           "200x50: the table's rows (an edit's half-life of h, then of c), the three models' "
           "columns in order, each half-life with its interval, marked where it and the one to "
           "its left do not overlap");
    key(v, K_RIGHT, 0);
    draw(v, 200, 50);
    tap_ok(sheet_report_ui(v)->col == 0 && frame_has("models 1-3 of 3"),
           "200x50: -> keeps the first column when every column shows");
    draw(v, 80, 24);
    y = v->lay.r[P_GATES].y + 1;
    int right_end = frame_col(y, names[0]) + (int)strlen(names[0]);
    tap_ok(frame_col(y, names[0]) > 0 && frame_col(y, names[2]) < 0 &&
               frame_has("models 1-1 of 3") && right_end <= 79 && frame_has("←→ models") &&
               frame_col(y + 1, "LSTM 40") + 7 == right_end,
           "80x24: the labels and the first model's column, right-aligned, the others hidden");
    key(v, K_RIGHT, 0);
    draw(v, 80, 24);
    tap_ok(sheet_report_ui(v)->col == 1 && frame_col(y, names[0]) < 0 && frame_col(y, names[1]) > 0 &&
               frame_col(y + 2, "2.250") > 0 && frame_col(y + 2, "loss (nats/char)") == 1 &&
               frame_has("models 2-2 of 3"),
           "80x24: -> scrolls one model sideways, the labels stay");
    key(v, K_RIGHT, 0);
    key(v, K_RIGHT, 0);
    key(v, K_RIGHT, 0);
    draw(v, 80, 24);
    tap_ok(sheet_report_ui(v)->col == 2 && frame_col(y, names[2]) > 0 && frame_has("models 3-3 of 3"),
           "80x24: -> stops at the last model");
    key(v, K_LEFT, 0);
    draw(v, 80, 24);
    tap_ok(sheet_report_ui(v)->col == 1 && frame_col(y, names[1]) > 0, "80x24: <- scrolls back");
    draw(v, 64, 24);
    y = v->lay.r[P_GATES].y + 1;
    tap_ok(frame_col(y + 8, "* 15.5") > 0 && frame_col(y + 8, "[") < 0 &&
               frame_col(y + 8, "an edit's half-life of c, measured") == 1 &&
               frame_col(y + 11, "* no overlap with the one to its left (the intervals need") == 1,
           "64x24: no column fits with the intervals: they are left out, the marks kept, the "
           "legend says so");
    draw(v, 80, 24);
    size_t step = v->ui->t;
    key(v, K_ENTER, 0);
    draw(v, 80, 24);
    tap_ok(sheet_report_ui(v)->full && !frame_has("models 2-2") && v->ui->t == step &&
               frame_has("report: t.txt as loaded, layer 0, m.safetensors #1 [1/3]"),
           "Enter: the model shown's whole report (computing), the step unchanged");
    key(v, K_RIGHT, 0);
    tap_ok(v->ui->t == step + 1, "in the whole report -> steps the text again");
    key(v, K_ENTER, 0);
    draw(v, 80, 24);
    tap_ok(!sheet_report_ui(v)->full && frame_has("models 2-2 of 3"), "Enter again: the table");
    v->ui->sheet = NULL;
    /* an edit: the other models' curves of h in the perturbation plot, their digits in
       colours of no curve of the shown model's (the forget-only curve's was model 1's) and
       named in the legend */
    v->ui->t = v->t = 200;
    for (int k = 0; k < ms.n; k++) {
        trace_edit(ms.tr[k], 200, (trace_token(ms.tr[k], 200) + 1) % m->vocab, &e);
        view_edits_changed(&ms.v[k]);
    }
    draw(v, 200, 50);
    /* on a loaded machine the edit may be out of a frame's reach: its curves then wait for
       the background pass */
    TAP_WAIT_WHILE(ms.v[0].edits_wait || ms.v[1].edits_wait || ms.v[2].edits_wait,
                   (models_tick(&ms), draw(v, 200, 50)));
    const gt_rect pr = v->lay.r[P_PERTURB];
    int legend_y = -1, digits = 0, clash = 0;
    for (int yy = pr.y; yy < pr.y + pr.h; yy++)
        if (frame_col(yy, "models' h") > 0)
            legend_y = yy;
    for (int x = pr.x; legend_y >= 0 && x < pr.x + pr.w; x++) {
        const gt_cell *c = surf_cell(&surf, x, legend_y);
        if ((c->s[0] == '2' || c->s[0] == '3') && !c->s[1]) {
            digits++;
            clash += c->role == R_CARRY || c->role == R_PLOT || c->role == R_BAR0 ||
                     c->role == R_MARK || c->role == R_DIM;
        }
    }
    tap_ok(legend_y > 0 && digits == 2 && !clash,
           "an edit with three models: the legend names the other models' curves 2 and 3, in "
           "colours none of the shown model's curves has");
    models_close(&ms);
    session_close(&sn);
}

int main(void)
{
    if (!tap_utf8_locale())
        return 0;
    static char sample[4096], longtext[40000];
    size_t nsample = 0, nlong = long_lines(longtext, sizeof longtext);
    const char *top = getenv("top_srcdir");
    char spath[1024];
    snprintf(spath, sizeof spath, "%s/tests/golden/frames/text.txt", top ? top : ".");
    FILE *sf = fopen(spath, "rb");
    if (sf) {
        nsample = fread(sample, 1, sizeof sample, sf);
        fclose(sf);
    }
    char dir[] = "/tmp/t_screen.XXXXXX", path[256];
    if (stw_lstm40_dir(dir, path, sizeof path, 1, 12345) != 0)
        return 1;
    static char text[2000];
    size_t n = stw_lstm40_text(text, sizeof text);
    gt_error e = {0};
    gt_model m;
    gt_text t;
    gt_trace *tr;
    gt_view v;
    if (model_load(&m, path, NULL, &e) || text_from_memory(&t, "t.txt", text, n, &m, &e) ||
        trace_open(&tr, &m, &t, NULL, &e) || view_init(&v, &m, &t, tr, 0, &e)) {
        printf("Bail out! %s\n", e.msg);
        return 1;
    }
    v.utf8 = 1;
    test_selection_column(&v);
    test_unknown_difference(&v);
    test_help(&v);
    test_unit_range(&v);
    test_stats_resize(&v);
    test_too_small(&v);
    test_stats_intervals(&v);
    test_compare_table(&m, &t);
    test_unit_table(&v);
    test_goto_numbers(&v);
    test_step_commas(&v);
    test_sort_orders(&v);
    test_range_note(&v);
    test_search_highlight(&v);
    test_mono_curves(&v);
    test_strip_scroll(&v);
    test_heat_scale(&v);
    test_heat_signals(&v);
    test_looks();
    test_cursor_on_edit(&v);
    test_progress(&v);
    if (nsample)
        test_strip_words(&m, sample, nsample, "the sample text");
    else
        tap_ok(0, "the sample text %s: not read", spath);
    test_strip_words(&m, longtext, nlong, "long lines");

    surf_free(&surf);
    view_free(&v);
    trace_close(tr);
    text_free(&t);
    model_free(&m);
    unlink(path);
    rmdir(dir);
    return tap_done();
}
