/* The chart's page laid out (the panels stacked, the legend to their right, the caption
 * below) and written as SVG, PDF or PNG into memory (plot.h). */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "figure/cairolib.h"
#include "figure/plot_impl.h"

#define MARGIN 10.0
#define PANEL_GAP 12.0
#define LEGEND_GAP 14.0

int plot_format_of(const char *path)
{
    static const char *const ext[3] = {".svg", ".pdf", ".png"};
    size_t n = strlen(path);
    for (int i = 0; i < 3; i++)
        if (n > 4 && strcasecmp(path + n - 4, ext[i]) == 0)
            return i;
    return -1;
}

/* The x range shared by the panels, and the room the left side needs (the widest y tick
 * labels and the y labels). */
static double left_room(cairo_t *cr, const plot_figure *f, double *ylo, double *yhi)
{
    double w = 0;
    for (int k = 0; k < f->npanels; k++) {
        plot_range(&f->panel[k].y, &f->panel[k], 1, 0, &ylo[k], &yhi[k]);
        w = fmax(w, plot_ytick_width(cr, &f->panel[k], ylo[k], yhi[k]));
    }
    return MARGIN + PLOT_LABEL_FONT + 5 + w + 6;
}

/* The whole figure drawn on cr over a w x h page. */
static void plot_draw(cairo_t *cr, const plot_figure *f, double w, double h)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND); /* a curve and its legend sample alike */
    double ylo[PLOT_MAX_PANELS], yhi[PLOT_MAX_PANELS], xlo, xhi;
    const plot_panel *low = &f->panel[f->npanels - 1];
    plot_range(&low->x, f->panel, f->npanels, 1, &xlo, &xhi);
    const double left = left_room(cr, f, ylo, yhi);
    const double lw = plot_legend_width(cr, f);
    const int cols = f->legend_below;
    const double right = w - MARGIN - (lw > 0 && !cols ? lw + LEGEND_GAP : 0);
    const double lh = cols && lw > 0 ? plot_legend_height(f, cols) + 8 : 0;
    const int caption = plot_caption(cr, f->caption, MARGIN, 0, w - 2 * MARGIN, 0);
    double below;
    const double angle = plot_xlabel_turn(cr, low, xlo, xhi, right - left, &below);
    const double bottom = h - MARGIN - caption * PLOT_CAPTION_LINE - 6 - lh - below;
    const double top = MARGIN + 2;
    const double ph = (bottom - top - (f->npanels - 1) * PANEL_GAP) / f->npanels;
    for (int k = 0; k < f->npanels; k++) {
        const double y0 = top + k * (ph + PANEL_GAP);
        const plot_area a = {left, y0, right, y0 + ph,
                             (plot_scale){xlo, xhi, low->x.log, left, right},
                             (plot_scale){ylo[k], yhi[k], f->panel[k].y.log, y0 + ph, y0}};
        plot_draw_panel(cr, &f->panel[k], &a, k == f->npanels - 1, angle);
    }
    if (lw > 0 && cols)
        plot_draw_legend(cr, f, left, bottom + below + 6, cols, (w - MARGIN - left) / cols);
    else if (lw > 0)
        plot_draw_legend(cr, f, right + LEGEND_GAP, top, 1, 0);
    plot_caption(cr, f->caption, MARGIN, h - MARGIN - caption * PLOT_CAPTION_LINE, w - 2 * MARGIN,
                 1);
}

/* The bytes a surface writes, gathered in memory. */
typedef struct sink {
    char *data;
    size_t len, cap;
    int failed;
} sink;

static cairo_status_t sink_write(void *closure, const unsigned char *p, unsigned int n)
{
    sink *s = closure;
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 65536;
        while (cap < s->len + n)
            cap *= 2;
        char *d = realloc(s->data, cap);
        if (!d) {
            s->failed = 1;
            return CAIRO_STATUS_WRITE_ERROR;
        }
        s->data = d;
        s->cap = cap;
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
    return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *surface(plot_format fmt, sink *s, double w, double h)
{
    switch (fmt) {
    case PLOT_SVG: {
        cairo_surface_t *sf = cairo_svg_surface_create_for_stream(sink_write, s, w, h);
        cairo_svg_surface_restrict_to_version(sf, CAIRO_SVG_VERSION_1_1);
        return sf;
    }
    case PLOT_PDF: {
        cairo_surface_t *sf = cairo_pdf_surface_create_for_stream(sink_write, s, w, h);
        cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR, "gatetui " PACKAGE_VERSION);
        return sf;
    }
    default:
        return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)lround(w * PLOT_PNG_SCALE),
                                          (int)lround(h * PLOT_PNG_SCALE));
    }
}

int plot_render(const plot_figure *f, plot_format fmt, char **data, size_t *len, gt_error *e)
{
    const double w = f->width > 0 ? f->width : PLOT_WIDTH;
    const double h = f->height > 0 ? f->height : PLOT_HEIGHT;
    if (cairolib_load(e))
        return GT_EFAIL;
    sink s = {0};
    cairo_surface_t *sf = surface(fmt, &s, w, h);
    cairo_t *cr = cairo_create(sf);
    if (fmt == PLOT_PNG)
        cairo_scale(cr, PLOT_PNG_SCALE, PLOT_PNG_SCALE);
    plot_draw(cr, f, w, h);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == PLOT_PNG)
        st = cairo_surface_write_to_png_stream(sf, sink_write, &s);
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS || s.failed) {
        free(s.data);
        return gt_fail(e, GT_EFAIL, "drawing the figure: %s",
                       s.failed ? "out of memory" : cairo_status_to_string(st));
    }
    *data = s.data;
    *len = s.len;
    /* the font caches cairo and fontconfig keep, let go: nothing of them outlives the figure
       (the sanitizers' leak check at exit), and the next figure reads the fonts again */
    cairo_debug_reset_static_data();
    FcFini();
    return GT_OK;
}
