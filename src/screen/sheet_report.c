/* The report's sheet (r; doc/screen.md, "The report's tables"): the tables of gatetui
 * --report (doc/measures.md, "The report") for the text as loaded and the layer shown, over
 * the panels below the text strip, in two columns when they fit side by side, scrolled by
 * its keys; Enter goes to the edited step of a window's line. With several models, the
 * table that compares them (its columns scrolled sideways) or the model shown's whole
 * report. "Computing" with its progress while a child computes the report (data_stats.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/compare.h"
#include "gatetui/report.h"
#include "screen/draw_plot.h"
#include "screen/panel_frame.h"
#include "screen/sheet_report.h"

/* The most models the table compares. */
#define MAX_MODELS 64

/* How its notes and hints name its keys. */
static const gt_keyname scroll_hint = {KB_SYM(K_UP, 0), "↑↓", "j/k", 0};
static const gt_keyname scroll_note = {KB_SYM(K_UP, 0), "↑↓", "up/down", 0};
static const gt_keyname page_name = {KB_SYM(K_PGUP, 0), "PgUp/Dn", NULL, 0};
static const gt_keyname enter_name = {KB_SYM(K_ENTER, 0), "Enter", NULL, 0};
static const gt_keyname models_name = {KB_SYM(K_LEFT, 0), "←→", "h/l", 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "r Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('r', 0), "r", NULL, 0};

gt_report_ui *sheet_report_ui(const gt_view *v)
{
    return sheet_ui(v, &sheet_report);
}

int sheet_report_compares(const gt_view *v)
{
    return v->peers && v->npeers > 1 && !sheet_report_ui(v)->full;
}

/* Its columns for text. */
static int text_width(const gt_view *v)
{
    return v->lay.cols - (v->lay.r[P_GATES].x > 0) - 1; /* panel_frame's rule, a margin */
}

int sheet_report_cols(const gt_view *v, gt_compare_col *out, int max)
{
    int n = 0;
    for (int k = 0; k < v->npeers && k < max; k++) {
        const gt_view *p = &v->peers[k];
        const gt_compare_col *c = p->layer == v->layer ? data_stats_col(&p->stats, v->layer)
                                                       : NULL;
        if (!c)
            return -1;
        out[n++] = *c;
    }
    /* the intervals only where a model's column fits with them beside the labels */
    int widest = 0;
    for (int k = 0; k < n; k++)
        widest = compare_width(out, n, k) > widest ? compare_width(out, n, k) : widest;
    for (int k = 0; k < n && compare_label_width(out, n) + 2 + widest > text_width(v); k++)
        out[k].hide_ci = 1;
    return n;
}

/* The columns of c[first..n) that fit in width beside the labels (at least one). */
static int cols_fit(const gt_compare_col *c, int n, int first, int width)
{
    int used = compare_label_width(c, n), fit = 0;
    for (int k = first; k < n; k++) {
        used += 2 + compare_width(c, n, k);
        if (used > width && fit > 0)
            break;
        fit++;
    }
    return fit;
}

/* Its lines: in all (*n), and how many show at once (its columns' rows). */
static int lines_shown(const gt_view *v, int *n)
{
    gt_rect g = v->lay.r[P_GATES];
    g.w = v->lay.cols;
    int rows = g.h - 1 > 1 ? g.h - 1 : 1;
    int width;
    if (sheet_report_compares(v))
        *n = COMPARE_ROWS, width = 0;
    else
        data_stats_tables(&v->stats, v->layer, n, &width);
    return (*n && width ? layout_text_columns(g, *n, width) : 1) * rows;
}

int sheet_report_max_scroll(const gt_view *v)
{
    int n, max = -lines_shown(v, &n);
    max += n;
    return max > 0 ? max : 0;
}

int sheet_report_step(const gt_view *v, size_t *step, int *line)
{
    const int scroll = sheet_report_ui(v)->scroll;
    int n, shown = lines_shown(v, &n), at;
    if (sheet_report_compares(v) || v->lay.r[P_GATES].h < 2 || /* no row of the tables drawn */
        data_stats_step(&v->stats, v->layer, scroll, step, &at) != 0 ||
        at >= scroll + shown || *step >= v->steps)
        return -1;
    if (line)
        *line = at;
    return 0;
}

/* ---- the keys ---- */

static gt_act report_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_report);
    return ACT_REDRAW;
}

