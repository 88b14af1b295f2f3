/* The selected unit: every value at the cursor, its carry gate's implied half-life and
 * its change since the last step, and a sparkline of each value's history around the
 * cursor (the cursor marked under them). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/signals.h"
#include "gatetui/stats.h"
#include "screen/panel_unit.h"
#include "screen/panel_frame.h"
#include "screen/draw_plot.h"

#define HIST_MAX 512

typedef struct series {
    const char *name;
    int kind;      /* 0: a gate block, 1: c, 2: h */
    int block;
    float lo, hi;  /* fixed range, or lo > hi: the values' own */
} series;

static float value_at(const gt_view *v, const series *se, size_t s)
{
    const int H = model_width(v->m, v->layer);
    if (v->ui->diff)
        return view_diff_value(v, se->kind, se->block, s);
    if (se->kind == 1)
        return trace_c(v->tr, s, v->layer)[v->unit];
    if (se->kind == 2)
        return trace_h(v->tr, s, v->layer)[v->unit];
    return trace_gates(v->tr, s, v->layer)[(size_t)se->block * H + v->unit];
}

static const char *trim(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

/* The gates at the cursor: "i 0.52  f 0.97  g -0.31  o 0.60" (or r, z, n; or a plain RNN's
 * pre-activation a). */
static void gate_line(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    const int H = model_width(v->m, v->layer), u = v->unit;
    const float *g = v->sg;
    char f[4][24], num[16];
    const char *fields[4] = {f[0], f[1], f[2], f[3]};
    void (*fg)(char *, size_t, float) = v->ui->diff ? fmt_signed : fmt_gate;
    const int n = v->m->gates;
    for (int b = 0; b < n; b++) {
        /* a tanh's input or output, or an RNN's pre-activation: signed */
        int cand = !signals_is_gate(v->m, b);
        (cand ? fmt_signed : fg)(num, sizeof num, g[(size_t)b * H + u]);
        snprintf(f[b], sizeof f[b], "%s %s", model_gate_name(v->m, b), trim(num));
    }
    panel_fields(s, x, y, w, R_NORMAL, fields, n, 2);
}

/* The state at the cursor, its change since the step before and the carry gate's half-life:
 * "c +0.41  h +0.23  Δc -0.02  t½ 3.1" (a GRU: h alone; a plain RNN: no t½); the fields that do not fit are left
 * out, never cut. */
static void state_line(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    const int H = model_width(v->m, v->layer), u = v->unit, carry = model_carry_gate(v->m);
    const float *cc = v->sc, *hh = v->sh, *pc = v->spc, *ph = v->sph;
    char f[4][32], num[16], hl[16] = "-";
    const char *fields[4] = {f[0], f[1], f[2], f[3]};
    /* a half-life of a difference of gates means nothing; a plain RNN has no carry gate */
    if (!v->ui->diff && carry >= 0)
        fmt_halflife(hl, sizeof hl, stats_halflife(v->sg[(size_t)carry * H + u]), s->utf8);
    const char *delta = s->utf8 ? "Δ" : "d";
    int n = 0;
    const int has_c = v->m->cell->has_c;
    if (has_c) {
        fmt_signed(num, sizeof num, cc[u]);
        snprintf(f[n++], sizeof f[0], "c %s", trim(num));
    }
    fmt_signed(num, sizeof num, hh[u]);
    snprintf(f[n++], sizeof f[0], "h %s", trim(num));
    const char *st = v->m->cell->carried;
    fmt_signed(num, sizeof num, has_c ? cc[u] - pc[u] : hh[u] - ph[u]);
    snprintf(f[n++], sizeof f[0], "%s%s %s", delta, st, trim(num));
    if (carry >= 0)
        snprintf(f[n++], sizeof f[0], "%s %s", s->utf8 ? "t½" : "t1/2", hl);
    panel_fields(s, x, y, w, R_NORMAL, fields, n, 2);
}

/* One value's history over the sw steps from `first` as a sparkline at (x, y), and its
 * range in lw columns after it. */
static void history(gt_surface *s, int x, int y, int sw, int lw, long first, const gt_view *v,
                    const series *se)
{
    float vals[HIST_MAX];
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < sw; i++) {
        long st = first + i;
        vals[i] = NAN;
        if (st >= 0 && (size_t)st < v->steps && trace_has(v->tr, (size_t)st)) {
            vals[i] = value_at(v, se, (size_t)st);
            lo = vals[i] < lo ? vals[i] : lo;
            hi = vals[i] > hi ? vals[i] : hi;
        }
    }
    if (se->lo <= se->hi && !v->ui->diff) {
        lo = se->lo;
        hi = se->hi;
    } else if (!(lo < hi)) {
        lo = isfinite(lo) ? lo - 0.5f : -1;
        hi = isfinite(hi) ? hi + 0.5f : 1;
    }
    int carry = se->kind == 0 && se->block == model_carry_gate(v->m);
    surf_text(s, x, y, 2, R_DIM, se->name);
    plot_spark(s, x + 2, y, vals, sw, lo, hi, carry ? R_CARRY : R_PLOT);
    if (lw) {
        char buf[256];
        snprintf(buf, sizeof buf, " %+.2f..%+.2f", (double)lo, (double)hi);
        surf_text(s, x + 2 + sw, y, lw, R_DIM, buf);
    }
}

