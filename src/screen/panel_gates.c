/* The gate bars: one row per unit with its gates (i, f, o or r, z) as bars and values, c (n
 * for a GRU, the pre-activation a for a plain RNN, which has no gates and so no bars) and h, and when there is room the implied half-life and the change since the
 * last step; in as many columns as the width allows, in the chosen order, scrolled to keep
 * the selected unit in view. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/stats.h"
#include "screen/panel_gates.h"
#include "screen/panel_frame.h"
#include "screen/draw_plot.h"

/* The grid from the layout, and which gates the bars show. */
typedef struct geom {
    int ncols, colw, rows, uw, bw, ng, show_hl, show_d, show_r;
    int blocks[3];
} geom;

/* text right-aligned in w cells from x by its width in cells (a "%5s" counts bytes, and
 * "∞" or "t½" are more bytes than cells); returns w. */
static int right(gt_surface *s, int x, int y, int w, gt_role role, const char *text)
{
    const int tw = surf_width(text);
    surf_text(s, x + (tw < w ? w - tw : 0), y, w, role, text);
    return w;
}

static geom geometry(const gt_view *v)
{
    geom g;
    const gt_gate_grid *l = &v->grid; /* view_prepare's, for the layout's gate panel */
    g.ng = model_sigmoid_gates(v->m, g.blocks);
    g.show_r = l->show_extra;
    g.ncols = l->ncols, g.colw = l->colw, g.rows = l->rows, g.uw = l->uw, g.bw = l->bw;
    g.show_hl = l->show_hl, g.show_d = l->show_d;
    return g;
}

/* What the units are sorted by, in buf when it names the cell's own. */
static const char *sort_name(const gt_view *v, const gt_surface *s, char *buf, size_t n)
{
    const gt_celltype *cl = v->m->cell;
    if (cl->carry < 0 && (v->ui->sort == SORT_CARRY || v->ui->sort == SORT_MEAN))
        return "unit (no carry gate)";
    const char *carry = cl->carry < 0 ? "" : model_gate_name(v->m, cl->carry);
    switch (v->ui->sort) {
    case SORT_CARRY: snprintf(buf, n, "%s gate %s", cl->carry_word, carry); return buf;
    case SORT_MEAN:
        if (!data_stats_units(&v->stats, v->layer))
            snprintf(buf, n, "mean %s (computing; by unit meanwhile)", carry);
        else
            snprintf(buf, n, "mean %s over the report's windows", carry);
        return buf;
    case SORT_ABSC: snprintf(buf, n, "|%s|", cl->carried); return buf;
    case SORT_CHANGE:
        snprintf(buf, n, "|%s%s|", s->utf8 ? "Δ" : "d", cl->carried);
        return buf;
    case SORT_R: return "|r|";
    case SORT_IMPORTANCE:
        return v->ivs && v->ivs->imp_known && v->ivs->imp_layer == v->layer
                   ? "importance"
                   : "importance (computing; by unit meanwhile)";
    default: return "unit";
    }
}

static const char *gate_title(const gt_view *v, int b, int wide)
{
    if (wide)
        return v->m->cell->signal[b].column;
    return model_gate_name(v->m, b);
}

/* A difference of gates in four columns: +.12, -.05, +1.0. */
static void fmt_dgate(char *buf, size_t n, float v)
{
    if (isnan(v))
        snprintf(buf, n, "   ?");
    else if (fabsf(v) >= 0.995f)
        snprintf(buf, n, "%+4.1f", (double)v);
    else {
        char t[16];
        snprintf(t, sizeof t, "%+.2f", (double)v); /* +0.12 */
        snprintf(buf, n, "%c%s", t[0], t + 2);
    }
}

/* The value column beside h: c, n (GRU) or a (plain RNN). */
static const char *state_name(const gt_view *v)
{
    return v->m->cell->signal[v->m->cell->beside_h].name;
}

/* That value of unit u. */
static float state_value(const gt_view *v, int u)
{
    const size_t H = (size_t)model_width(v->m, v->layer);
    const int b = v->m->cell->beside_h;
    if (b >= v->m->gates) /* c */
        return v->sc[u];
    return v->sg[(size_t)b * H + (size_t)u];
}