/* The tables scrolled by d lines (KEYS_PAGE: a page). */
static gt_act report_scroll(gt_view *v, int d)
{
    gt_report_ui *u = sheet_report_ui(v);
    int page = v->lay.r[P_GATES].h - 2 > 1 ? v->lay.r[P_GATES].h - 2 : 1;
    u->scroll = sheet_scroll(u->scroll, d, page, sheet_report_max_scroll(v));
    return ACT_REDRAW;
}

/* Enter: to the step of the window's line marked ▶; else, with several models, the table
 * that compares them or the model shown's whole report. */
static gt_act report_enter(gt_view *v, int arg)
{
    (void)arg;
    gt_report_ui *u = sheet_report_ui(v);
    size_t step;
    char at[32];
    if (sheet_report_step(v, &step, NULL) == 0) {
        view_jump(v, step);
        view_say(v, 0, "step %s, the edited step of a window of the report ('' goes back)",
                 report_commas(step, at, sizeof at));
    } else if (!v->peers || v->npeers < 2) {
        view_say(v, 0, "no window's step in the lines shown: scroll to the windows' table "
                       "to go to one with Enter");
    } else {
        u->full = !u->full;
        u->scroll = 0;
        view_say(v, 0, u->full ? "the report of %s (Enter: every model's table, or "
                                 "where a window's row is marked, its step)"
                               : "every model's table (Enter: %s's whole report)",
                 v->model_name);
    }
    return ACT_REDRAW;
}

/* ← →: the table's columns of several models scrolled by d models; else the text stepped. */
static gt_act report_models(gt_view *v, int d)
{
    gt_report_ui *u = sheet_report_ui(v);
    if (!sheet_report_compares(v)) {
        view_step(v, d);
        return ACT_REDRAW;
    }
    if (d < 0 && u->col > 0)
        u->col--;
    else if (d > 0 && u->col + 1 < v->npeers)
        u->col++; /* its prepare holds it where the last column shows */
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the report's tables", 0, 1, sheet_close_key,
     {KB_CHAR('r', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "scroll the report's tables by a line, by a page", 0, 1, report_scroll,
     {KB_SHIFT(K_UP, -KEYS_PAGE), KB_SHIFT(K_DOWN, KEYS_PAGE), KB_SYM(K_UP, -1),
      KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1), KB_CHAR('K', -KEYS_PAGE),
      KB_CHAR('J', KEYS_PAGE), KB_SYM(K_PGUP, -KEYS_PAGE), KB_SYM(K_PGDN, KEYS_PAGE)}},
    {NULL, "the report: go to the edited step of the window's line marked ▶ (the first "
           "shown); several models: the model shown's whole report, again the table",
     0, 1, report_enter, {KB_SYM(K_ENTER, 0)}},
    {NULL, "several models: the table's columns left, right (one model: step)", 0, 1,
     report_models,
     {KB_SYM(K_LEFT, -1), KB_SYM(K_RIGHT, 1), KB_CHAR('h', -1), KB_CHAR('l', 1)}},
    {"r", "report tables of the text (r or Esc closes, arrows scroll)", 0, 0, report_toggle,
     {KB_CHAR('r', 0)}},
};

/* ---- its status line ---- */

