/* Curves on a log scale (draw_logplot.h): each over its value at k = 0, against k = 0..K,
 * the decades labelled evenly. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "screen/draw_logplot.h"
#include "screen/draw_plot.h"

/* A decade's label, all in one format: 1e1, 1e0, 1e-1, 1e-4. */
static void fmt_decade(char *buf, size_t n, int d)
{
    snprintf(buf, n, "1e%d", d);
}

/* curve[k] / curve[0] at fractional k, interpolated log-linearly; NAN where it is zero. */
static double ratio_at(const double *v, double k, int K)
{
    int a = (int)floor(k), b = a + 1;
    if (a >= K)
        return v[K] / v[0];
    double ra = v[a] / v[0], rb = v[b] / v[0], t = k - a;
    if (!(ra > 0) || !(rb > 0))
        return t < 0.5 ? (ra > 0 ? ra : NAN) : (rb > 0 ? rb : NAN);
    return exp((1 - t) * log(ra) + t * log(rb));
}

/* The decades' labels (lab columns from x0) of an axis of ph rows from top down to dbot,
 * where each falls: every n-th decade from 1 (where every curve starts), n the fewest
 * decades whose labels keep a row free between them, so that they are evenly spaced
 * (1e0 1e-4 1e-8 1e-12, none skipped). */
static void draw_decades(gt_surface *s, int x0, int py, int lab, int ph, double top, int dbot,
                         int dtop)
{
    const double span = top - dbot, rows_per = span > 0 ? (ph - 1) / span : 0;
    int n = 1;
    while (n < dtop - dbot + 1 && n * rows_per < 2)
        n++;
    char buf[32];
    const int first = dtop >= 0 ? dtop / n * n : -((-dtop + n - 1) / n) * n;
    for (int d = first; d >= dbot; d -= n) {
        int row = (int)lround((top - d) / span * (ph - 1));
        if (row < 0 || row >= ph)
            continue;
        fmt_decade(buf, sizeof buf, d);
        surf_printf(s, x0, py + row, lab, R_DIM, "%*s", lab, buf);
    }
}

/* The curves' names, each in a cell of its own in the ncol columns from x of the ph rows
 * from y: the last curve's first (drawn last, it is the one on top), each in the free cell
 * nearest the row its curve ends in (end_row[i]), in its row from the left. */
static void plot_names(gt_surface *s, int x, int y, int ph, int ncol, const plot_curve *cv,
                       int nc, const int *end_row)
{
    int at_row[PLOT_LOG_MAX], placed = 0;
    for (int i = nc - 1; i >= 0; i--)
        for (int tries = 0; tries < 2 * ph; tries++) {
            int row = end_row[i] + (tries % 2 ? -(tries + 1) / 2 : tries / 2), col = 0;
            if (row < 0 || row >= ph)
                continue;
            for (int j = 0; j < placed; j++)
                col += at_row[j] == row;
            if (col < ncol) {
                at_row[placed++] = row;
                surf_text(s, x + col, y + row, 1, cv[i].role, cv[i].label);
                break;
            }
        }
}

#define NAME_COLUMNS 4 /* columns of names beside a plot at most, unless every name needs more */

/* Where each of the nc curves ends (its row of the ph, into end_row) and the columns its
 * names take on the right: as many as the curves ending in one row (each name then in its
 * curve's own row), and at least as many as give every name a cell; at most `room`
 * (then a name may sit a row or more away from its curve). 0 when there is no room. */
static int name_columns(const plot_curve *cv, int nc, int K, int ph, int utf8, int dbot,
                        double span, int room, int *end_row)
{
    plot_canvas c;
    if (plot_canvas_init(&c, 1, ph, utf8))
        return 0;
    int most = 1;
    for (int i = 0; i < nc; i++) {
        const double r = cv[i].v[K] / cv[i].v[0];
        int cx, same = 1;
        plot_canvas_cell(&c, 1.0, r > 0 ? (log10(r) - dbot) / span : 0, &cx, &end_row[i]);
        for (int j = 0; j < i; j++)
            same += end_row[j] == end_row[i];
        most = same > most ? same : most;
    }
    plot_canvas_free(&c);
    const int need = (nc + ph - 1) / ph, same = most < NAME_COLUMNS ? most : NAME_COLUMNS;
    const int ncol = same > need ? same : need;
    return ncol <= room ? ncol : need <= room ? room : 0;
}

void plot_log(gt_surface *s, int x0, int y0, int w, int ph, int K, const plot_curve *cv, int nc,
              int letters)
{
    const int lab = 5;
    if (ph < 2)
        return;
    double lo = INFINITY, hi = 1;
    for (int i = 0; i < nc; i++)
        for (int k = 0; k <= K; k++) {
            double r = cv[i].v[k] / cv[i].v[0];
            if (r > 0 && r < lo)
                lo = r;
            if (r > hi)
                hi = r;
        }
    if (!(lo < INFINITY) || lo < 1e-12)
        lo = lo < INFINITY ? 1e-12 : 0.1;
    /* the axis from the lowest decade to the highest value: no empty decade on top */
    double top = log10(hi) < 1e-9 ? 0 : log10(hi);
    int dtop = (int)floor(top + 1e-9), dbot = (int)floor(log10(lo) + 1e-9);
    if (dbot >= dtop)
        dbot = dtop - 1;
    double span = top - dbot;
    nc = nc < PLOT_LOG_MAX ? nc : PLOT_LOG_MAX;
    int end_row[PLOT_LOG_MAX];
    const int ncol = name_columns(cv, nc, K, ph, s->utf8, dbot, span, w - lab - 1 - 8, end_row);
    const int pw = w - lab - 1 - ncol;
    if (ncol < 1 || pw < 8)
        return;
    int px = x0 + lab + 1, py = y0;
    const char *axis = s->utf8 ? "│" : "|";
    for (int y = 0; y < ph; y++)
        surf_put(s, px - 1, py + y, R_DIM, axis);
    draw_decades(s, x0, py, lab, ph, top, dbot, dtop);
    char buf[32];
    for (int i = 0; i < nc; i++) {
        plot_canvas c;
        if (plot_canvas_init(&c, pw, ph, s->utf8))
            return;
        for (int dx = 0; dx < c.dw; dx++) {
            double k = c.dw > 1 ? (double)dx * K / (c.dw - 1) : 0;
            double r = ratio_at(cv[i].v, k, K);
            if (r > 0)
                plot_canvas_dot(&c, (dx + 0.5) / c.dw, (log10(r) - dbot) / span);
        }
        if (s->utf8 && !letters) {
            plot_canvas_draw(&c, s, px, py, cv[i].role);
        } else { /* in ASCII and without colours each curve is drawn with its name */
            for (int cy = 0; cy < ph; cy++)
                for (int cx = 0; cx < pw; cx++)
                    if (c.count[(size_t)cy * pw + cx])
                        surf_put(s, px + cx, py + cy, cv[i].role, cv[i].label);
        }
        plot_canvas_free(&c);
    }
    plot_names(s, px + pw, py, ph, ncol, cv, nc, end_row);
    /* the k axis */
    int y = py + ph;
    surf_text(s, px - 1, y, 1, R_DIM, "0");
    snprintf(buf, sizeof buf, "k");
    surf_text(s, px + pw / 2, y, 1, R_DIM, buf);
    snprintf(buf, sizeof buf, "%d", K);
    surf_text(s, px + pw - surf_width(buf), y, surf_width(buf), R_DIM, buf);
}
