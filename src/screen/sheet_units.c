/* The unit table's sheet (U; doc/screen.md, "The unit table"): the report's unit table of
 * the layer shown (doc/measures.md, "The unit table") for the text as loaded, a row per unit
 * in the order of the column chosen, the selected row marked and kept in sight, the measured
 * half-life's 95% interval beside it where the whole table fits with it (else the note says
 * from how wide); its keys
 * select a row, the column sorted by and the order, and Enter selects the row's unit on the
 * panels. The rows come with the report's tables (data_stats.h): "computing" with the
 * report's progress until they are known. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/unittable.h"
#include "screen/panel_frame.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"

/* How its notes and hints name its keys. */
static const gt_keyname row_name = {KB_SYM(K_UP, 0), "↑↓", "j/k", 0};
static const gt_keyname col_name = {KB_SYM(K_LEFT, 0), "←→", "h/l", 0};
static const gt_keyname reverse_name = {KB_CHAR('s', 0), "s", NULL, 0};
static const gt_keyname enter_name = {KB_SYM(K_ENTER, 0), "Enter", NULL, 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "U Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('U', 0), "U", NULL, 0};

gt_units_ui *sheet_units_ui(const gt_view *v)
{
    return sheet_ui(v, &sheet_units);
}

gt_units_data *sheet_units_data(const gt_view *v)
{
    return sheet_data(v, &sheet_units);
}

/* ---- its order ---- */

/* The table's number of columns (0 while it is not known). */
static int ncols(const gt_view *v)
{
    return data_stats_units(&v->stats, v->layer) ? unittable_ncols(v->stats.ngates) : 0;
}

int sheet_units_page(const gt_view *v)
{
    int h = v->lay.r[P_GATES].h - 2; /* the title, the columns' names */
    return h > 1 ? h : 1;
}

/* The selected row in the table and in sight. */
static void keep_in_sight(const gt_view *v, gt_units_ui *u)
{
    const int H = model_width(v->m, v->layer), page = sheet_units_page(v);
    u->row = u->row < 0 ? 0 : u->row >= H ? H - 1 : u->row;
    if (u->top > u->row)
        u->top = u->row;
    if (u->top < u->row - page + 1)
        u->top = u->row - page + 1;
    int max = H - page > 0 ? H - page : 0;
    u->top = u->top < 0 ? 0 : u->top > max ? max : u->top;
}

/* The column sorted by, in this model's table (unittable_col). */
static int sorted_col(const gt_view *v)
{
    const gt_units_ui *u = sheet_units_ui(v);
    int ng = v->stats.ngates, g = u->gate < ng ? u->gate : ng - 1;
    if (u->col == UT_MEAN && ng == 0) /* a cell without gates: by unit */
        return 0;
    return unittable_column((gt_unit_col)u->col, g < 0 ? 0 : g, ng);
}

/* Its order derived for the frame, the selected row kept in sight. */
static void units_prepare(gt_view *v)
{
    gt_units_ui *u = sheet_units_ui(v);
    gt_units_data *d = sheet_units_data(v);
    const gt_unit_row *rows = data_stats_units(&v->stats, v->layer);
    d->known = rows != NULL;
    keep_in_sight(v, u);
    if (rows)
        unittable_order(rows, model_width(v->m, v->layer), v->stats.ngates, sorted_col(v), u->reverse,
                        d->order);
}

/* ---- the keys ---- */

static gt_act units_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_units);
    return ACT_REDRAW;
}

/* The selected row moved by d (KEYS_PAGE: a page), the first row shown following it. */
static gt_act units_row(gt_view *v, int d)
{
    gt_units_ui *u = sheet_units_ui(v);
    const int page = sheet_units_page(v);
    u->row += d == KEYS_PAGE ? page : d == -KEYS_PAGE ? -page : d;
    keep_in_sight(v, u);
    return ACT_REDRAW;
}

