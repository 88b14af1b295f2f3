/* The chart's parts (plot.h), private to src/figure/plot_*.c: the scales and ticks
 * (plot_axis.c), the palette and text (plot_style.c), a panel's drawing (plot_draw.c), the
 * legend and the caption (plot_legend.c), the page's layout and the formats (plot_out.c). */
#ifndef GATETUI_FIGURE_PLOT_IMPL_H
#define GATETUI_FIGURE_PLOT_IMPL_H

#include <cairo.h>

#include "figure/plot.h"

/* Sizes of the text, in points. */
#define PLOT_TICK_FONT 8.0
#define PLOT_LABEL_FONT 9.5
#define PLOT_LEGEND_FONT 8.0
#define PLOT_CAPTION_FONT 8.0
#define PLOT_BENEATH_FONT 7.0
#define PLOT_MARK_SIZE 3.2  /* a marker's half-width */

/* A range of data drawn onto the page from p0 (at lo) to p1 (at hi). */
typedef struct plot_scale {
    double lo, hi;
    int log;
    double p0, p1;
} plot_scale;

/* Where v goes on the page; NAN where it cannot be drawn (not finite, or not above 0 on a
 * log scale). */
double plot_map(const plot_scale *s, double v);

/* The range of axis a (the x axis when is_x) over the series and references of panels
 * p[0..n): the axis's own when it gives one, else the data's with a margin (on a log
 * scale, the values above 0 only); categories from -0.5 to n - 0.5. */
void plot_range(const plot_axis *a, const plot_panel *p, int n, int is_x, double *lo,
                double *hi);

#define PLOT_MAX_TICKS PLOT_MAX_NAMES
typedef struct plot_ticks {
    int n;
    double v[PLOT_MAX_TICKS];
    char label[PLOT_MAX_TICKS][64]; /* "" for a tick without a label */
} plot_ticks;

/* The ticks of axis a over [lo, hi]: numbers 1, 2 or 5 times a power of ten apart; on a
 * log scale each power of ten (and 2 and 5 times it when there are few), 10^k written
 * 10⁻⁵ beyond 0.001 .. 10000; categories at each one, labelled by their names. */
void plot_axis_ticks(const plot_axis *a, double lo, double hi, plot_ticks *t);

/* The palette: colour c (-1: grey), dash d, marker m's path at (x, y) (filled by the
 * caller). */
void plot_colour(cairo_t *cr, int c);
void plot_dash(cairo_t *cr, int d);
void plot_marker_path(cairo_t *cr, int m, double x, double y, double r);

/* Text: the font (DejaVu Sans, or its monospaced face), a string's advance, and a string
 * drawn with its anchor at (x, y): ax 0 its left end, 0.5 its middle, 1 its right end; ay 0
 * the baseline at y, 0.5 the middle of a capital at y, 1 the top of a capital at y. */
void plot_font(cairo_t *cr, int mono, double size);
double plot_text_width(cairo_t *cr, const char *s);
void plot_text(cairo_t *cr, double x, double y, const char *s, double ax, double ay);
/* The same turned by angle (radians, counter-clockwise negative as cairo turns). */
void plot_text_turned(cairo_t *cr, double x, double y, const char *s, double ax, double ay,
                      double angle);

/* A panel's plot area on the page, and its scales. */
typedef struct plot_area {
    double x0, y0, x1, y1; /* left, top, right, bottom */
    plot_scale sx, sy;
} plot_area;

/* The width the y axis's tick labels of panel p need (from its range lo..hi). */
double plot_ytick_width(cairo_t *cr, const plot_panel *p, double lo, double hi);
/* Panel p into area a: its grid, references, series, frame and ticks; with x_labels its x
 * axis's tick labels and label (and the text beneath), turned by angle when they would
 * overlap (plot_xlabel_turn). */
void plot_draw_panel(cairo_t *cr, const plot_panel *p, const plot_area *a, int x_labels,
                     double angle);
/* The angle the x axis's labels of p must turn by to fit the width w (0: none), and the
 * height they then take below the axis (the text beneath and the axis's label included). */
double plot_xlabel_turn(cairo_t *cr, const plot_panel *p, double lo, double hi, double w,
                        double *height);

/* The legend: its entries (the series and references of every panel that have a label)
 * in `columns` columns each col_w wide (col_w 0: as wide as the widest entry): the widest
 * entry's width, the legend's height, and it drawn with its top left corner at (x, y). */
double plot_legend_width(cairo_t *cr, const plot_figure *f);
double plot_legend_height(const plot_figure *f, int columns);
void plot_draw_legend(cairo_t *cr, const plot_figure *f, double x, double y, int columns,
                      double col_w);
/* The caption broken into lines that fit width w: their number; with draw, drawn from
 * (x, y) down. */
int plot_caption(cairo_t *cr, const char *caption, double x, double y, double w, int draw);
#define PLOT_CAPTION_LINE 10.5

#endif
