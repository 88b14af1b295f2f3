/* A panel of the chart drawn (plot_impl.h): grid, reference lines, error bars, lines and
 * markers inside its area, then its frame, ticks and labels. */
#include "config.h"

#include <math.h>

#include "figure/plot_impl.h"

#define TICK 4.0      /* a tick's length, outside the frame */
#define CAP 2.5       /* an error bar's cap, either side */
#define ARROW 3.5     /* an open end's arrowhead */
#define BENEATH_ROW 10.0

static void grid(cairo_t *cr, const plot_area *a, const plot_ticks *tx, const plot_ticks *ty)
{
    cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
    cairo_set_line_width(cr, PLOT_GRID_WIDTH);
    plot_dash(cr, PLOT_SOLID);
    for (int i = 0; i < ty->n; i++) {
        double y = plot_map(&a->sy, ty->v[i]);
        cairo_move_to(cr, a->x0, y);
        cairo_line_to(cr, a->x1, y);
    }
    for (int i = 0; i < tx->n; i++) {
        double x = plot_map(&a->sx, tx->v[i]);
        cairo_move_to(cr, x, a->y0);
        cairo_line_to(cr, x, a->y1);
    }
    cairo_stroke(cr);
}

static void refs(cairo_t *cr, const plot_panel *p, const plot_area *a)
{
    cairo_set_line_width(cr, PLOT_REF_WIDTH);
    for (int i = 0; i < p->nref; i++) {
        const plot_ref *r = &p->ref[i];
        plot_colour(cr, -1);
        plot_dash(cr, r->dash);
        if (r->slope > 0) {
            double x0 = a->sx.lo, x1 = a->sx.hi;
            cairo_move_to(cr, a->x0, plot_map(&a->sy, r->slope * x0));
            cairo_line_to(cr, a->x1, plot_map(&a->sy, r->slope * x1));
        } else {
            cairo_move_to(cr, a->x0, plot_map(&a->sy, r->level));
            cairo_line_to(cr, a->x1, plot_map(&a->sy, r->level));
        }
        cairo_stroke(cr);
    }
}

static void line(cairo_t *cr, const plot_series *s, const plot_area *a)
{
    int on = 0, any = 0;
    for (int i = 0; i < s->n; i++) {
        double x = plot_map(&a->sx, s->x[i]), y = plot_map(&a->sy, s->y[i]);
        if (isnan(x) || isnan(y)) {
            on = 0;
            continue;
        }
        if (on)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        on = any = 1;
    }
    if (!any)
        return;
    plot_colour(cr, s->colour);
    plot_dash(cr, s->dash);
    cairo_set_line_width(cr, PLOT_LINE_WIDTH);
    cairo_stroke(cr);
}

/* One end of an error bar from (x, y) along (dx, dy) (a unit vector) to the end at distance
 * len: in pass 0 the line and, for an end that is not open, its cap across; in pass 1 an
 * open end's arrowhead (the bar runs to the area's edge). */
static void bar_end(cairo_t *cr, double x, double y, double dx, double dy, double len, int open,
                    int pass)
{
    double ex = x + dx * len, ey = y + dy * len;
    if (pass == 0) {
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, ex, ey);
        if (!open) {
            cairo_move_to(cr, ex - dy * CAP, ey - dx * CAP);
            cairo_line_to(cr, ex + dy * CAP, ey + dx * CAP);
        }
    } else if (open) {
        cairo_move_to(cr, ex, ey);
        cairo_line_to(cr, ex - dx * ARROW - dy * ARROW * 0.6, ey - dy * ARROW - dx * ARROW * 0.6);
        cairo_line_to(cr, ex - dx * ARROW + dy * ARROW * 0.6, ey - dy * ARROW + dx * ARROW * 0.6);
        cairo_close_path(cr);
    }
}

/* A point's error bar along one axis (vertical when vert) from lo to hi, an end not finite
 * (or not above 0 on a log scale) open to the area's edge. */
static void bar(cairo_t *cr, const plot_area *a, double px, double py, double lo, double hi,
                int vert, int pass)
{
    if (isnan(lo) && isnan(hi))
        return; /* no interval */
    const plot_scale *s = vert ? &a->sy : &a->sx;
    const double at = vert ? py : px;
    double pl = plot_map(s, lo), ph = plot_map(s, hi);
    const int open_lo = isnan(pl), open_hi = isnan(ph);
    double dl = (open_lo ? s->p0 : pl) - at, dh = (open_hi ? s->p1 : ph) - at;
    if (vert) {
        bar_end(cr, px, py, 0, dl < 0 ? -1 : 1, fabs(dl), open_lo, pass);
        bar_end(cr, px, py, 0, dh < 0 ? -1 : 1, fabs(dh), open_hi, pass);
    } else {
        bar_end(cr, px, py, dl < 0 ? -1 : 1, 0, fabs(dl), open_lo, pass);
        bar_end(cr, px, py, dh < 0 ? -1 : 1, 0, fabs(dh), open_hi, pass);
    }
}