static const gt_hint one_hints[] = {
    {&scroll_hint, "scroll", NULL}, {&page_name, "page", NULL},
    {&keys_names[KN_LAYER], "layer", NULL}, {&keys_names[KN_STEP], "step", NULL},
    {&enter_name, "go to ▶", NULL}, {&close_name, "close", NULL},
    {&keys_names[KN_HELP], "help", NULL}, {&keys_names[KN_QUIT], "quit", NULL}, {NULL, NULL, NULL},
};
static const gt_hint models_hints[] = {
    {&models_name, "models", NULL}, {&enter_name, "one's report", NULL},
    {&keys_names[KN_LAYER], "layer", NULL}, {&keys_names[KN_MODEL], "model", NULL},
    {&close_name, "close", NULL}, {&keys_names[KN_HELP], "help", NULL},
    {&keys_names[KN_QUIT], "quit", NULL}, {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&scroll_note, &enter_name, &open_name, &models_name, NULL};
static const gt_hint *const contexts[] = {one_hints, models_hints, NULL};
static const gt_hint open_hint = {&open_name, "report", NULL};

static const gt_hint *report_hints(const gt_view *v)
{
    return sheet_report_compares(v) ? models_hints : one_hints;
}

/* ---- its hooks ---- */

static void report_open(gt_view *v)
{
    gt_report_ui *u = sheet_report_ui(v);
    u->scroll = u->col = u->full = 0;
}

static void report_invalidate(gt_view *v, unsigned why)
{
    if (why & SHEET_LAYER)
        sheet_report_ui(v)->scroll = 0;
}

/* Its long lines broken at its width, its scroll within its lines, the table's first
 * column no further than shows the last model at the right edge. */
static void report_prepare(gt_view *v)
{
    gt_report_ui *u = sheet_report_ui(v);
    data_stats_fit(&v->stats, v->layer, text_width(v));
    int lines;
    lines_shown(v, &lines);
    /* a larger screen shows more of it; while it is computed (no lines yet) the scroll
       stays (a session's, kept for when the tables come) */
    if (lines > 0 && u->scroll > sheet_report_max_scroll(v))
        u->scroll = sheet_report_max_scroll(v);
    gt_compare_col c[MAX_MODELS];
    int n = sheet_report_compares(v) ? sheet_report_cols(v, c, MAX_MODELS) : -1;
    int first = u->col;
    if (n < 1) {
        u->col = first < 0 ? 0 : first;
        return;
    }
    first = first > n - 1 ? n - 1 : first < 0 ? 0 : first;
    while (first > 0 && cols_fit(c, n, first - 1, text_width(v)) == n - first + 1)
        first--;
    if (first < u->col)
        u->col = first;
}

/* ---- drawing ---- */

/* Line i (0-based) of text into buf; 0 when there is none. */
static int line_at(const char *text, int i, char *buf, size_t n)
{
    const char *p = text;
    for (; i > 0 && p; i--) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return 0;
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    snprintf(buf, n, "%.*s", (int)len, p);
    return 1;
}

/* Several models: the table that compares them, its label column fixed and the models'
 * columns from the first one chosen (← →), as many as fit; "computing" until every
 * model's report is known. */
static void compare_table(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_report_ui *u = sheet_report_ui(v);
    gt_compare_col c[MAX_MODELS];
    char title[320], note[128], buf[4096];
    int n = sheet_report_cols(v, c, MAX_MODELS), first = u->col;
    int fit = n > 0 ? cols_fit(c, n, first, text_width(v)) : 0;
    const char *models = keys_name_text(&models_name, s->utf8), *enter = enter_name.text;
    const char *close = open_name.text;
    /* the title, then the note of the models shown, each shorter where both do not fit */
    for (int f = 0; f < 4; f++) {
        if (f < 2)
            snprintf(title, sizeof title, "report: %s, layer %d, %d models", v->text_name,
                     v->layer, v->npeers);
        else
            snprintf(title, sizeof title, "report, layer %d", v->layer);
        if (n > 0 && f % 2)
            snprintf(note, sizeof note, "models %d-%d of %d %s", first + 1, first + fit, n,
                     models);
        else if (n > 0)
            snprintf(note, sizeof note, "models %d-%d of %d %s  %s one  %s closes", first + 1,
                     first + fit, n, models, enter, close);
        else
            snprintf(note, sizeof note, "%s closes", close);
        if (panel_frame_fits(r, title, note))
            break;
    }
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    if (n < 1) {
        int known = 0;
        for (int k = 0; k < v->npeers; k++)
            known += data_stats_col(&v->peers[k].stats, v->layer) != NULL;
        sheet_report_computing(s, in, v, &open_name);
        snprintf(buf, sizeof buf, "%d of %d models' reports known: the table compares them "
                 "once all are", known, v->npeers);
        surf_text(s, in.x + 1, in.y + 2, in.w - 1, R_DIM, buf);
        return;
    }
    for (int y = 0; y < in.h && u->scroll + y < COMPARE_ROWS; y++) {
        int row = u->scroll + y;
        compare_line(row, c, n, first, fit, buf, sizeof buf);
        if (row == COMPARE_LEGEND) /* words, not numbers: an ellipsis where it is cut */
            panel_line(s, in.x + 1, in.y + y, in.w - 1, R_DIM, buf);
        else
            surf_text(s, in.x + 1, in.y + y, in.w - 1,
                      row == COMPARE_NAME ? R_TITLE : R_NORMAL, buf);
    }
}

/* Its title's note: the lines shown of n, its keys, and `wide` (from how wide the intervals
 * show, or ""): without the keys, then wide alone, then without it where the note would not
 * fit with it. */
static void report_note(const gt_surface *s, gt_rect r, const char *title, const gt_view *v,
                        int n, int shown, int marked, const char *wide, char *note, size_t size)
{
    const int scroll = sheet_report_ui(v)->scroll, last = scroll + shown;
    char enter[48] = "", range[40], hints[128];
    if (marked >= 0)
        snprintf(enter, sizeof enter, "%s: to %s  ", enter_name.text, s->utf8 ? "▶" : ">");
    else if (v->npeers > 1)
        snprintf(enter, sizeof enter, "%s every model  ", enter_name.text);
    snprintf(range, sizeof range, "%d-%d of %d", scroll + 1, last < n ? last : n, n);
    snprintf(hints, sizeof hints, "%s scroll  %s%s closes", keys_name_text(&scroll_note, s->utf8),
             enter, open_name.text);
    for (int f = *wide ? 0 : 3; f < 4; f++) {
        if (f == 0)
            snprintf(note, size, "%s  %s  %s", range, wide, hints);
        else if (f == 1)
            snprintf(note, size, "%s  %s", range, wide);
        else if (f == 2)
            snprintf(note, size, "%s", wide);
        else
            snprintf(note, size, "%s  %s", range, hints);
        if (panel_frame_fits(r, title, note))
            return;
    }
}

static void report_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    if (sheet_report_compares(v)) {
        compare_table(s, r, v);
        return;
    }
    const int scroll = sheet_report_ui(v)->scroll;
    int n, width, need;
    const char *text = data_stats_tables(&v->stats, v->layer, &n, &width);
    char title[600], note[200], buf[4096], wide[48] = "";
    snprintf(title, sizeof title, "report: %s as loaded, layer %d%s%s", v->text_name, v->layer,
             v->npeers > 1 ? ", " : "", v->npeers > 1 ? v->model_name : "");
    int rows = r.h - 1, cols = text ? layout_text_columns(r, n, width) : 1;
    size_t step;
    int marked = -1; /* the line Enter goes to the step of */
    if (text && sheet_report_step(v, &step, &marked) != 0)
        marked = -1;
    const int edge = r.x > 0; /* panel_frame's rule on a right-hand one */
    if (text && (need = data_stats_ci_need(&v->stats, v->layer)) > 0) /* shown without them */
        snprintf(wide, sizeof wide, "95%% intervals from %d columns", need + edge + 1);
    if (text)
        report_note(s, r, title, v, n, cols * rows, marked, wide, note, sizeof note);
    else
        snprintf(note, sizeof note, "%s closes", open_name.text);
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1, w = in.w - 1;
    if (!text) {
        sheet_report_computing(s, in, v, &open_name);
        return;
    }
    int colw = cols == 2 ? (w - 1) / 2 : w;
    for (int c = 0; c < cols; c++)
        for (int y = 0; y < in.h; y++) {
            if (!line_at(text, scroll + c * in.h + y, buf, sizeof buf))
                break;
            surf_text(s, x + c * (colw + 1), in.y + y, colw, R_NORMAL, buf);
            if (scroll + c * in.h + y == marked)
                surf_put(s, x + c * (colw + 1), in.y + y, R_MARK, s->utf8 ? "▶" : ">");
        }
}

