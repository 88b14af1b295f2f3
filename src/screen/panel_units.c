/* The unit table view (doc/screen.md, "The unit table"): the report's unit table of the
 * layer shown (doc/measures.md, "The unit table") for the text as loaded, a row per unit in
 * the order of the column chosen, the selected row marked; "computing" with the report's
 * progress until it is known. */
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
    double x = unittable_value(&data_stats_units(sv, v->layer)[j], j, col, sv->ngates);
    if (c == UT_UNIT)
        snprintf(buf, n, "%d", j);
    else if (c == UT_MEASURED && isnan(x))
        snprintf(buf, n, "> %d", sv->K);
    else if (isnan(x))
        snprintf(buf, n, "-");
    else if (isinf(x))
        snprintf(buf, n, "inf");
    else
        snprintf(buf, n, c == UT_MEAN ? "%.4f" : "%.2f", x);
}

#define MAX_COLS 16

/* Each column's width, its gap included, into cw: COLW each where they all fit so, else
 * each its widest name (a mark of the order beside it) or value and a gap of two, or one
 * (the table reflowed, every column whole). Returns how many columns fit in w from the
 * first: all at 80 columns and more. */
static int col_widths(const gt_surface *s, const gt_view *v, int w, int *cw)
{
    const int H = model_width(v->m, v->layer), ncols = unittable_ncols(v->stats.ngates);
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

static void draw_rows(gt_surface *s, gt_rect in, const gt_view *v)
{
    const int H = model_width(v->m, v->layer), ncols = unittable_ncols(v->stats.ngates);
    int cw[MAX_COLS], cx[MAX_COLS + 1] = {in.x};
    const int fit = col_widths(s, v, in.w, cw);
    for (int c = 0; c < fit; c++)
        cx[c + 1] = cx[c] + cw[c];
    char buf[64];
    for (int c = 0; c < fit; c++) {
        col_name(v, s, c, buf, sizeof buf);
        surf_text(s, cx[c + 1] - 1 - surf_width(buf), in.y, cw[c] - 1,
                  c == view_units_col(v) ? R_KEY : R_TITLE, buf);
    }
    if (fit < ncols) /* even one apart, the last columns do not fit: said */
        surf_text(s, cx[fit], in.y, in.x + in.w - cx[fit], R_DIM, s->utf8 ? " …" : " ~");
    for (int y = 1; y < in.h && v->ui->ut_top + y - 1 < H; y++) {
        int rank = v->ui->ut_top + y - 1, j = v->ut_order[rank];
        gt_role role = rank == v->ui->ut_row ? R_SELECTED : R_NORMAL;
        if (role == R_SELECTED)
            surf_fill(s, (gt_rect){in.x, in.y + y, in.w, 1}, role, " ");
        for (int c = 0; c < fit; c++) {
            cell(v, j, c, buf, sizeof buf);
            surf_text(s, cx[c + 1] - 1 - surf_width(buf), in.y + y, cw[c] - 1, role, buf);
        }
    }
}

void panel_units(gt_surface *s, gt_rect r, const gt_view *v)
{
    char title[600], note[96], by[32];
    int known = v->ut_known;
    if (known)
        col_name(v, s, view_units_col(v), by, sizeof by);
    /* the title, then the note of the row, each shorter where both do not fit */
    for (int f = 0; f < 4; f++) {
        if (f < 2)
            snprintf(title, sizeof title, "unit table: %s as loaded, layer %d%s%s",
                     v->text_name, v->layer, v->npeers > 1 ? ", " : "",
                     v->npeers > 1 ? v->model_name : "");
        else
            snprintf(title, sizeof title, "unit table, layer %d", v->layer);
        if (known)
            snprintf(note, sizeof note, f % 2 ? "row %d of %d  by %s" :
                     "row %d of %d  by %s  Enter selects  U closes", v->ui->ut_row + 1,
                     model_width(v->m, v->layer), by);
        else
            snprintf(note, sizeof note, "U closes");
        if (panel_frame_fits(r, title, note))
            break;
    }
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    if (!known)
        panel_stats_computing(s, in, v);
    else
        draw_rows(s, in, v);
}
