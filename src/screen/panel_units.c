/* The unit table view (doc/screen.md, "The unit table"): the report's unit table of the
 * layer shown (doc/measures.md, "The unit table") for the text as loaded, a row per unit in
 * the order of the column chosen, the selected row marked, the measured half-life's 95%
 * interval beside it where the view is wide enough (else the note says from how wide);
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

#define CIW 16 /* the measured half-life's 95% interval ("[10.12, 11.70]"), its gap included */

/* The columns' width with the intervals' column beside the measured half-life's. */
static int width_with_ci(const gt_view *v)
{
    return unittable_ncols(v->stats.ngates) * COLW + CIW;
}

/* Unit j's line (j < 0: the columns' names) at row y, the columns that fit whole, with the
 * measured half-life's interval after it when ci. */
static void draw_line(gt_surface *s, gt_rect in, const gt_view *v, int y, int j, gt_role role,
                      int ci)
{
    const int ncols = unittable_ncols(v->stats.ngates);
    char buf[64];
    int g;
    for (int c = 0, x = 0; c < ncols && x + COLW <= in.w; c++, x += COLW) {
        gt_role r = j < 0 && c == view_units_col(v) ? R_KEY : j < 0 ? R_TITLE : role;
        if (j < 0)
            col_name(v, s, c, buf, sizeof buf);
        else
            cell(v, j, c, buf, sizeof buf);
        surf_text(s, in.x + x + COLW - 1 - surf_width(buf), in.y + y, COLW - 1, r, buf);
        if (!ci || unittable_col(c, v->stats.ngates, &g) != UT_MEASURED)
            continue;
        if (j < 0)
            snprintf(buf, sizeof buf, "95%% interval");
        else
            interval_text(&data_stats_units(&v->stats, v->layer)[j].measured_ci, v->stats.K, 2,
                          buf, sizeof buf);
        x += CIW;
        surf_text(s, in.x + x + COLW - 1 - surf_width(buf), in.y + y, CIW - 1, r, buf);
    }
}

static void draw_rows(gt_surface *s, gt_rect in, const gt_view *v)
{
    const int H = v->m->hidden, ci = width_with_ci(v) <= in.w;
    draw_line(s, in, v, 0, -1, R_TITLE, ci);
    for (int y = 1; y < in.h && v->ui->ut_top + y - 1 < H; y++) {
        int rank = v->ui->ut_top + y - 1, j = v->ut_order[rank];
        gt_role role = rank == v->ui->ut_row ? R_SELECTED : R_NORMAL;
        if (role == R_SELECTED)
            surf_fill(s, (gt_rect){in.x, in.y + y, in.w, 1}, role, " ");
        draw_line(s, in, v, y, j, role, ci);
    }
}

void panel_units(gt_surface *s, gt_rect r, const gt_view *v)
{
    char title[600], note[4][160], by[32];
    const char *pick = "U closes";
    snprintf(title, sizeof title, "unit table: %s as loaded, layer %d%s%s", v->text_name,
             v->layer, v->npeers > 1 ? ", " : "", v->npeers > 1 ? v->model_name : "");
    if (v->ut_known) {
        /* the intervals' column left out: from how wide it shows, before the keys */
        const int edge = r.x > 0, need = width_with_ci(v) + edge, ci = need <= r.w;
        char wide[48];
        snprintf(wide, sizeof wide, "95%% intervals from %d columns", need);
        col_name(v, s, view_units_col(v), by, sizeof by);
        snprintf(note[0], sizeof note[0], "row %d of %d  by %s  Enter selects  %s  U closes",
                 v->ui->ut_row + 1, v->m->hidden, by, wide);
        snprintf(note[1], sizeof note[1], "row %d of %d  %s", v->ui->ut_row + 1, v->m->hidden,
                 wide);
        snprintf(note[2], sizeof note[2], "%s", wide);
        snprintf(note[3], sizeof note[3], "row %d of %d  by %s  Enter selects  U closes",
                 v->ui->ut_row + 1, v->m->hidden, by);
        const char *const notes[4] = {note[0], note[1], note[2], note[3]};
        pick = ci ? note[3] : panel_note_pick(r, title, notes, 4);
    }
    gt_rect in;
    panel_frame(s, r, title, pick, &in);
    if (!v->ut_known)
        panel_stats_computing(s, in, v);
    else
        draw_rows(s, in, v);
}
