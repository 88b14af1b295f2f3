/* The mouse on the view (see keys_mouse.h). */
#include "config.h"

#include "gatetui/model.h"
#include "screen/keys_mouse.h"
#include "screen/draw_layout.h"
#include "screen/draw_striprows.h"

static int inside(gt_rect r, int x, int y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

long keys_strip_step_at(const gt_view *v, int x, int y)
{
    /* the strip's geometry, as panel_strip draws it: rows of W cells under its title, each
     * followed by a row of marks, the characters where strip_rows puts them */
    gt_rect r = v->lay.r[P_STRIP];
    gt_rect in = {r.x, r.y + 1, r.w, r.h - 1};
    int pairs = in.h / 2, W = in.w - 2;
    if (pairs < 1 || W < 1 || y < in.y || (y - in.y) % 2 || (y - in.y) / 2 >= pairs ||
        x < in.x + 1 || x >= in.x + 1 + W)
        return -1;
    gt_strip_rows rows;
    if (strip_rows(v, pairs, W, &rows) < 0)
        return -1;
    int row = (y - in.y) / 2, col = x - in.x - 1;
    long s = -1;
    for (size_t i = 0; i < rows.n; i++) {
        const gt_strip_cell *c = &rows.c[i];
        if (c->row == row && col >= c->col && col < c->col + c->w) {
            /* a character not fed to the model: the next step */
            size_t st = c->step >= 0 ? (size_t)c->step : text_step_at_offset(v->text, c->off);
            s = st < v->steps ? (long)st : -1;
            break;
        }
    }
    strip_rows_free(&rows);
    return s;
}

/* The unit of the gate panel's row at (x, y), or -1. */
static int keys_unit_at(const gt_view *v, int x, int y)
{
    gt_rect r = v->lay.r[P_GATES];
    if (!inside(r, x, y) || y < r.y + 2)
        return -1;
    const gt_gate_grid g = v->grid;
    int col = (x - r.x) / (g.colw + 1), row = y - (r.y + 2);
    if (col >= g.ncols || row >= g.rows)
        return -1;
    int rank = v->ui->top + col * g.rows + row;
    return rank < model_width(v->m, v->layer) ? v->order[rank] : -1;
}

gt_act keys_mouse(gt_view *v, const gt_key *k, gt_key *arrow)
{
    arrow->sym = K_NONE;
    if (v->lay.too_small || v->ui->input != INPUT_KEYS)
        return ACT_NONE;
    const int covered = v->ui->sheet != NULL; /* a sheet over the panels: no unit rows */
    gt_rect strip = v->lay.r[P_STRIP];
    if (k->sym == K_WHEEL_UP || k->sym == K_WHEEL_DOWN) {
        int up = k->sym == K_WHEEL_UP;
        *arrow = (gt_key){K_NONE, 0, 0, 0, 0, 0};
        if (inside(strip, k->x, k->y))
            arrow->sym = up ? K_LEFT : K_RIGHT;
        else if (k->y > strip.y + strip.h - 1 && k->y < v->lay.rows - 1)
            arrow->sym = up ? K_UP : K_DOWN; /* the units, or a sheet's scrolling */
        return ACT_NONE;
    }
    if (k->sym != K_CLICK)
        return ACT_NONE;
    long s = keys_strip_step_at(v, k->x, k->y);
    if (s >= 0) {
        view_seek(v, (size_t)s);
        return ACT_REDRAW;
    }
    int u = covered ? -1 : keys_unit_at(v, k->x, k->y);
    if (u >= 0) {
        view_select_unit(v, u);
        return ACT_REDRAW;
    }
    return ACT_NONE;
}
