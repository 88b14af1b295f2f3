/* Bars, sparklines, dot plots and fixed-width numbers (see draw_plot.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/draw_plot.h"

static const char *const eighths[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
static const char *const levels_u[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
static const char *const levels_a[8] = {"_", ".", ",", "-", "~", "+", "*", "#"};

void plot_bar(gt_surface *s, int x, int y, int w, double frac, gt_role role)
{
    if (w <= 0)
        return;
    if (!(frac > 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    if (s->utf8) {
        int units = (int)lround(frac * w * 8);
        int full = units / 8, part = units % 8;
        for (int i = 0; i < w; i++)
            surf_put(s, x + i, y, role, i < full ? "█" : i == full && part ? eighths[part] : " ");
    } else {
        int units = (int)lround(frac * w * 2);
        int full = units / 2, half = units % 2;
        for (int i = 0; i < w; i++)
            surf_put(s, x + i, y, role, i < full ? "#" : i == full && half ? "+" : " ");
    }
}

void plot_spark(gt_surface *s, int x, int y, const float *v, int n, float lo, float hi,
                gt_role role)
{
    const char *const *lv = s->utf8 ? levels_u : levels_a;
    float span = hi - lo;
    for (int i = 0; i < n; i++) {
        if (isnan(v[i])) {
            surf_put(s, x + i, y, role, " ");
            continue;
        }
        int k = span > 0 ? (int)floorf((v[i] - lo) / span * 8.0f) : 3;
        k = k < 0 ? 0 : k > 7 ? 7 : k;
        surf_put(s, x + i, y, role, lv[k]);
    }
}

int plot_canvas_init(plot_canvas *c, int w, int h, int utf8)
{
    memset(c, 0, sizeof *c);
    if (w < 1 || h < 1)
        return -1;
    c->w = w;
    c->h = h;
    c->utf8 = utf8;
    c->dw = utf8 ? 2 * w : w;
    c->dh = utf8 ? 4 * h : h;
    c->bits = calloc((size_t)w * (size_t)h, 1);
    c->count = calloc((size_t)w * (size_t)h, sizeof *c->count);
    if (!c->bits || !c->count) {
        plot_canvas_free(c);
        return -1;
    }
    return 0;
}

void plot_canvas_free(plot_canvas *c)
{
    free(c->bits);
    free(c->count);
    memset(c, 0, sizeof *c);
}

static void dot_of(const plot_canvas *c, double fx, double fy, int *dx, int *dy)
{
    int x = (int)floor(fx * c->dw), y = (int)floor((1.0 - fy) * c->dh);
    *dx = x < 0 ? 0 : x >= c->dw ? c->dw - 1 : x;
    *dy = y < 0 ? 0 : y >= c->dh ? c->dh - 1 : y;
}

void plot_canvas_dot(plot_canvas *c, double fx, double fy)
{
    if (!(fx >= 0 && fx <= 1 && fy >= 0 && fy <= 1))
        return;
    int dx, dy;
    dot_of(c, fx, fy, &dx, &dy);
    int per_x = c->utf8 ? 2 : 1, per_y = c->utf8 ? 4 : 1;
    size_t i = (size_t)(dy / per_y) * (size_t)c->w + (size_t)(dx / per_x);
    if (c->utf8) {
        static const unsigned char bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20},
                                                {0x40, 0x80}};
        c->bits[i] |= bit[dy % 4][dx % 2];
    }
    if (c->count[i] < 0xFFFF)
        c->count[i]++;
}

void plot_canvas_cell(const plot_canvas *c, double fx, double fy, int *cx, int *cy)
{
    fx = fx < 0 ? 0 : fx > 1 ? 1 : fx;
    fy = fy < 0 ? 0 : fy > 1 ? 1 : fy;
    int dx, dy;
    dot_of(c, fx, fy, &dx, &dy);
    *cx = dx / (c->utf8 ? 2 : 1);
    *cy = dy / (c->utf8 ? 4 : 1);
}

void plot_canvas_draw(const plot_canvas *c, gt_surface *s, int x, int y, gt_role role)
{
    for (int cy = 0; cy < c->h; cy++)
        for (int cx = 0; cx < c->w; cx++) {
            size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
            if (!c->count[i])
                continue;
            char g[8];
            if (c->utf8) {
                unsigned cp = 0x2800u + c->bits[i];
                g[0] = (char)(0xE0 | (cp >> 12));
                g[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
                g[2] = (char)(0x80 | (cp & 0x3F));
                g[3] = 0;
            } else {
                unsigned n = c->count[i];
                g[0] = n == 1 ? '.' : n <= 3 ? ':' : n <= 9 ? '*' : '#';
                g[1] = 0;
            }
            surf_put(s, x + cx, y + cy, role, g);
        }
}

void fmt_gate(char *buf, size_t n, float v)
{
    if (isnan(v)) /* not known */
        snprintf(buf, n, "   ?");
    else
        snprintf(buf, n, "%4.2f", (double)v);
}

void fmt_signed(char *buf, size_t n, float v)
{
    double a = fabs((double)v);
    if (isnan(v)) /* not known */
        snprintf(buf, n, "    ?");
    else if (a < 9.995)
        snprintf(buf, n, "%+5.2f", (double)v);
    else if (a < 99.95)
        snprintf(buf, n, "%+5.1f", (double)v);
    else if (a < 99999.5)
        snprintf(buf, n, "%+5.0f", (double)v);
    else
        snprintf(buf, n, "%s", v > 0 ? " +big" : " -big");
}

void fmt_halflife(char *buf, size_t n, double hl, int utf8)
{
    if (isnan(hl))
        snprintf(buf, n, "-");
    else if (isinf(hl) || hl >= 99999.5)
        snprintf(buf, n, "%s", utf8 ? "∞" : "inf");
    else if (hl < 99.95)
        snprintf(buf, n, "%.1f", hl);
    else
        snprintf(buf, n, "%.0f", hl);
}