/* The column sorted by moved by d. */
static gt_act units_column(gt_view *v, int d)
{
    gt_units_ui *u = sheet_units_ui(v);
    int n = ncols(v);
    if (!n)
        return ACT_REDRAW;
    int g, col = ((sorted_col(v) + d) % n + n) % n;
    u->col = (int)unittable_col(col, v->stats.ngates, &g);
    if (g >= 0)
        u->gate = g;
    units_prepare(v);
    return ACT_REDRAW;
}

static gt_act units_reverse(gt_view *v, int arg)
{
    (void)arg;
    gt_units_ui *u = sheet_units_ui(v);
    u->reverse = !u->reverse;
    units_prepare(v);
    return ACT_REDRAW;
}

/* Enter: the selected row's unit becomes the unit selected on the panels. */
static gt_act units_choose(gt_view *v, int arg)
{
    (void)arg;
    const gt_units_data *d = sheet_units_data(v);
    if (!d->known) {
        snprintf(v->ui->msg, sizeof v->ui->msg, "the unit table is being computed");
        return ACT_REDRAW;
    }
    int unit = d->order[sheet_units_ui(v)->row];
    view_select_unit(v, unit);
    sheet_set(v, NULL);
    snprintf(v->ui->msg, sizeof v->ui->msg, "unit %d selected", unit);
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the unit table", 0, 1, sheet_close_key, {KB_CHAR('U', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "the unit table: the row above, below; a page", 0, 1, units_row,
     {KB_SYM(K_UP, -1), KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1),
      KB_CHAR('K', -KEYS_PAGE), KB_CHAR('J', KEYS_PAGE), KB_SYM(K_PGUP, -KEYS_PAGE),
      KB_SYM(K_PGDN, KEYS_PAGE)}},
    {NULL, "the unit table: sort by the column left, right", 0, 1, units_column,
     {KB_SYM(K_LEFT, -1), KB_SYM(K_RIGHT, 1), KB_CHAR('h', -1), KB_CHAR('l', 1)}},
    {NULL, "the unit table: s reverses the order", 0, 1, units_reverse, {KB_CHAR('s', 0)}},
    {"U", "the unit table: mean gates, three half-lives per unit (← → sort, Enter selects; U Esc close)",
     0, 0, units_toggle, {KB_CHAR('U', 0)}},
    {"Enter", "in the unit table: select the row's unit on the panels", 0, 1, units_choose,
     {KB_SYM(K_ENTER, 0)}},
};

/* ---- its status line ---- */

