/* The unit table view's state and order (see view.h): the rows of the report's unit table
 * (data_stats.h) sorted by the column chosen, the selected row kept in sight. */
#include "config.h"

#include "analysis/unittable.h"
#include "screen/view.h"

/* The table's number of columns (0 while it is not known). */
static int ncols(const gt_view *v)
{
    return data_stats_units(&v->stats, v->layer) ? unittable_ncols(v->stats.ngates) : 0;
}

int view_units_page(const gt_view *v)
{
    int h = v->lay.r[P_GATES].h - 2; /* the title, the columns' names */
    return h > 1 ? h : 1;
}

/* The selected row in the table and in sight. */
static void keep_in_sight(gt_view *v)
{
    gt_shared *u = v->ui;
    const int H = model_width(v->m, v->layer), page = view_units_page(v);
    u->ut_row = u->ut_row < 0 ? 0 : u->ut_row >= H ? H - 1 : u->ut_row;
    if (u->ut_top > u->ut_row)
        u->ut_top = u->ut_row;
    if (u->ut_top < u->ut_row - page + 1)
        u->ut_top = u->ut_row - page + 1;
    int max = H - page > 0 ? H - page : 0;
    u->ut_top = u->ut_top < 0 ? 0 : u->ut_top > max ? max : u->ut_top;
}

int view_units_col(const gt_view *v)
{
    int ng = v->stats.ngates, g = v->ui->ut_gate < ng ? v->ui->ut_gate : ng - 1;
    if (v->ui->ut_col == UT_MEAN && ng == 0) /* a cell without gates: by unit */
        return 0;
    return unittable_column((gt_unit_col)v->ui->ut_col, g < 0 ? 0 : g, ng);
}

void view_units_prepare(gt_view *v)
{
    const gt_unit_row *rows = data_stats_units(&v->stats, v->layer);
    v->ut_known = rows != NULL;
    keep_in_sight(v);
    if (!rows)
        return;
    unittable_order(rows, model_width(v->m, v->layer), v->stats.ngates, view_units_col(v), v->ui->ut_reverse,
                    v->ut_order);
}

void view_units_move(gt_view *v, int d)
{
    v->ui->ut_row += d;
    keep_in_sight(v);
}

void view_units_column(gt_view *v, int d)
{
    int n = ncols(v);
    if (!n)
        return;
    int g, col = ((view_units_col(v) + d) % n + n) % n;
    v->ui->ut_col = (int)unittable_col(col, v->stats.ngates, &g);
    if (g >= 0)
        v->ui->ut_gate = g;
    view_units_prepare(v);
}

int view_units_selected(const gt_view *v)
{
    return v->ut_known ? v->ut_order[v->ui->ut_row] : -1;
}