void sheet_report_computing(gt_surface *s, gt_rect in, const gt_view *v,
                            const gt_keyname *closes)
{
    const gt_data_stats *sv = &v->stats;
    char buf[512];
    int x = in.x + 1, w = in.w - 1, layer;
    double p = data_stats_progress(sv, &layer);
    if (sv->error[0] && !data_stats_busy(sv)) {
        panel_wrap(s, x, in.y + 1, w, in.h - 1, R_ERROR, sv->error);
        return;
    }
    snprintf(buf, sizeof buf, "computing the report of layer %d%s ", v->layer,
             s->utf8 ? "…" : "...");
    int used = surf_text(s, x, in.y + 1, w, R_NORMAL, buf);
    int bw = w - used - 8 > 40 ? 40 : w - used - 8;
    if (layer == v->layer && bw > 4) {
        surf_text(s, x + used, in.y + 1, 1, R_DIM, "[");
        plot_bar(s, x + used + 1, in.y + 1, bw, p, R_PROGRESS);
        surf_text(s, x + used + 1 + bw, in.y + 1, 1, R_DIM, "]");
        surf_printf(s, x + used + bw + 2, in.y + 1, 6, R_NORMAL, " %3.0f%%", 100.0 * p);
    }
    snprintf(buf, sizeof buf,
             "the keys keep working meanwhile; %s or %s goes back to the panels and stops the "
             "computation. The tables are those of gatetui --report (%d windows of %d "
             "%ss from the start of the text).",
             closes->text, keys_names[KN_CANCEL].text, REPORT_WINDOWS, REPORT_WINDOW_LEN,
             model_step_noun(v->m));
    panel_wrap(s, x, in.y + 3, w, in.h - 3, R_DIM, buf);
}