/* A series' error bars: their lines as one stroke, their open ends' arrowheads as one
 * fill. */
static void bars(cairo_t *cr, const plot_series *s, const plot_area *a)
{
    if (!(s->ylo && s->yhi) && !(s->xlo && s->xhi))
        return;
    plot_colour(cr, s->colour);
    plot_dash(cr, PLOT_SOLID);
    cairo_set_line_width(cr, PLOT_BAR_WIDTH);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < s->n; i++) {
            double x = plot_map(&a->sx, s->x[i]), y = plot_map(&a->sy, s->y[i]);
            if (isnan(x) || isnan(y))
                continue;
            if (s->ylo && s->yhi)
                bar(cr, a, x, y, s->ylo[i], s->yhi[i], 1, pass);
            if (s->xlo && s->xhi)
                bar(cr, a, x, y, s->xlo[i], s->xhi[i], 0, pass);
        }
        if (!cairo_has_current_point(cr))
            cairo_new_path(cr); /* nothing to draw: no empty path in the file */
        else if (pass == 0)
            cairo_stroke(cr);
        else
            cairo_fill(cr);
    }
}

static void marks(cairo_t *cr, const plot_series *s, const plot_area *a)
{
    if (s->marker < 0 || (s->line && s->mark_every < 1))
        return;
    /* a line's markers staggered by its colour, so that curves' markers do not sit on
       each other */
    const int every = s->line ? s->mark_every : 1, shift = (s->colour * every) / 3;
    int any = 0;
    for (int i = 0; i < s->n; i++) {
        if ((i + shift) % every != 0 && !(s->line && i == s->n - 1 && s->n < every))
            continue;
        double x = plot_map(&a->sx, s->x[i]), y = plot_map(&a->sy, s->y[i]);
        if (isnan(x) || isnan(y))
            continue;
        plot_marker_path(cr, s->marker, x, y, PLOT_MARK_SIZE * (s->big ? 1.5 : 1));
        any = 1;
    }
    if (!any)
        return;
    plot_colour(cr, s->colour);
    cairo_fill(cr);
}

/* The frame, the ticks (outward) and the y axis's tick labels and label. */
static void frame(cairo_t *cr, const plot_panel *p, const plot_area *a, const plot_ticks *tx,
                  const plot_ticks *ty, double label_x)
{
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, PLOT_AXIS_WIDTH);
    plot_dash(cr, PLOT_SOLID);
    cairo_rectangle(cr, a->x0, a->y0, a->x1 - a->x0, a->y1 - a->y0);
    cairo_stroke(cr);
    for (int i = 0; i < ty->n; i++) {
        double y = plot_map(&a->sy, ty->v[i]);
        cairo_move_to(cr, a->x0, y);
        cairo_line_to(cr, a->x0 - (ty->label[i][0] ? TICK : TICK / 2), y);
    }
    for (int i = 0; i < tx->n; i++) {
        double x = plot_map(&a->sx, tx->v[i]);
        cairo_move_to(cr, x, a->y1);
        cairo_line_to(cr, x, a->y1 + (tx->label[i][0] ? TICK : TICK / 2));
    }
    cairo_stroke(cr);
    plot_font(cr, 0, PLOT_TICK_FONT);
    for (int i = 0; i < ty->n; i++)
        if (ty->label[i][0])
            plot_text(cr, a->x0 - TICK - 2, plot_map(&a->sy, ty->v[i]), ty->label[i], 1, 0.5);
    if (p->y.label) {
        plot_font(cr, 0, PLOT_LABEL_FONT);
        plot_text_turned(cr, label_x, (a->y0 + a->y1) / 2, p->y.label, 0.5, 1, -M_PI / 2);
    }
}

double plot_ytick_width(cairo_t *cr, const plot_panel *p, double lo, double hi)
{
    plot_ticks t;
    plot_axis_ticks(&p->y, lo, hi, &t);
    plot_font(cr, 0, PLOT_TICK_FONT);
    double w = 0;
    for (int i = 0; i < t.n; i++)
        w = fmax(w, plot_text_width(cr, t.label[i]));
    return w;
}