static const gt_hint hints[] = {
    {&row_name, "row", NULL}, {&col_name, "column", NULL}, {&reverse_name, "reverse", NULL},
    {&enter_name, "select", NULL}, {&close_name, "close", NULL},
    {&keys_names[KN_HELP], "help", NULL}, {&keys_names[KN_QUIT], "quit", NULL}, {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&enter_name, &open_name, NULL};
static const gt_hint *const contexts[] = {hints, NULL};

static const gt_hint *units_hints(const gt_view *v)
{
    (void)v;
    return hints;
}

/* ---- its hooks ---- */

static int units_init(gt_view *v, gt_error *e)
{
    gt_units_data *d = sheet_units_data(v);
    d->order = malloc((size_t)v->m->hidden_max * sizeof *d->order);
    return d->order ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory for the screen");
}

static void units_free(gt_view *v)
{
    gt_units_data *d = sheet_units_data(v);
    free(d->order);
    d->order = NULL;
}

static void units_open(gt_view *v)
{
    gt_units_ui *u = sheet_units_ui(v);
    u->row = u->top = 0;
}

static void units_invalidate(gt_view *v, unsigned why)
{
    if (why & SHEET_LAYER) {
        gt_units_ui *u = sheet_units_ui(v);
        u->row = u->top = 0;
    }
}

/* ---- drawing ---- */

#define COLW 9 /* each column's width, its gap included */

/* Column col's name (with the mark of the order when it is the one sorted by). */
static void column_name(const gt_view *v, const gt_surface *s, int col, char *buf, size_t n)
{
    const gt_data_stats *sv = &v->stats;
    static const char *const glyphs[] = {"unit", "mean", "t½ gate", "t½ bias", "t½ meas",
                                         "left", "right"};
    static const char *const plain[] = {"unit", "mean", "hl gate", "hl bias", "hl meas",
                                        "left", "right"};
    int g;
    gt_unit_col c = unittable_col(col, sv->ngates, &g);
    const char *mark = "", *name = s->utf8 ? glyphs[c] : plain[c];
    if (col == sorted_col(v)) { /* largest first: down; smallest first: up */
        int down = (col != 0) != (sheet_units_ui(v)->reverse != 0);
        mark = down ? (s->utf8 ? "▼" : "v") : (s->utf8 ? "▲" : "^");
    }
    if (c == UT_MEAN)
        snprintf(buf, n, "%s %s%s", name, sv->gate_name[g], mark);
    else
        snprintf(buf, n, "%s%s", name, mark);
}

/* Unit j's value in column col, as shown. */
static void cell(const gt_view *v, int j, int col, char *buf, size_t n)
{
    const gt_data_stats *sv = &v->stats;
    int g;
    gt_unit_col c = unittable_col(col, sv->ngates, &g);
    const gt_unit_row *u = &data_stats_units(sv, v->layer)[j];
    double x = unittable_value(u, j, col, sv->ngates);
    if (c == UT_UNIT)
        snprintf(buf, n, "%d", j);
    else if (c == UT_MEASURED && u->measured_ci.beyond)
        snprintf(buf, n, "> %d", sv->K);
    else if (isnan(x))
        snprintf(buf, n, "-");
    else if (isinf(x))
        snprintf(buf, n, "inf");
    else
        snprintf(buf, n, c == UT_MEAN ? "%.4f" : "%.2f", x);
}

#define MAX_COLS 16

#define CIW 16 /* the measured half-life's 95% interval ("[10.12, 11.70]"), its gap included */

/* Each column's width, its gap included, into cw: COLW each where they all fit so, else
 * each its widest name (with room for the order's mark beside it, so that another order
 * keeps the layout) or value and a gap of two, or one, or one without that room (the table
 * reflowed, every column whole). Returns how many columns fit in w from the first: all at
 * 80 columns and more; *least: the narrowest w they all fit in. */
static int col_widths(const gt_surface *s, const gt_view *v, int w, int *cw, int *least)
{
    const int H = model_width(v->m, v->layer), ncol = unittable_ncols(v->stats.ngates);
    int nat[MAX_COLS], bare[MAX_COLS], total = 0, tight = 0;
    char buf[64];
    for (int c = 0; c < ncol && c < MAX_COLS; c++) {
        column_name(v, s, c, buf, sizeof buf);
        bare[c] = surf_width(buf);
        nat[c] = bare[c] + (c == sorted_col(v) ? 0 : 1);
        for (int j = 0; j < H; j++) {
            cell(v, j, c, buf, sizeof buf);
            int cw1 = surf_width(buf);
            nat[c] = cw1 > nat[c] ? cw1 : nat[c];
            bare[c] = cw1 > bare[c] ? cw1 : bare[c];
        }
        total += nat[c];
        tight += bare[c];
    }
    const int n = ncol < MAX_COLS ? ncol : MAX_COLS;
    const int roomy = total + n <= w; /* else without the mark's room */
    *least = (roomy ? total : tight) + n;
    int gap = n * COLW <= w ? 0 : total + 2 * n <= w ? 2 : 1;
    int fit = 0, used = 0;
    for (int c = 0; c < n; c++) {
        cw[c] = gap ? (roomy ? nat[c] : bare[c]) + gap : COLW;
        if (used + cw[c] > w)
            break;
        used += cw[c];
        fit++;
    }
    while (fit < n && fit > 1 && used + 2 > w) /* room for the " …" that says so */
        used -= cw[--fit];
    return fit;
}

/* The columns that fit in w, their widths into cw: with the measured half-life's interval
 * (*ci 1) when every column fits beside it, else without. Returns how many fit; *need: the
 * narrowest w the table fits in with the interval. */
static int layout(const gt_surface *s, const gt_view *v, int w, int *cw, int *ci, int *need)
{
    const int ncol = unittable_ncols(v->stats.ngates);
    int least, fit = col_widths(s, v, w - CIW, cw, &least);
    *need = least + CIW;
    *ci = fit == ncol;
    return *ci ? fit : col_widths(s, v, w, cw, &least);
}

/* Unit j's line at row y (j < 0: the columns' names), its columns at cx[] (cw[] wide), the
 * interval after the measured half-life's when ci. */
static void draw_line(gt_surface *s, gt_rect in, const gt_view *v, int y, int j, gt_role role,
                      const int *cx, const int *cw, int fit, int ci)
{
    char buf[64];
    int g;
    for (int c = 0; c < fit; c++) {
        gt_role rc = j >= 0 ? role : c == sorted_col(v) ? R_KEY : R_TITLE;
        if (j < 0)
            column_name(v, s, c, buf, sizeof buf);
        else
            cell(v, j, c, buf, sizeof buf);
        surf_text(s, cx[c] + cw[c] - 1 - surf_width(buf), in.y + y, cw[c] - 1, rc, buf);
        if (!ci || unittable_col(c, v->stats.ngates, &g) != UT_MEASURED)
            continue;
        if (j < 0)
            snprintf(buf, sizeof buf, "95%% interval");
        else
            interval_text(&data_stats_units(&v->stats, v->layer)[j].measured_ci, v->stats.K,
                          2, buf, sizeof buf);
        surf_text(s, cx[c] + cw[c] + CIW - 1 - surf_width(buf), in.y + y, CIW - 1,
                  j < 0 ? R_TITLE : role, buf);
    }
}

static void draw_rows(gt_surface *s, gt_rect in, const gt_view *v)
{
    const gt_units_ui *u = sheet_units_ui(v);
    const int H = model_width(v->m, v->layer), ncol = unittable_ncols(v->stats.ngates);
    int cw[MAX_COLS], cx[MAX_COLS + 1] = {in.x}, ci, need, g;
    const int fit = layout(s, v, in.w, cw, &ci, &need);
    for (int c = 0; c < fit; c++) /* the interval's column after the measured one's */
        cx[c + 1] = cx[c] + cw[c] +
                    (ci && unittable_col(c, v->stats.ngates, &g) == UT_MEASURED ? CIW : 0);
    draw_line(s, in, v, 0, -1, R_TITLE, cx, cw, fit, ci);
    if (fit < ncol) /* even one apart, the last columns do not fit: said */
        surf_text(s, cx[fit], in.y, in.x + in.w - cx[fit], R_DIM, s->utf8 ? " …" : " ~");
    for (int y = 1; y < in.h && u->top + y - 1 < H; y++) {
        int rank = u->top + y - 1, j = sheet_units_data(v)->order[rank];
        gt_role role = rank == u->row ? R_SELECTED : R_NORMAL;
        if (role == R_SELECTED)
            surf_fill(s, (gt_rect){in.x, in.y + y, in.w, 1}, role, " ");
        draw_line(s, in, v, y, j, role, cx, cw, fit, ci);
    }
}

/* The title and the note of the row (by, the column sorted by; NULL: not yet known) with
 * `wide` (from how wide the intervals show, or "") after the keys, each shorter where both
 * do not fit, at the shortest the title and wide alone. Returns whether they fit so. */
static int title_note(char *title, size_t tl, char *note, size_t nl, gt_rect r,
                      const gt_view *v, const char *by, const char *wide)
{
    for (int f = 0; f < (*wide ? 5 : 4); f++) {
        if (f < 2)
            snprintf(title, tl, "unit table: %s as loaded, layer %d%s%s", v->text_name,
                     v->layer, v->npeers > 1 ? ", " : "", v->npeers > 1 ? v->model_name : "");
        else
            snprintf(title, tl, "unit table, layer %d", v->layer);
        if (f == 4)
            snprintf(note, nl, "%s", wide + 2);
        else if (by && f % 2)
            snprintf(note, nl, "row %d of %d  by %s%s", sheet_units_ui(v)->row + 1,
                     model_width(v->m, v->layer), by, wide);
        else if (by)
            snprintf(note, nl, "row %d of %d  by %s  %s selects%s  %s closes",
                     sheet_units_ui(v)->row + 1, model_width(v->m, v->layer), by, enter_name.text, wide,
                     open_name.text);
        else
            snprintf(note, nl, "%s closes", open_name.text);
        if (panel_frame_fits(r, title, note))
            return 1;
    }
    return 0;
}

static void units_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    char title[600], note[160], by[32], wide[48] = "";
    int known = sheet_units_data(v)->known;
    if (known) {
        int cw[MAX_COLS], ci, need, edge = r.x > 0; /* panel_frame's rule on a right-hand one */
        layout(s, v, r.w - edge, cw, &ci, &need);
        if (!ci)
            snprintf(wide, sizeof wide, "  95%% intervals from %d columns", need + edge);
        column_name(v, s, sorted_col(v), by, sizeof by);
    }
    if (!title_note(title, sizeof title, note, sizeof note, r, v, known ? by : NULL, wide))
        title_note(title, sizeof title, note, sizeof note, r, v, known ? by : NULL, "");
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    if (!known)
        sheet_report_computing(s, in, v, &open_name);
    else
        draw_rows(s, in, v);
}