/* A session keeps its scroll, the column and which table of several models. */
static int report_save(const gt_view *v, long *val)
{
    const gt_report_ui *u = sheet_report_ui(v);
    val[0] = u->scroll;
    val[1] = u->col;
    val[2] = u->full;
    return 3;
}

static int report_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    gt_report_ui *u = sheet_report_ui(v);
    if (sheet_load_check(val, n, 0, 0, 1L << 24, "the scroll", why, len) ||
        sheet_load_check(val, n, 1, 0, v->npeers - 1, "the first model's column", why, len) ||
        sheet_load_check(val, n, 2, 0, 1, "the whole report (1) or not (0)", why, len))
        return -1;
    u->scroll = n > 0 ? (int)val[0] : 0;
    u->col = n > 1 ? (int)val[1] : 0;
    u->full = n > 2 && val[2] == 1;
    return 0;
}

const gt_sheet sheet_report = {
    .id = "report",
    .name = "the report's tables",
    .ui_size = sizeof(gt_report_ui),
    .needs = SHEET_NEEDS_REPORT | SHEET_SHOWS_PEERS,
    .open = report_open,
    .prepare = report_prepare,
    .invalidate = report_invalidate,
    .draw = report_draw,
    .save = report_save,
    .load = report_load,
    .hints = report_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .panels_hint = &open_hint,
    .panels_at = 10,
    .edited_at = 8,
};
