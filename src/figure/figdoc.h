/* Making a figure (kinds.h), private to src/figure/fig_*.c: its chart and CSV begun and
 * ended, memory and strings that live as long as it, the CSV's fields, the caption. */
#ifndef GATETUI_FIGURE_FIGDOC_H
#define GATETUI_FIGURE_FIGDOC_H

#include <stddef.h>

#include "figure/kinds.h"

/* Begins d: a chart of npanels panels (everything else zero) and a CSV whose first line is
 * header (the columns, comma-separated), its numbers with `digits` significant digits (those
 * of the JSON the same numbers are printed in, so that the two read the same). */
int fig_begin(fig_doc *d, int npanels, const char *header, int digits, gt_error *e);
/* Zeroed memory, and a string made as printf makes it, that live as long as d; NULL when
 * memory ran out (d keeps that: fig_end fails). */
void *fig_alloc(fig_doc *d, size_t bytes);
const char *fig_str(fig_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The next series of panel p (zeroed, no marker), or NULL when it has PLOT_MAX_SERIES. */
plot_series *fig_series(plot_panel *p);
/* The values v[0..n) as a new array that lives as long as d. */
double *fig_copy(fig_doc *d, const double *v, int n);

/* The CSV's fields, in order along a row: text (quoted as RFC 4180 asks when it holds a
 * comma, a quote or a line break), a number (empty when it does not exist, NaN; inf and
 * -inf as such), a count; then the row's end. */
void fig_csv_text(fig_doc *d, const char *s);
void fig_csv_num(fig_doc *d, double v);
void fig_csv_count(fig_doc *d, long long v);
void fig_csv_end(fig_doc *d);

/* The caption: what the figure shows (own), the models by their file names, the text with
 * its steps, the layer, and how the numbers were computed (w->what). */
const char *fig_caption(fig_doc *d, const char *own, const char *const *models, int n,
                        const fig_where *w);

/* Ends d: the CSV closed. GT_EFAIL when memory ran out on the way; d is then freed. */
int fig_end(fig_doc *d, gt_error *e);

/* The colour and marker of model k of a figure (plot.h's palette). */
int fig_colour(int k);
int fig_marker(int k);

#endif
