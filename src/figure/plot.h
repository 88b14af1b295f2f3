/* Charts for a paper (doc/figures.md), drawn with cairo into an SVG, a PDF or a PNG in
 * memory: one or more panels stacked over a shared x axis, each with its axes (linear or
 * log, numbers or named categories), ticks and labels, its series (lines with markers every
 * so many points, points, error bars either way), reference lines (y = level, y = slope x);
 * a legend to the right and a caption line below. The styles come from one palette: colours
 * that stay apart for colour-blind readers and in grey (Okabe and Ito's), and dashes and
 * markers besides, so that no series depends on its colour alone.
 *
 * What the SVG holds, so that a test can find it (tests/samples/figure.sh): every stroke of a
 * series' line is one path in its colour, dash and PLOT_LINE_WIDTH, and its legend sample
 * another; error bars are strokes PLOT_BAR_WIDTH wide, the axes' frame and ticks black
 * strokes PLOT_AXIS_WIDTH wide, the grid grey ones PLOT_GRID_WIDTH wide, reference lines
 * grey and PLOT_REF_WIDTH wide; markers are filled, never stroked; text is glyphs. */
#ifndef GATETUI_FIGURE_PLOT_H
#define GATETUI_FIGURE_PLOT_H

#include <stddef.h>

#include "gatetui/error.h"

/* The page in points (SVG, PDF); a PNG has PLOT_PNG_SCALE pixels a point. */
#define PLOT_WIDTH 640.0
#define PLOT_HEIGHT 400.0
#define PLOT_PNG_SCALE 2

#define PLOT_LINE_WIDTH 1.5
#define PLOT_BAR_WIDTH 0.9
#define PLOT_AXIS_WIDTH 0.8
#define PLOT_GRID_WIDTH 0.4
#define PLOT_REF_WIDTH 1.1

typedef enum plot_format { PLOT_SVG, PLOT_PDF, PLOT_PNG } plot_format;

/* The palette's sizes: colours, dashes, markers (plot_style.c). */
#define PLOT_COLOURS 7
enum { PLOT_SOLID, PLOT_DASHED, PLOT_DASHDOT, PLOT_DOTTED, PLOT_DASHES };
enum { PLOT_NOMARK = -1, PLOT_CIRCLE, PLOT_SQUARE, PLOT_TRIANGLE, PLOT_DIAMOND, PLOT_TRIDOWN,
       PLOT_PENTAGON, PLOT_MARKERS };

#define PLOT_MAX_NAMES 40

typedef struct plot_axis {
    const char *label;
    int log;                  /* base 10 */
    double lo, hi;            /* the range when lo < hi; otherwise from the data */
    const char *const *names; /* categories at 0 .. nnames - 1 (NULL: numbers), at most
                                 PLOT_MAX_NAMES */
    int nnames;
    int integer;              /* ticks at whole numbers only */
} plot_axis;

typedef struct plot_series {
    const char *label;        /* its legend entry; NULL: none */
    int line;                 /* 1: the points joined, broken where one is missing */
    int colour, dash, marker; /* palette indices; marker PLOT_NOMARK: none */
    int mark_every;           /* a line's markers at every so many points (0: none) */
    int big;                  /* markers half as large again (a mark that matters) */
    int n;
    const double *x, *y;      /* [n]; a point not finite (or not above 0 on a log axis) is
                                 missing */
    /* error bars ([n] each, or NULL): an end not finite is open, drawn to the plot's edge
       with an arrow */
    const double *ylo, *yhi, *xlo, *xhi;
} plot_series;

/* A reference line, grey: y = slope x when slope > 0, else y = level. */
typedef struct plot_ref {
    const char *label;
    double slope, level;
    int dash;
} plot_ref;

#define PLOT_MAX_SERIES 96 /* the perturbation figure's 12 models x 4 curves x 2 */
#define PLOT_MAX_REFS 4
#define PLOT_MAX_PANELS 4

typedef struct plot_panel {
    plot_axis x, y;           /* every panel's x is the same axis: the lowest one's is drawn
                                 with its labels */
    plot_series series[PLOT_MAX_SERIES];
    int nseries;
    plot_ref ref[PLOT_MAX_REFS];
    int nref;
    /* a line of text beneath the x axis (the lowest panel's): text[i] centred at
       x = text_x0 + i (NULL: none) */
    const char *const *text;
    double text_x0;
    int ntext;
} plot_panel;

typedef struct plot_figure {
    plot_panel panel[PLOT_MAX_PANELS]; /* from the top */
    int npanels;
    double width, height;     /* in points; 0: PLOT_WIDTH, PLOT_HEIGHT */
    int legend_below;         /* the legend in that many columns below the panels (0: in
                                 one column to their right) */
    const char *caption;      /* below, wrapped to the width */
} plot_figure;

/* The format a file name asks for by its ending (.svg, .pdf, .png, in any case); -1 for
 * any other. */
int plot_format_of(const char *path);

/* Draws f into *data (malloc'd, *len bytes) in format fmt. GT_EFAIL when cairo fails (out
 * of memory), with its message. */
int plot_render(const plot_figure *f, plot_format fmt, char **data, size_t *len, gt_error *e);

#endif
