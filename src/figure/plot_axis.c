/* The chart's scales, ranges and ticks (plot_impl.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure/plot_impl.h"
#include "gatetui/report.h"

double plot_map(const plot_scale *s, double v)
{
    if (!isfinite(v) || (s->log && v <= 0))
        return NAN;
    double a = s->lo, b = s->hi;
    if (s->log) {
        a = log10(a);
        b = log10(b);
        v = log10(v);
    }
    return s->p0 + (v - a) / (b - a) * (s->p1 - s->p0);
}

/* Takes v into the range [*lo, *hi] when it can be drawn on the axis. */
static void take(double v, int log_axis, double *lo, double *hi)
{
    if (!isfinite(v) || (log_axis && v <= 0))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* The values of series s along the axis (x or y), its error bars' ends included. */
static void take_series(const plot_series *s, int is_x, int log_axis, double *lo, double *hi)
{
    const double *v = is_x ? s->x : s->y;
    const double *a = is_x ? s->xlo : s->ylo, *b = is_x ? s->xhi : s->yhi;
    for (int i = 0; i < s->n; i++) {
        if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
            continue; /* a point not drawn takes no room */
        take(v[i], log_axis, lo, hi);
        if (a)
            take(a[i], log_axis, lo, hi);
        if (b)
            take(b[i], log_axis, lo, hi);
    }
}

/* A margin of `by` of the range on either side (on a log scale, of its decades); a range of
 * one value widened around it. */
static void pad(int log_axis, double by, double *lo, double *hi)
{
    if (log_axis) {
        double a = log10(*lo), b = log10(*hi), m = b > a ? by * (b - a) : 0.3;
        *lo = pow(10, a - m);
        *hi = pow(10, b + m);
        return;
    }
    double m = *hi > *lo ? by * (*hi - *lo) : fmax(fabs(*lo) * 0.1, 0.5);
    *lo -= m;
    *hi += m;
}

void plot_range(const plot_axis *a, const plot_panel *p, int n, int is_x, double *lo,
                double *hi)
{
    if (a->lo < a->hi) {
        *lo = a->lo;
        *hi = a->hi;
        return;
    }
    if (a->names) {
        *lo = -0.5;
        *hi = a->nnames - 0.5;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < p[k].nseries; i++)
            take_series(&p[k].series[i], is_x, a->log, lo, hi);
        for (int i = 0; !is_x && i < p[k].nref; i++)
            if (!(p[k].ref[i].slope > 0))
                take(p[k].ref[i].level, a->log, lo, hi);
    }
    if (!(*lo <= *hi)) { /* nothing to draw */
        *lo = a->log ? 0.1 : 0;
        *hi = a->log ? 10 : 1;
    }
    /* 4%; 8% over named points (a model each), whose markers at the range's ends stood
       on the frame at 4% */
    pad(a->log, !is_x && n > 0 && p[0].x.names ? 0.08 : 0.04, lo, hi);
}

/* "10⁻⁵": ten to the power k in superscript digits. */
static void power_label(int k, char *buf, size_t n)
{
    static const char *const sup[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    char digits[16];
    snprintf(digits, sizeof digits, "%d", k < 0 ? -k : k);
    size_t at = (size_t)snprintf(buf, n, "10%s", k < 0 ? "⁻" : "");
    for (const char *d = digits; *d && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s", sup[*d - '0']);
}

/* m times 10^k as a label: plain decimals from 0.001 to 10000, else m·10ᵏ. */
static void log_label(int m, int k, char *buf, size_t n)
{
    if (k >= -3 && k <= 4)
        snprintf(buf, n, "%.*f", k < 0 ? -k : 0, m * pow(10, k));
    else if (m == 1)
        power_label(k, buf, n);
    else {
        char p[24];
        power_label(k, p, sizeof p);
        snprintf(buf, n, "%d·%s", m, p);
    }
}

static void log_ticks(double lo, double hi, plot_ticks *t)
{
    const int a = (int)floor(log10(lo)), b = (int)ceil(log10(hi));
    const int decades = (int)floor(log10(hi)) - (int)ceil(log10(lo)) + 1;
    const int step = b - a > 24 ? 4 : b - a > 12 ? 2 : 1; /* decades between labels */
    static const int mult[3] = {1, 2, 5};
    for (int k = a; k <= b; k++)
        for (int i = 0; i < (decades < 3 ? 3 : 1) && t->n < PLOT_MAX_TICKS; i++) {
            double v = mult[i] * pow(10, k);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
                continue;
            t->v[t->n] = v;
            t->label[t->n][0] = 0;
            if (i > 0 || (k % step) == 0)
                log_label(mult[i], k, t->label[t->n], sizeof t->label[0]);
            t->n++;
        }
}

static void linear_ticks(double lo, double hi, int integer, plot_ticks *t)
{
    double raw = (hi - lo) / 6, mag = pow(10, floor(log10(raw))), step = mag;
    static const double nice[4] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (nice[i] * mag >= raw) {
            step = nice[i] * mag;
            break;
        }
    if (integer && step < 1)
        step = 1;
    const int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9 && t->n < PLOT_MAX_TICKS;
         v += step) {
        double r = fabs(v) < step * 1e-9 ? 0 : v; /* never "-0" */
        t->v[t->n] = r;
        char digits[40];
        if (decimals == 0 && fabs(r) >= 10000 && fabs(r) < 1e15)
            report_commas((size_t)llround(fabs(r)), digits, sizeof digits); /* 43,234 */
        else
            snprintf(digits, sizeof digits, "%.*f", decimals, fabs(r));
        snprintf(t->label[t->n], sizeof t->label[0], "%s%s", r < 0 ? "−" : "", digits);
        t->n++; /* a minus sign, not a hyphen */
    }
}

void plot_axis_ticks(const plot_axis *a, double lo, double hi, plot_ticks *t)
{
    t->n = 0;
    if (a->names) {
        for (int i = 0; i < a->nnames && i < PLOT_MAX_TICKS; i++) {
            t->v[t->n] = i;
            snprintf(t->label[t->n++], sizeof t->label[0], "%s", a->names[i]);
        }
    } else if (a->log) {
        log_ticks(lo, hi, t);
        if (t->n < 2) { /* a range within one step of 1, 2, 5: numbers evenly apart */
            t->n = 0;
            linear_ticks(lo, hi, a->integer, t);
        }
    } else
        linear_ticks(lo, hi, a->integer, t);
}