/* The widest x tick label, and whether two neighbours' labels would overlap at width w. */
static double xtick_fit(cairo_t *cr, const plot_ticks *t, double lo, double hi, double w,
                        int *overlap)
{
    plot_font(cr, 0, PLOT_TICK_FONT);
    double widest = 0;
    *overlap = 0;
    for (int i = 0; i < t->n; i++) {
        double tw = plot_text_width(cr, t->label[i]);
        widest = fmax(widest, tw);
        if (i > 0) {
            double gap = (t->v[i] - t->v[i - 1]) / (hi - lo) * w; /* linear axes only */
            double prev = plot_text_width(cr, t->label[i - 1]);
            *overlap |= (prev + tw) / 2 + 4 > gap;
        }
    }
    return widest;
}

double plot_xlabel_turn(cairo_t *cr, const plot_panel *p, double lo, double hi, double w,
                        double *height)
{
    plot_ticks t;
    plot_axis_ticks(&p->x, lo, hi, &t);
    int overlap = 0;
    double widest = p->x.log ? 0 : xtick_fit(cr, &t, lo, hi, w, &overlap);
    double angle = overlap ? -M_PI / 6 : 0;
    *height = TICK + 3 + (p->text ? BENEATH_ROW : 0) +
              (overlap ? widest * sin(M_PI / 6) + PLOT_TICK_FONT : PLOT_TICK_FONT) + 4 +
              (p->x.label ? PLOT_LABEL_FONT + 4 : 0);
    return angle;
}

/* The x axis's tick labels and label below the area (the text beneath first). */
static void xlabels(cairo_t *cr, const plot_panel *p, const plot_area *a, const plot_ticks *tx,
                    double angle)
{
    double y = a->y1 + TICK + 3;
    if (p->text) {
        plot_font(cr, 1, PLOT_BENEATH_FONT);
        for (int i = 0; i < p->ntext; i++) {
            double x = plot_map(&a->sx, p->text_x0 + i);
            if (!isnan(x) && p->text[i])
                plot_text(cr, x, y, p->text[i], 0.5, 1);
        }
        y += BENEATH_ROW;
    }
    plot_font(cr, 0, PLOT_TICK_FONT);
    double below = PLOT_TICK_FONT;
    for (int i = 0; i < tx->n; i++) {
        if (!tx->label[i][0])
            continue;
        double x = plot_map(&a->sx, tx->v[i]);
        if (angle != 0) {
            plot_text_turned(cr, x + 2, y, tx->label[i], 1, 1, angle);
            below = fmax(below, plot_text_width(cr, tx->label[i]) * sin(-angle) +
                                    PLOT_TICK_FONT);
        } else
            plot_text(cr, x, y, tx->label[i], 0.5, 1);
    }
    if (p->x.label) {
        plot_font(cr, 0, PLOT_LABEL_FONT);
        plot_text(cr, (a->x0 + a->x1) / 2, y + below + 4, p->x.label, 0.5, 1);
    }
}

void plot_draw_panel(cairo_t *cr, const plot_panel *p, const plot_area *a, int x_labels,
                     double angle)
{
    plot_ticks tx, ty;
    plot_axis_ticks(&p->x, a->sx.lo, a->sx.hi, &tx);
    plot_axis_ticks(&p->y, a->sy.lo, a->sy.hi, &ty);
    cairo_save(cr);
    cairo_rectangle(cr, a->x0, a->y0, a->x1 - a->x0, a->y1 - a->y0);
    cairo_clip(cr);
    grid(cr, a, &tx, &ty);
    refs(cr, p, a);
    for (int i = 0; i < p->nseries; i++)
        if (p->series[i].line)
            line(cr, &p->series[i], a);
    cairo_restore(cr);
    cairo_save(cr); /* bars and markers may stand out of the area by a marker's size */
    cairo_rectangle(cr, a->x0 - 2 * PLOT_MARK_SIZE, a->y0 - 2 * PLOT_MARK_SIZE,
                    a->x1 - a->x0 + 4 * PLOT_MARK_SIZE, a->y1 - a->y0 + 4 * PLOT_MARK_SIZE);
    cairo_clip(cr);
    for (int i = 0; i < p->nseries; i++)
        bars(cr, &p->series[i], a);
    for (int i = 0; i < p->nseries; i++)
        marks(cr, &p->series[i], a);
    cairo_restore(cr);
    plot_font(cr, 0, PLOT_TICK_FONT);
    double yw = 0;
    for (int i = 0; i < ty.n; i++)
        yw = fmax(yw, plot_text_width(cr, ty.label[i]));
    frame(cr, p, a, &tx, &ty, a->x0 - TICK - 2 - yw - 5 - PLOT_LABEL_FONT);
    if (x_labels)
        xlabels(cr, p, a, &tx, angle);
}
