/* The log plot's names (draw_logplot.h): every curve's name is drawn in a cell of its own,
 * however few the rows, in as many columns as that needs or 4 (1 to 12 curves on plots of
 * 2 to 6 rows);
 * and curves that end in one row have their names side by side in that row, not pushed to
 * rows where other curves end. */
#include <stdio.h>
#include <string.h>

#include "screen/draw_logplot.h"
#include "../lib/tap.h"

#define K 16
#define CURVES 12

/* The row of the cell holding exactly the text t (the last one), or -1. */
static int row_of(const gt_surface *s, const char *t)
{
    int at = -1;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            if (!strcmp(surf_cell(s, x, y)->s, t))
                at = y;
    return at;
}

/* How many cells of the surface hold exactly the text t. */
static int cells_with(const gt_surface *s, const char *t)
{
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            n += !strcmp(surf_cell(s, x, y)->s, t);
    return n;
}

int main(void)
{
    static double v[CURVES][K + 1];
    static const char *const name[CURVES] = {"A", "B", "C", "D", "E", "F",
                                             "G", "H", "I", "J", "M", "N"};
    plot_curve cv[CURVES];
    for (int i = 0; i < CURVES; i++) { /* each falls at its own rate, all ending close */
        for (int k = 0; k <= K; k++)
            v[i][k] = 1.0 / (1.0 + (0.05 + 0.01 * i) * k * k);
        cv[i] = (plot_curve){v[i], name[i], R_NORMAL};
    }
    /* (in Unicode the plot is braille: the only letters are the names, in their columns;
       in letters every curve is drawn with its name, which would hide a missing one) */
    for (int ph = 2; ph <= 6; ph++)
        for (int nc = 1; nc <= CURVES; nc++) {
            gt_surface s;
            if (surf_init(&s, 40, ph + 1, 1)) {
                printf("Bail out! no memory\n");
                return 1;
            }
            plot_log(&s, 0, 0, 40, ph, K, cv, nc, 0);
            int missing = -1, lo = s.w, hi = -1;
            for (int i = 0; i < nc; i++) {
                if (cells_with(&s, name[i]) != 1 && missing < 0)
                    missing = i;
                for (int y = 0; y < s.h; y++)
                    for (int x = 0; x < s.w; x++)
                        if (!strcmp(surf_cell(&s, x, y)->s, name[i])) {
                            lo = x < lo ? x : lo;
                            hi = x > hi ? x : hi;
                        }
            }
            const int need = (nc + ph - 1) / ph, most = need > 4 ? need : 4;
            tap_ok(missing < 0 && hi - lo + 1 <= most,
                   "%d curves over %d rows: every name drawn once, in %d column%s (at most %d)%s%s",
                   nc, ph, hi - lo + 1, hi == lo ? "" : "s", most,
                   missing < 0 ? "" : "; not ", missing < 0 ? "" : name[missing]);
            surf_free(&s);
        }
    /* 2 to 4 curves that end together, and one far below: the names of the first in the
       row they end in, the last's apart */
    for (int same = 2; same <= 4; same++) {
        static double w[5][K + 1];
        plot_curve cs[5];
        for (int i = 0; i < same + 1; i++) {
            for (int k = 0; k <= K; k++)
                w[i][k] = i < same ? 1.0 / (1.0 + 0.1 * k) : 1.0 / (1.0 + 1000.0 * k * k);
            cs[i] = (plot_curve){w[i], name[i], R_NORMAL};
        }
        gt_surface s;
        if (surf_init(&s, 40, 7, 1)) {
            printf("Bail out! no memory\n");
            return 1;
        }
        plot_log(&s, 0, 0, 40, 6, K, cs, same + 1, 0);
        int apart = 0;
        for (int i = 1; i < same; i++)
            apart |= row_of(&s, name[i]) != row_of(&s, name[0]);
        tap_ok(!apart && row_of(&s, name[0]) >= 0 && row_of(&s, name[same]) > row_of(&s, name[0]),
               "%d curves that end together: their names side by side in row %d (the one below "
               "in row %d)", same, row_of(&s, name[0]), row_of(&s, name[same]));
        surf_free(&s);
    }
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