/* A session keeps the selected row, the first shown, the column, its gate and the way. */
static int units_save(const gt_view *v, long *val)
{
    const gt_units_ui *u = sheet_units_ui(v);
    val[0] = u->row;
    val[1] = u->top;
    val[2] = u->col;
    val[3] = u->gate;
    val[4] = u->reverse;
    return 5;
}

static int units_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    gt_units_ui *u = sheet_units_ui(v);
    /* the state is every model's (the sheet follows Tab): the largest of their ranges */
    int blocks[REPORT_MAX_GATES], ng = 0, units = 0;
    for (int k = 0; k < (v->peers ? v->npeers : 1); k++) {
        const gt_model *m = v->peers ? v->peers[k].m : v->m;
        const int g = model_sigmoid_gates(m, blocks);
        ng = g > ng ? g : ng;
        units = m->hidden_max > units ? m->hidden_max : units;
    }
    static const char *const what[5] = {"the selected row", "the first row shown",
                                        "the column sorted by", "the gate of a mean's column",
                                        "reversed (1) or not (0)"};
    const long hi[5] = {units - 1, units - 1, UT_RIGHT, ng > 0 ? ng - 1 : 0, 1};
    for (int i = 0; i < 5; i++)
        if (sheet_load_check(val, n, i, 0, hi[i], what[i], why, len))
            return -1;
    int *f[5] = {&u->row, &u->top, &u->col, &u->gate, &u->reverse};
    for (int i = 0; i < n && i < 5; i++)
        *f[i] = (int)val[i];
    return 0;
}

const gt_sheet sheet_units = {
    .id = "units",
    .name = "the unit table",
    .data_size = sizeof(gt_units_data),
    .ui_size = sizeof(gt_units_ui),
    .needs = SHEET_NEEDS_REPORT,
    .init = units_init,
    .free = units_free,
    .open = units_open,
    .prepare = units_prepare,
    .invalidate = units_invalidate,
    .draw = units_draw,
    .save = units_save,
    .load = units_load,
    .hints = units_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
};