static void header_row(gt_surface *s, int x, int y, const geom *g, const gt_view *v)
{
    /* with the difference shown the names stay: the panel's title says edited - before */
    const char *st = v->m->cell->carried;
    surf_printf(s, x, y, g->uw + 1, R_DIM, "%*s", g->uw + 1, "#");
    int cx = x + g->uw + 2;
    for (int i = 0; i < g->ng; i++) {
        surf_text(s, cx, y, g->bw + 5, R_DIM, gate_title(v, g->blocks[i], g->bw + 5 >= 9));
        cx += g->bw + 6;
    }
    surf_printf(s, cx, y, 12, R_DIM, "%5s %5s", state_name(v), "h");
    cx += 12;
    if (g->show_hl)
        cx += v->ui->diff ? 6 : right(s, cx, y, 6, R_DIM, s->utf8 ? "t½" : "t1/2");
    if (g->show_d) {
        char d[16];
        snprintf(d, sizeof d, "%s%s", s->utf8 ? "Δ" : "d", st);
        cx += surf_printf(s, cx, y, 6, R_DIM, " %5s", d);
    }
    if (g->show_r) {
        char h[16];
        snprintf(h, sizeof h, "r %s", data_find_signal_name(&v->find));
        surf_printf(s, cx, y, 8, R_DIM, "  %6s", h);
    }
}

static void unit_row(gt_surface *s, int x, int y, const geom *g, const gt_view *v, int u)
{
    const int H = model_width(v->m, v->layer);
    const int has_c = v->m->cell->has_c, carry = model_carry_gate(v->m);
    int sel = u == v->unit;
    surf_text(s, x, y, 1, sel ? R_SELECTED : R_NORMAL, sel ? (s->utf8 ? "▶" : ">") : " ");
    surf_printf(s, x + 1, y, g->uw, sel ? R_SELECTED : R_DIM, "%*d", g->uw, u);
    int cx = x + g->uw + 2;
    char num[32];
    for (int i = 0; i < g->ng; i++) {
        int b = g->blocks[i];
        float val = v->sg[(size_t)b * H + u];
        gt_role role = b == carry ? R_CARRY : i == 0 ? R_BAR0 : R_BAR2;
        if (v->ui->diff) { /* |difference| as the bar, its sign as the colour */
            role = val < 0 ? R_NEG : R_POS;
            plot_bar(s, cx, y, g->bw, fabsf(val), role);
            fmt_dgate(num, sizeof num, val);
        } else {
            plot_bar(s, cx, y, g->bw, val, role);
            fmt_gate(num, sizeof num, val);
        }
        surf_text(s, cx + g->bw + 1, y, 4, R_NORMAL, num);
        cx += g->bw + 6;
    }
    float cv = state_value(v, u);
    fmt_signed(num, sizeof num, cv);
    surf_text(s, cx, y, 5, cv < 0 ? R_NEG : R_POS, num);
    fmt_signed(num, sizeof num, v->sh[u]);
    surf_text(s, cx + 6, y, 5, v->sh[u] < 0 ? R_NEG : R_POS, num);
    cx += 12;
    if (g->show_hl && v->ui->diff) {
        cx += 6;
    } else if (g->show_hl) {
        char hl[16];
        fmt_halflife(hl, sizeof hl, stats_halflife(v->g[(size_t)carry * H + u]), s->utf8);
        cx += right(s, cx, y, 6, R_NORMAL, hl);
    }
    if (g->show_d) {
        float d = has_c ? v->sc[u] - v->spc[u] : v->sh[u] - v->sph[u];
        fmt_signed(num, sizeof num, d);
        cx += surf_printf(s, cx, y, 6, R_NORMAL, " %5s", num);
    }
    if (g->show_r) {
        double r = data_find_r(&v->find, u);
        if (isnan(r))
            surf_printf(s, cx, y, 8, R_DIM, "  %6s", "-");
        else
            surf_printf(s, cx, y, 8, r < 0 ? R_NEG : R_POS, "  %+6.3f", r);
    }
}

