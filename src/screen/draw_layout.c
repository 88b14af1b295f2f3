/* The screen's layout: header on top, the text strip under it, the gate bars on the left,
 * a column on the right with the cell-versus-hidden plot, the selected unit and the
 * perturbation panel, and the status line at the bottom. Pure: sizes in, rectangles out. */
#include "config.h"

#include <string.h>

#include "screen/draw_layout.h"

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static gt_rect rect(int x, int y, int w, int h) { return (gt_rect){x, y, w, h}; }

void layout_compute(int cols, int rows, gt_layout *out)
{
    memset(out, 0, sizeof *out);
    out->cols = cols;
    out->rows = rows;
    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
        out->too_small = 1;
        return;
    }
    /* a title row, then 1, 3 or 5 rows of text, each with its marks: an odd number, so
       that the cursor's row is the middle one */
    int strip_h = 1 + 2 * (rows >= 60 ? 5 : rows >= 30 ? 3 : 1);
    int body_y = 2 + strip_h, body_h = rows - 1 - body_y;
    int right_w = clamp(cols * 2 / 5, 30, 90);
    int right_x = cols - right_w;

    int cell_h, unit_h;
    if (body_h < LAYOUT_CELLHID_MIN_BODY) {
        /* short: the perturbation's plot and the unit's carry gate history before the cell
           against hidden, which is left out */
        cell_h = 0;
        unit_h = clamp(body_h * 4 / 10, 6, 8);
    } else {
        cell_h = clamp(body_h * 3 / 10, 5, 16);
        unit_h = clamp(body_h * 35 / 100, 7, 18);
    }
    while (body_h - cell_h - unit_h < 4) { /* the perturbation panel keeps 4 rows */
        if (unit_h > 6)
            unit_h--;
        else
            cell_h--;
    }
    out->r[P_HEADER] = rect(0, 0, cols, 2);
    out->r[P_STRIP] = rect(0, 2, cols, strip_h);
    out->r[P_GATES] = rect(0, body_y, right_x, body_h);
    out->r[P_CELLHID] = cell_h ? rect(right_x, body_y, right_w, cell_h) : rect(0, 0, 0, 0);
    out->r[P_UNIT] = rect(right_x, body_y + cell_h, right_w, unit_h);
    out->r[P_PERTURB] = rect(right_x, body_y + cell_h + unit_h, right_w, body_h - cell_h - unit_h);
    out->r[P_STATUS] = rect(0, rows - 1, cols, 1);
}

const char *layout_panel_name(int p)
{
    static const char *const names[P_COUNT] = {"header", "strip", "gates", "cellhid",
                                               "unit", "perturb", "status"};
    return p >= 0 && p < P_COUNT ? names[p] : "?";
}

#define MIN_COL 56
#define MIN_COL_UNGATED 26 /* a plain RNN's rows: the unit, a, h and the change, no bars */

void layout_gate_grid_extra(gt_rect r, int units, int ngates, int prefer_change, int extra,
                            gt_gate_grid *g)
{
    memset(g, 0, sizeof *g);
    g->rows = r.h - 2;
    if (g->rows < 1)
        g->rows = 1;
    g->uw = 3;
    for (int n = units - 1; n >= 1000; n /= 10)
        g->uw++;
    int min_col = (ngates ? MIN_COL : MIN_COL_UNGATED) + extra;
    g->ncols = r.w >= 2 * min_col + 1 ? (r.w + 1) / (min_col + 1) : 1;
    int need = (units + g->rows - 1) / g->rows;
    if (g->ncols > need)
        g->ncols = need;
    if (g->ncols < 1)
        g->ncols = 1;
    g->colw = (r.w - (g->ncols - 1)) / g->ncols;
    /* the unit, each gate's value, c and h; the extra columns only where they fit */
    int fixed = g->uw + 2 + 12 + 6 * ngates;
    g->show_extra = extra > 0 && fixed - 1 + extra <= g->colw;
    if (g->show_extra)
        fixed += extra;
    if (ngates == 0) { /* no carry gate, so no half-life column; no bars */
        g->show_d = fixed + 6 <= g->colw;
        return;
    }
    if ((g->colw - fixed - 12) / ngates >= 4) {
        g->show_hl = g->show_d = 1;
    } else if ((g->colw - fixed - 6) / ngates >= 4) {
        g->show_d = prefer_change;
        g->show_hl = !g->show_d;
    }
    g->bw = (g->colw - fixed - 6 * (g->show_hl + g->show_d)) / ngates;
    g->bw = g->bw < 0 ? 0 : g->bw > 24 ? 24 : g->bw; /* 0: the values without bars */
}

int layout_text_columns(gt_rect r, int nlines, int width)
{
    int rows = r.h - 1;
    return nlines > rows && r.w >= 2 * (width + 2) + 1 ? 2 : 1;
}
