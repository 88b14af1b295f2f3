/* Glyphs for bars, sparklines and dot plots: Unicode block elements and braille on a
 * UTF-8 surface, ASCII otherwise. */
#ifndef GATETUI_PLOT_H
#define GATETUI_PLOT_H

#include "screen/draw_surface.h"

/* A horizontal bar of w cells filled to frac (0..1, clamped) from the left, in eighths of
 * a cell (halves in ASCII). */
void plot_bar(gt_surface *s, int x, int y, int w, double frac, gt_role role);

/* One character per value: v[i] scaled from [lo, hi] to eight levels; a NaN is a blank. */
void plot_spark(gt_surface *s, int x, int y, const float *v, int n, float lo, float hi,
                gt_role role);

/* A dot canvas of w x h cells (2 x 4 dots a cell in braille, one in ASCII). */
typedef struct plot_canvas {
    int w, h;             /* cells */
    int dw, dh;           /* dots */
    unsigned char *bits;  /* [w*h] braille dot bits */
    unsigned short *count; /* [w*h] points per cell */
    int utf8;
} plot_canvas;

int plot_canvas_init(plot_canvas *c, int w, int h, int utf8);
void plot_canvas_free(plot_canvas *c);
/* Sets the dot at fractions fx, fy in [0, 1] (fy = 0 at the bottom); outside: nothing. */
void plot_canvas_dot(plot_canvas *c, double fx, double fy);
/* Draws the canvas at (x, y); empty cells are left as they are. */
void plot_canvas_draw(const plot_canvas *c, gt_surface *s, int x, int y, gt_role role);
/* The cell of the dot at fractions fx, fy (clamped). */
void plot_canvas_cell(const plot_canvas *c, double fx, double fy, int *cx, int *cy);

/* Number formats that keep their width: a gate value ("0.56", width 4), a signed value
 * ("+1.23" / "-12.3", width 5), a half-life in steps ("5.0", "123", "∞"). */
void fmt_gate(char *buf, size_t n, float v);
void fmt_signed(char *buf, size_t n, float v);
void fmt_halflife(char *buf, size_t n, double hl, int utf8);

#endif
