/* The chart's palette and text (plot_impl.h). The colours are Okabe and Ito's (2008), which
 * readers with any common colour blindness tell apart, in an order whose greys also differ
 * (luminance 0.15, 0.42, 0, 0.26, 0.22, 0.29, 0.41); every series has a dash or a marker of
 * its own besides (doc/figures.md). The font is DejaVu Sans, which Debian's fontconfig
 * installs with cairo (fontconfig-config depends on fonts-dejavu-core first). */
#include "config.h"

#include <math.h>

#include "figure/plot_impl.h"

static const double colours[PLOT_COLOURS][3] = {
    {0.000, 0.447, 0.698}, /* blue */
    {0.902, 0.624, 0.000}, /* orange */
    {0.000, 0.000, 0.000}, /* black */
    {0.000, 0.620, 0.451}, /* bluish green */
    {0.835, 0.369, 0.000}, /* vermillion */
    {0.800, 0.475, 0.655}, /* reddish purple */
    {0.337, 0.706, 0.914}, /* sky blue */
};

void plot_colour(cairo_t *cr, int c)
{
    if (c < 0)
        cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    else
        cairo_set_source_rgb(cr, colours[c % PLOT_COLOURS][0], colours[c % PLOT_COLOURS][1],
                             colours[c % PLOT_COLOURS][2]);
}

void plot_dash(cairo_t *cr, int d)
{
    static const double dashed[2] = {6, 3}, dashdot[4] = {7, 2.5, 1.5, 2.5},
                        dotted[2] = {1.5, 2.5};
    switch (d % PLOT_DASHES) {
    case PLOT_DASHED: cairo_set_dash(cr, dashed, 2, 0); break;
    case PLOT_DASHDOT: cairo_set_dash(cr, dashdot, 4, 0); break;
    case PLOT_DOTTED: cairo_set_dash(cr, dotted, 2, 0); break;
    default: cairo_set_dash(cr, NULL, 0, 0);
    }
}

/* A regular polygon of k corners around (x, y), radius r, the first at angle a0. */
static void polygon(cairo_t *cr, int k, double x, double y, double r, double a0)
{
    for (int i = 0; i < k; i++) {
        double a = a0 + 2 * M_PI * i / k;
        if (i == 0)
            cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
        else
            cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
    }
    cairo_close_path(cr);
}

void plot_marker_path(cairo_t *cr, int m, double x, double y, double r)
{
    cairo_new_sub_path(cr);
    switch (m % PLOT_MARKERS) {
    case PLOT_CIRCLE: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
    case PLOT_SQUARE: cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7); break;
    case PLOT_TRIANGLE: polygon(cr, 3, x, y + r * 0.2, r * 1.25, -M_PI / 2); break;
    case PLOT_DIAMOND: polygon(cr, 4, x, y, r * 1.2, 0); break;
    case PLOT_TRIDOWN: polygon(cr, 3, x, y - r * 0.2, r * 1.25, M_PI / 2); break;
    default: polygon(cr, 5, x, y, r * 1.1, -M_PI / 2); break;
    }
}

void plot_font(cairo_t *cr, int mono, double size)
{
    cairo_select_font_face(cr, mono ? "DejaVu Sans Mono" : "DejaVu Sans",
                           CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double plot_text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t x;
    cairo_text_extents(cr, s, &x);
    return x.x_advance;
}

void plot_text_turned(cairo_t *cr, double x, double y, const char *s, double ax, double ay,
                      double angle)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    const double cap = fe.ascent * 0.72; /* a capital's height, near enough */
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, angle);
    cairo_move_to(cr, -ax * plot_text_width(cr, s), ay * cap);
    cairo_show_text(cr, s);
    cairo_restore(cr);
}

void plot_text(cairo_t *cr, double x, double y, const char *s, double ax, double ay)
{
    plot_text_turned(cr, x, y, s, ax, ay, 0);
}
