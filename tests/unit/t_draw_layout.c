/* The layout at every size from 1x1 to 300x100: below the minimum it says too small and
 * places nothing; above, every panel is a non-empty rectangle on the screen (but for the
 * cell against hidden, left out when the rows under the strip are few), no two overlap,
 * together they cover the screen, and each has the room its panel needs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/draw_layout.h"
#include "../lib/tap.h"

static int inside(gt_rect r, int cols, int rows)
{
    return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

static int overlap(gt_rect a, gt_rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* The least each panel needs to draw something readable. */
static const int min_w[P_COUNT] = {64, 64, 34, 30, 30, 30, 64};
static const int min_h[P_COUNT] = {2, 3, 8, 5, 6, 4, 1};

int main(void)
{
    int bad_small = 0, bad_inside = 0, bad_overlap = 0, bad_cover = 0, bad_min = 0;
    int bad_left_out = 0, left_out = 0;
    int sizes = 0, small = 0;
    static unsigned char grid[100][300];
    for (int rows = 1; rows <= 100; rows++)
        for (int cols = 1; cols <= 300; cols++) {
            gt_layout l;
            layout_compute(cols, rows, &l);
            sizes++;
            int want_small = cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS;
            if (l.too_small != want_small || l.cols != cols || l.rows != rows) {
                if (!bad_small++)
                    printf("# %dx%d: too_small = %d\n", cols, rows, l.too_small);
                continue;
            }
            if (l.too_small) {
                small++;
                for (int p = 0; p < P_COUNT; p++)
                    if (l.r[p].w || l.r[p].h) {
                        if (!bad_small++)
                            printf("# %dx%d: too small but %s is placed\n", cols, rows,
                                   layout_panel_name(p));
                    }
                continue;
            }
            const gt_rect ch = l.r[P_CELLHID];
            if (!ch.x && !ch.y && !ch.w && !ch.h) { /* left out: only when the body is short */
                left_out++;
                if (l.r[P_GATES].h >= LAYOUT_CELLHID_MIN_BODY && !bad_left_out++)
                    printf("# %dx%d: the cell against hidden left out with %d rows under the "
                           "strip\n", cols, rows, l.r[P_GATES].h);
            }
            for (int p = 0; p < P_COUNT; p++) {
                if (p == P_CELLHID && !ch.w && !ch.h)
                    continue;
                if (!inside(l.r[p], cols, rows) && !bad_inside++)
                    printf("# %dx%d: %s at %d,%d %dx%d is off the screen\n", cols, rows,
                           layout_panel_name(p), l.r[p].x, l.r[p].y, l.r[p].w, l.r[p].h);
                if ((l.r[p].w < min_w[p] || l.r[p].h < min_h[p]) && !bad_min++)
                    printf("# %dx%d: %s is %dx%d, less than %dx%d\n", cols, rows,
                           layout_panel_name(p), l.r[p].w, l.r[p].h, min_w[p], min_h[p]);
                for (int q = p + 1; q < P_COUNT; q++)
                    if (overlap(l.r[p], l.r[q]) && !bad_overlap++)
                        printf("# %dx%d: %s and %s overlap\n", cols, rows, layout_panel_name(p),
                               layout_panel_name(q));
            }
            memset(grid, 0, sizeof grid);
            for (int p = 0; p < P_COUNT; p++)
                for (int y = l.r[p].y; y < l.r[p].y + l.r[p].h && y < rows; y++)
                    for (int x = l.r[p].x; x < l.r[p].x + l.r[p].w && x < cols; x++)
                        if (x >= 0 && y >= 0)
                            grid[y][x]++;
            for (int y = 0; y < rows; y++)
                for (int x = 0; x < cols; x++)
                    if (grid[y][x] != 1 && !bad_cover++)
                        printf("# %dx%d: cell %d,%d is in %d panels\n", cols, rows, x, y,
                               grid[y][x]);
        }
    tap_ok(sizes == 30000, "every size from 1x1 to 300x100 laid out (%d)", sizes);
    tap_ok(!bad_small, "too small exactly below %dx%d, with nothing placed (%d sizes)",
           LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, small);
    tap_ok(!bad_inside, "every panel on the screen and not empty");
    tap_ok(!bad_overlap, "no two panels overlap");
    tap_ok(!bad_cover, "the panels cover the whole screen");
    tap_ok(!bad_min, "every panel has the room it needs");
    tap_ok(!bad_left_out && left_out > 0, "the cell against hidden left out only under %d rows "
           "under the strip (%d sizes)", LAYOUT_CELLHID_MIN_BODY, left_out);

    gt_layout a, b;
    layout_compute(80, 24, &a);
    layout_compute(200, 60, &b);
    tap_ok(!a.too_small && a.r[P_GATES].h >= 12, "80x24 shows a readable subset (%d unit rows)",
           a.r[P_GATES].h - 2);
    /* the perturbation's plot needs 10 rows (title, edit, two half-life lines, the axis
       and the legend, the lasting units, 3 of plot); the unit's carry gate history 6 */
    tap_ok(a.r[P_PERTURB].h >= 10 && a.r[P_UNIT].h >= 6 && !a.r[P_CELLHID].h,
           "80x24 keeps the perturbation's plot (%d rows) and the carry gate's history (%d) "
           "before the cell against hidden (%d)", a.r[P_PERTURB].h, a.r[P_UNIT].h,
           a.r[P_CELLHID].h);
    tap_ok(b.r[P_GATES].w * b.r[P_GATES].h > 3 * a.r[P_GATES].w * a.r[P_GATES].h,
           "200x60 gives the gate bars more than three times the room of 80x24");
    layout_compute(40, 10, &a);
    tap_ok(a.too_small, "40x10 is too small");
    return tap_done();
}
