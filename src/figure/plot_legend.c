/* The chart's legend and caption (plot_impl.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "figure/plot_impl.h"

#define SAMPLE 24.0  /* a line's sample */
#define ROW 12.5     /* a legend entry's height */
#define GAP 5.0

/* Calls fn for each legend entry: the series of every panel with a label, then their
 * references with one. */
typedef void (*entry_fn)(void *ctx, const plot_series *s, const plot_ref *r);

static void each_entry(const plot_figure *f, entry_fn fn, void *ctx)
{
    for (int k = 0; k < f->npanels; k++)
        for (int i = 0; i < f->panel[k].nseries; i++)
            if (f->panel[k].series[i].label)
                fn(ctx, &f->panel[k].series[i], NULL);
    for (int k = 0; k < f->npanels; k++)
        for (int i = 0; i < f->panel[k].nref; i++)
            if (f->panel[k].ref[i].label)
                fn(ctx, NULL, &f->panel[k].ref[i]);
}

typedef struct measure {
    cairo_t *cr;
    double width;
    int n;
} measure;

static void measure_entry(void *ctx, const plot_series *s, const plot_ref *r)
{
    measure *m = ctx;
    m->width = fmax(m->width, plot_text_width(m->cr, s ? s->label : r->label));
    m->n++;
}

double plot_legend_width(cairo_t *cr, const plot_figure *f)
{
    measure m = {cr, 0, 0};
    plot_font(cr, 0, PLOT_LEGEND_FONT);
    each_entry(f, measure_entry, &m);
    return m.n ? SAMPLE + GAP + m.width : 0;
}

double plot_legend_height(const plot_figure *f, int columns)
{
    int n = 0;
    for (int k = 0; k < f->npanels; k++) {
        for (int i = 0; i < f->panel[k].nseries; i++)
            n += f->panel[k].series[i].label != NULL;
        for (int i = 0; i < f->panel[k].nref; i++)
            n += f->panel[k].ref[i].label != NULL;
    }
    columns = columns > 0 ? columns : 1;
    return (n + columns - 1) / columns * ROW;
}

typedef struct drawing {
    cairo_t *cr;
    double x0, y0, col_w;
    int rows, at;    /* rows a column, entries drawn */
    double x, y;     /* the next entry's place */
} drawing;

/* An entry's sample (its line, its marker) and its label, one row down. */
static void draw_entry(void *ctx, const plot_series *s, const plot_ref *r)
{
    drawing *d = ctx;
    cairo_t *cr = d->cr;
    const double y = d->y + ROW / 2;
    if (r || s->line) {
        plot_colour(cr, r ? -1 : s->colour);
        plot_dash(cr, r ? r->dash : s->dash);
        cairo_set_line_width(cr, r ? PLOT_REF_WIDTH : PLOT_LINE_WIDTH);
        cairo_move_to(cr, d->x, y);
        cairo_line_to(cr, d->x + SAMPLE, y);
        cairo_stroke(cr);
    }
    if (s && s->marker >= 0 && (!s->line || s->mark_every > 0)) {
        plot_colour(cr, s->colour);
        plot_marker_path(cr, s->marker, d->x + SAMPLE / 2, y, PLOT_MARK_SIZE);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    plot_font(cr, 0, PLOT_LEGEND_FONT);
    plot_text(cr, d->x + SAMPLE + GAP, y, s ? s->label : r->label, 0, 0.5);
    d->at++; /* down the column, then the next column's top */
    d->x = d->x0 + (d->at / d->rows) * d->col_w;
    d->y = d->y0 + (d->at % d->rows) * ROW;
}

void plot_draw_legend(cairo_t *cr, const plot_figure *f, double x, double y, int columns,
                      double col_w)
{
    const int rows = (int)lround(plot_legend_height(f, columns) / ROW);
    drawing d = {cr, x, y, col_w, rows > 0 ? rows : 1, 0, x, y};
    each_entry(f, draw_entry, &d);
}

int plot_caption(cairo_t *cr, const char *caption, double x, double y, double w, int draw)
{
    if (!caption || !*caption)
        return 0;
    plot_font(cr, 0, PLOT_CAPTION_FONT);
    cairo_set_source_rgb(cr, 0, 0, 0);
    char line[1024];
    int lines = 0;
    const char *p = caption;
    while (*p) {
        size_t n = 0, fit = 0; /* the line's bytes so far, and up to its last space that fits */
        for (;;) {
            const char *sp = strchr(p + n + (n > 0), ' ');
            size_t end = sp ? (size_t)(sp - p) : strlen(p);
            if (end >= sizeof line)
                end = sizeof line - 1;
            memcpy(line, p, end);
            line[end] = 0;
            if (fit > 0 && plot_text_width(cr, line) > w)
                break;
            fit = end;
            if (!sp || end == sizeof line - 1)
                break;
            n = end;
        }
        memcpy(line, p, fit);
        line[fit] = 0;
        if (draw)
            plot_text(cr, x, y + (lines + 1) * PLOT_CAPTION_LINE - 2.5, line, 0, 0);
        lines++;
        p += fit;
        while (*p == ' ')
            p++;
    }
    return lines;
}