/* The histories of the unit's values in the rows from y to end, the last row marking the
 * cursor under them and how far they reach. */
static void histories(gt_surface *s, int x, int y, int w, int end, const gt_view *v)
{
    /* in the cell's order (an LSTM's carry gate second, before h): the first dropped are
       the last */
    const gt_celltype *cl = v->m->cell;
    series ss[SIGNALS_MAX];
    int nss = cl->nsignals;
    for (int k = 0; k < nss; k++) {
        const int sig = cl->history_order[k];
        const gt_cell_signal *cs = &cl->signal[sig];
        ss[k] = (series){cs->name, sig < cl->gates ? 0 : cl->has_c && sig == cl->gates ? 1 : 2,
                         sig < cl->gates ? sig : 0, cs->lo, cs->hi};
    }
    int nrows = end - y - 1; /* the last row marks the cursor */
    if (nrows > nss)
        nrows = nss;
    int lw = w >= 40 ? 14 : 0; /* the range on the right */
    int sw = w - 2 - lw;
    if (nrows < 1 || sw < 4)
        return;
    if (sw > HIST_MAX)
        sw = HIST_MAX;
    long first = (long)v->t - sw / 2;
    for (int k = 0; k < nrows; k++, y++)
        history(s, x, y, sw, lw, first, v, &ss[k]);
    /* the cursor under the histories, and how far they reach */
    char buf[32];
    surf_put(s, x + 2 + sw / 2, y, R_MARK, s->utf8 ? "▲" : "^");
    snprintf(buf, sizeof buf, "t-%d", sw / 2);
    surf_text(s, x + 2, y, sw / 2 - 1, R_DIM, buf);
    snprintf(buf, sizeof buf, "t+%d", sw - sw / 2 - 1);
    int bw = surf_width(buf);
    if (sw - sw / 2 - 2 > bw)
        surf_text(s, x + 2 + sw - bw, y, bw, R_DIM, buf);
}

void panel_unit(gt_surface *s, gt_rect r, const gt_view *v)
{
    char title[96];
    const char *diff = v->ui->diff ? (s->utf8 ? ", edited − before" : ", edited - before") : "";
    snprintf(title, sizeof title, "unit %d, layer %d%s", v->unit, v->layer, diff);
    gt_rect in;
    char note[32]; /* the keys that select another unit, as the key table names them */
    snprintf(note, sizeof note, "%s select", keys_name_text(&keys_names[KN_UNIT_NOTE], s->utf8));
    if (diff[0] && !panel_frame_fits(r, title, "")) /* the difference said before the layer */
        snprintf(title, sizeof title, "unit %d%s", v->unit, diff);
    panel_frame(s, r, title, note, &in);
    if (in.h < 1 || in.w < 4)
        return;
    int x = in.x + 1, w = in.w - 1, y = in.y, end = in.y + in.h;
    gate_line(s, x, y++, w, v);
    if (y >= end)
        return;
    state_line(s, x, y++, w, v);
    histories(s, x, y, w, end, v);
}