void panel_gates(gt_surface *s, gt_rect r, const gt_view *v)
{
    const int H = model_width(v->m, v->layer);
    geom g = geometry(v);
    int page = g.ncols * g.rows;
    int last = v->ui->top + page < H ? v->ui->top + page : H;
    char title[160], note[96], sn[64];
    const char *by = sort_name(v, s, sn, sizeof sn);
    char what[64] = "";
    char at[32];
    if (v->stale) /* the values of the frame before an intervention, until the pass is there */
        snprintf(what, sizeof what, " (as before the change, step %s)",
                 report_commas(v->t, at, sizeof at));
    else if (v->ui->diff)
        snprintf(what, sizeof what, " edited %s before (step %s)%s", s->utf8 ? "−" : "-",
                 report_commas(v->dr.step, at, sizeof at), v->diff_known ? "" : ", not known here");
    const char *dir = v->ui->sort == SORT_INDEX
                          ? (v->ui->sort_reverse ? ", last first" : "")
                          : (v->ui->sort_reverse ? ", lowest first" : ", highest first");
    if (v->ui->sort == SORT_INDEX) /* the units the rows show, as they number them */
        snprintf(note, sizeof note, "units %d-%d of %d", v->order[v->ui->top], v->order[last - 1], H);
    else /* the rows, counted from 1 */
        snprintf(note, sizeof note, "rows %d-%d of %d", v->ui->top + 1, last, H);
    /* the whole title with the note, shorter ones with it (doc/screen.md: the note says which
       rows are shown, the title is shortened first; "highest first" over rows that do not
       start at the first misled): the layer and the order, then what the numbers are
       (edited - before, as before the change) and the order, then what they are or the
       order without its direction; only then the title alone: what the numbers are and the
       order (without its direction: the rows shown may not be the first), what they are,
       the order */
    char mark[48] = "", minimal[160];
    if (v->stale)
        snprintf(mark, sizeof mark, "as before the change");
    else if (v->ui->diff)
        snprintf(mark, sizeof mark, "edited %s before (step %s)", s->utf8 ? "−" : "-",
                 report_commas(v->dr.step, at, sizeof at));
    snprintf(minimal, sizeof minimal, "%s%sby %s%s", mark, mark[0] ? " " : "", by, dir);
    char notes[sizeof note], compact[sizeof note]; /* the note, and its short form: 23-40/256 */
    snprintf(notes, sizeof notes, "%s", note);
    if (v->ui->sort == SORT_INDEX)
        snprintf(compact, sizeof compact, "%d-%d/%d", v->order[v->ui->top], v->order[last - 1], H);
    else
        snprintf(compact, sizeof compact, "%d-%d/%d", v->ui->top + 1, last, H);
    for (int f = 0; f < 8; f++) {
        snprintf(note, sizeof note, "%s", f <= 3 ? notes : f == 4 ? compact : "");
        if (f == 0)
            snprintf(title, sizeof title, "%s, layer %d%s: %d units by %s%s",
                     v->m->cell->nsigmoid ? "gates" : "units", v->layer, what, H, by, dir);
        else if (f == 1)
            snprintf(title, sizeof title, "layer %d%s by %s%s", v->layer, what, by, dir);
        else if (f == 2)
            snprintf(title, sizeof title, "%s", minimal);
        else if (f == 5) /* without the note, no "highest first": the rows may not be (a
                            reversed order's "lowest first" stays: the default is the other) */
            snprintf(title, sizeof title, "%s%sby %s%s", mark, mark[0] ? " " : "", by,
                     v->ui->sort_reverse ? dir : "");
        else if ((f == 3 || f == 4 || f == 6) && mark[0]) /* never dropped: the numbers are
                                                             not the gates' */
            snprintf(title, sizeof title, "%s", mark);
        else /* a reversed order says so while the note is there */
            snprintf(title, sizeof title, "by %s%s", by,
                     v->ui->sort_reverse && (f == 3 || f == 4) ? dir : "");
        if (panel_frame_fits(r, title, note))
            break;
    }
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    for (int col = 0; col < g.ncols; col++) {
        int x = in.x + col * (g.colw + 1);
        header_row(s, x, in.y, &g, v);
        for (int row = 0; row < g.rows; row++) {
            int rank = v->ui->top + col * g.rows + row;
            if (rank >= H)
                break;
            unit_row(s, x, in.y + 1 + row, &g, v, v->order[rank]);
        }
    }
}
