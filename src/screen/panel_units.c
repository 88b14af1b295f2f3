/* The unit table view (doc/screen.md, "The unit table"): the report's unit table of the
 * layer shown (doc/measures.md, "The unit table") for the text as loaded, a row per unit in
 * the order of the column chosen, the selected row marked, the measured half-life's 95%
 * interval beside it where the whole table fits with it (else the note says from how wide);
 * "computing" with the report's progress until it is known. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "analysis/unittable.h"
#include "screen/panel.h"

#define COLW 9 /* each column's width, its gap included */

/* Column col's name (with the mark of the order when it is the one sorted by). */
static void col_name(const gt_view *v, const gt_surface *s, int col, char *buf, size_t n)
{
    const gt_data_stats *sv = &v->stats;
    static const char *const names[] = {"unit", "mean", "t½ gate", "t½ bias", "t½ meas",
                                        "left", "right"};
    static const char *const plain[] = {"unit", "mean", "hl gate", "hl bias", "hl meas",
                                        "left", "right"};
    int g;
    gt_unit_col c = unittable_col(col, sv->ngates, &g);
    const char *mark = "", *name = s->utf8 ? names[c] : plain[c];
    if (col == view_units_col(v)) { /* largest first: down; smallest first: up */
        int down = (col != 0) != (v->ui->ut_reverse != 0);
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
 * each its widest name (a mark of the order beside it) or value and a gap of two, or one
 * (the table reflowed, every column whole). Returns how many columns fit in w from the
 * first: all at 80 columns and more; *least: the narrowest w they all fit in. */
static int col_widths(const gt_surface *s, const gt_view *v, int w, int *cw, int *least)
{
    const int H = v->m->hidden, ncols = unittable_ncols(v->stats.ngates);
    int nat[MAX_COLS], total = 0;
    char buf[64];
    for (int c = 0; c < ncols && c < MAX_COLS; c++) {
        col_name(v, s, c, buf, sizeof buf);
        nat[c] = surf_width(buf) + (c == view_units_col(v) ? 0 : 1);
        for (int j = 0; j < H; j++) {
            cell(v, j, c, buf, sizeof buf);
            int cw1 = surf_width(buf);
            nat[c] = cw1 > nat[c] ? cw1 : nat[c];
        }
        total += nat[c];
    }
    const int n = ncols < MAX_COLS ? ncols : MAX_COLS;
    *least = total + n;
    int gap = n * COLW <= w ? 0 : total + 2 * n <= w ? 2 : 1;
    int fit = 0, used = 0;
    for (int c = 0; c < n; c++) {
        cw[c] = gap ? nat[c] + gap : COLW;
        if (used + cw[c] > w)
            break;
        used += cw[c];
        fit++;
    }
    return fit;
}

/* The columns that fit in w, their widths into cw: with the measured half-life's interval
 * (*ci 1) when every column fits beside it, else without. Returns how many fit; *need: the
 * narrowest w the table fits in with the interval. */
static int layout(const gt_surface *s, const gt_view *v, int w, int *cw, int *ci, int *need)
{
    const int ncols = unittable_ncols(v->stats.ngates);
    int least, fit = col_widths(s, v, w - CIW, cw, &least);
    *need = least + CIW;
    *ci = fit == ncols;
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
        gt_role rc = j >= 0 ? role : c == view_units_col(v) ? R_KEY : R_TITLE;
        if (j < 0)
            col_name(v, s, c, buf, sizeof buf);
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
    const int H = v->m->hidden, ncols = unittable_ncols(v->stats.ngates);
    int cw[MAX_COLS], cx[MAX_COLS + 1] = {in.x}, ci, need, g;
    const int fit = layout(s, v, in.w, cw, &ci, &need);
    for (int c = 0; c < fit; c++) /* the interval's column after the measured one's */
        cx[c + 1] = cx[c] + cw[c] +
                    (ci && unittable_col(c, v->stats.ngates, &g) == UT_MEASURED ? CIW : 0);
    draw_line(s, in, v, 0, -1, R_TITLE, cx, cw, fit, ci);
    if (fit < ncols) /* even one apart, the last columns do not fit: said */
        surf_text(s, cx[fit], in.y, in.x + in.w - cx[fit], R_DIM, s->utf8 ? " …" : " ~");
    for (int y = 1; y < in.h && v->ui->ut_top + y - 1 < H; y++) {
        int rank = v->ui->ut_top + y - 1, j = v->ut_order[rank];
        gt_role role = rank == v->ui->ut_row ? R_SELECTED : R_NORMAL;
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
        else if (by)
            snprintf(note, nl, f % 2 ? "row %d of %d  by %s%s" :
                     "row %d of %d  by %s  Enter selects%s  U closes", v->ui->ut_row + 1,
                     v->m->hidden, by, wide);
        else
            snprintf(note, nl, "U closes");
        if (panel_frame_fits(r, title, note))
            return 1;
    }
    return 0;
}

void panel_units(gt_surface *s, gt_rect r, const gt_view *v)
{
    char title[600], note[160], by[32], wide[48] = "";
    int known = v->ut_known;
    if (known) {
        int cw[MAX_COLS], ci, need, edge = r.x > 0; /* panel_frame's rule on a right-hand one */
        layout(s, v, r.w - edge, cw, &ci, &need);
        if (!ci)
            snprintf(wide, sizeof wide, "  95%% intervals from %d columns", need + edge);
        col_name(v, s, view_units_col(v), by, sizeof by);
    }
    if (!title_note(title, sizeof title, note, sizeof note, r, v, known ? by : NULL, wide))
        title_note(title, sizeof title, note, sizeof note, r, v, known ? by : NULL, "");
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    if (!known)
        panel_stats_computing(s, in, v);
    else
        draw_rows(s, in, v);
}
