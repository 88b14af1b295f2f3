/* Curves that fall by orders of magnitude, on a log scale: the perturbation's differences
 * and the derivative's norms against the lag. */
#ifndef GATETUI_LOGPLOT_H
#define GATETUI_LOGPLOT_H

#include "screen/draw_surface.h"

/* A curve: v[0..K], drawn as v[k] / v[0] (where that is above zero), named label (one
 * character) at its end, in role. */
typedef struct plot_curve {
    const double *v;
    const char *label;
    gt_role role;
} plot_curve;

#define PLOT_LOG_MAX 16 /* curves drawn at most */

/* The curves over w x ph cells from (x0, y0) (the decades' labels in the first 5 columns,
 * the curves' names in the last: each name in a cell of its own, in its curve's end row
 * (columns for as many names as end in one row, up to 4) or the nearest free one, and
 * columns for every name at least: ceil(nc / ph)), the k
 * axis on the row below; the first curves drawn first. With letters (ASCII, or no colours)
 * each curve is drawn with its name. Nothing when the plot would be narrower than 8 cells or
 * lower than 2. */
void plot_log(gt_surface *s, int x0, int y0, int w, int ph, int K, const plot_curve *cv, int nc,
              int letters);

#endif
