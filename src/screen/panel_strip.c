/* The text strip: the text around the cursor as rows of characters (words kept whole,
 * draw_striprows.h), each with a row of marks under it (the cursor, edited characters,
 * characters not fed to the model, the matches of the hypothesis and of the selection);
 * optionally coloured by the selected unit's value at each step; the matches of the hypothesis underlined, the stretch being
 * selected highlighted. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/signals.h"
#include "gatetui/utf8.h"
#include "screen/panel_strip.h"
#include "screen/panel_frame.h"
#include "screen/draw_striprows.h"

/* The shade of step s: by the selected unit's tanh c (h), by the probe's probability p as
 * 2p - 1, or by a principal component's score over twice its deviation (none where the
 * probe or the component is not known, or beyond its steps). */
static gt_role heat_role(const gt_view *v, size_t s)
{
    if (v->ui->heat == HEAT_OFF || !trace_has(v->tr, s))
        return R_NORMAL;
    float x;
    if (v->ui->heat >= HEAT_COMP) {
        x = data_comp_at(&v->probe, v->ui->heat - HEAT_COMP, v->layer, s);
        if (isnan(x))
            return R_NORMAL;
    } else if (v->ui->heat == HEAT_PROBE) {
        const float p = data_probe_at(&v->probe, v->layer, s);
        if (p < 0)
            return R_NORMAL;
        x = 2.0f * p - 1.0f;
    } else {
        x = view_heat_value(v, s);
    }
    long k = lroundf(x * 3.0f);
    k = k < -3 ? -3 : k > 3 ? 3 : k;
    return (gt_role)(R_HEAT_0 + k);
}

/* The role and the mark of a step's character (mark NULL: none). */
static gt_role step_role(const gt_view *v, const gt_surface *s, size_t st, const char **mark)
{
    const gt_data_find *f = &v->find;
    gt_role role = heat_role(v, st);
    *mark = NULL;
    const int sel = data_find_in_selection(f, st);
    if (sel)
        *mark = s->utf8 ? "\xe2\x95\x90" : "="; /* a double rule */
    if (data_find_in_match(f, st)) {
        /* an overline under the character; in the selection too, a triple bar */
        *mark = sel ? (s->utf8 ? "\xe2\x89\xa1" : "#") : s->utf8 ? "\xe2\x80\xbe" : "-";
        if (!v->ui->heat)
            role = R_MATCH;
    }
    if (v->nfound && view_in_found(v, text_step_offset(v->text, st)))
        role = R_FOUND;
    if (data_find_in_span(f, st, v->t))
        role = R_SPAN;
    if (trace_edited(v->tr, st)) {
        role = R_EDIT;
        *mark = "*";
    }
    return role;
}

/* The hypothesis's probe, when it is for the layer shown, in its form f (0 the longest):
 * "probe AUC 0.998 (unit 0.861)", "AUC 0.998 (unit 0.861)", "AUC 0.998"; "probe ..." while
 * it is computed, or why it failed; "" without one. */
static void probe_note(const gt_view *v, int f, char *note, size_t n)
{
    const gt_data_probe *p = &v->probe;
    note[0] = 0;
    if (p->layer != v->layer || p->state == PROBE_NONE)
        return;
    if (p->state == PROBE_COMPUTING)
        snprintf(note, n, "probe ...");
    else if (p->state == PROBE_FAILED)
        snprintf(note, n, "probe: %.40s", p->error);
    else if (isnan(p->auc))
        snprintf(note, n, f ? "AUC -" : "probe AUC -");
    else if (f < 2)
        snprintf(note, n, f ? "AUC %.3f (unit %.3f)" : "probe AUC %.3f (unit %.3f)", p->auc,
                 p->best_auc);
    else
        snprintf(note, n, "AUC %.3f", p->auc);
}

/* What the text is coloured by, in its form f (0 the longest, 1 short); "" when it is not. */
static void colour_note(const gt_view *v, int f, char *note, size_t n)
{
    const gt_data_find *fd = &v->find;
    const gt_data_comp *c = &v->probe.comp;
    const char *P = keys_names[KN_COLOUR_MORE].text, *C = keys_names[KN_COLOUR].text;
    note[0] = 0;
    const int j = v->ui->heat - HEAT_COMP; /* the component shown, from 0 */
    if (v->ui->heat >= HEAT_COMP && c->state == PROBE_KNOWN && c->layer == v->layer && f)
        snprintf(note, n, "component %d of %s (%s)", j + 1, data_find_signal_name(fd), P);
    else if (v->ui->heat >= HEAT_COMP && c->state == PROBE_KNOWN && c->layer == v->layer)
        snprintf(note, n, "coloured by component %d of %s (%.1f%%; %s: next)", j + 1,
                 data_find_signal_name(fd), 100 * c->explained[j], P);
    else if (v->ui->heat >= HEAT_COMP)
        snprintf(note, n, "component %d: %s (%s: next)", j + 1,
                 c->state == PROBE_FAILED ? c->error : "computing", P);
    else if (v->ui->heat == HEAT_PROBE)
        snprintf(note, n, f ? "the probe's 2p-1 (%s)" : "coloured by the probe: 2p-1 (%s: next)", P);
    else if (v->ui->heat) {
        int sig = view_heat_signal(v->m, v->ui->heat_pos);
        if (sig < 0) /* another model's signal this one has not: its h (view_heat_value) */
            sig = signals_h(v->m);
        const char *name = signals_name(v->m, sig);
        char as[24] = "";
        if (signals_is_gate(v->m, sig))
            snprintf(as, sizeof as, " as 2%s-1", name);
        else if (signals_tanh_shown(v->m, sig))
            snprintf(as, sizeof as, " as tanh %s", name);
        if (f)
            snprintf(note, n, "%s of unit %d (%s)", name, v->unit, C);
        else
            snprintf(note, n, "coloured by %s of unit %d%s (%s: %s)", name, v->unit, as, C,
                     view_heat_signal(v->m, v->ui->heat_pos + 1) < 0 ? "off" : "next");
    }
}

/* What the strip's title says on its right, in at most w columns: the hypothesis, its
 * probe, the selection, what the text is coloured by (or the hint of c), each shorter, then
 * the last ones left out (the hint first, silently; the others with " …") where the whole
 * does not fit. */
static void strip_note(const gt_view *v, const gt_surface *s, int w, char *note, size_t n)
{
    const gt_data_find *f = &v->find;
    char hyp[64] = "", sel[96] = "", probe[3][96], colour[2][320], hint[48] = "";
    char a[32], b[32];
    if (f->hyp_state == FIND_KNOWN)
        snprintf(hyp, sizeof hyp, "%s \"%.24s\"", s->utf8 ? "\xe2\x80\xbe" : "-", f->regex);
    for (int k = 0; k < 3; k++)
        probe_note(v, hyp[0] ? k : 0, probe[k], sizeof probe[k]);
    if (!hyp[0])
        probe[0][0] = probe[1][0] = probe[2][0] = 0;
    if (f->sel_state == FIND_KNOWN)
        snprintf(sel, sizeof sel, "%s %s-%s", s->utf8 ? "\xe2\x95\x90" : "=",
                 report_commas(f->sel_a, a, sizeof a), report_commas(f->sel_b, b, sizeof b));
    for (int k = 0; k < 2; k++)
        colour_note(v, k, colour[k], sizeof colour[k]);
    if (!v->ui->heat)
        snprintf(hint, sizeof hint, "%s: colour by unit %d", keys_names[KN_COLOUR].text, v->unit);
    /* the forms, longest first: the probe's and the colouring's shorter, then the last
       parts left out */
    static const struct { int probe, colour, parts; } form[] = {
        {0, 0, 5}, {1, 0, 5}, {1, 1, 5}, {2, 1, 5}, {2, 1, 4}, {2, 1, 3}, {2, 1, 2}, {2, 1, 1},
        {2, 1, 0}};
    for (size_t i = 0; i < sizeof form / sizeof form[0]; i++) {
        const char *part[5] = {hyp, probe[form[i].probe], sel, colour[form[i].colour], hint};
        int k = 0, dropped = 0;
        note[0] = 0;
        for (int p = 0; p < 5; p++) {
            if (!part[p][0])
                continue;
            if (p >= form[i].parts) {
                dropped += p < 4; /* the hint goes unsaid */
                continue;
            }
            k += snprintf(note + k, n - (size_t)k, "%s%s", k ? "  " : "", part[p]);
            if ((size_t)k >= n) /* cut by the buffer: too wide anyway */
                k = (int)n - 1;
        }
        if (dropped)
            snprintf(note + k, n - (size_t)k, "%s", s->utf8 ? " …" : " ~");
        if (surf_width(note) <= w)
            return;
    }
    note[0] = 0;
}

void panel_strip(gt_surface *s, gt_rect r, const gt_view *v)
{
    char note[512] = "";
    /* the note's room beside " text " in the rule (panel_frame) */
    strip_note(v, s, r.w - 11, note, sizeof note);
    gt_rect in;
    panel_frame(s, r, "text", note, &in);
    if (v->ui->heat) { /* the shades' scale, left of the note: -1 ---0+++ +1, each cell in
                          * its shade: a background in colour, an attribute on the sign
                          * without (a block would hide the background under its glyph) */
        int nx = r.x + r.w - 1 - surf_width(note) - 2, sx = nx - 15;
        if (sx > r.x + 8) {
            surf_text(s, sx, r.y, 4, R_DIM, " -1 ");
            for (int i = 0; i < 7; i++)
                surf_put(s, sx + 4 + i, r.y, (gt_role)(R_HEAT_N3 + i),
                         i < 3 ? "-" : i == 3 ? "0" : "+");
            surf_text(s, sx + 11, r.y, 4, R_DIM, " +1 ");
        }
    }
    int pairs = in.h / 2, W = in.w - 2;
    gt_strip_rows rows;
    if (pairs < 1 || W < 1 || strip_rows(v, pairs, W, &rows) < 0)
        return;
    const char *mcur = s->utf8 ? "▲" : "^", *mskip = s->utf8 ? "×" : "x";
    for (size_t i = 0; i < rows.n; i++) {
        const gt_strip_cell *d = &rows.c[i];
        char g[16];
        if (d->decoded) /* a byte model's character of several bytes, drawn once */
            view_cp_glyph(s->utf8, 0, d->cp, g);
        else
            strip_glyph(v, d->step, d->cp, g);
        if (d->decoded == 2 && (size_t)d->step != v->t)
            continue; /* drawn at its first byte; again only for the cursor's role */
        int x = in.x + 1 + d->col, y = in.y + 2 * d->row;
        gt_role role = R_NORMAL;
        const char *mark = NULL;
        if (d->step < 0) {
            role = R_SKIPPED;
            mark = mskip;
        } else {
            role = step_role(v, s, (size_t)d->step, &mark);
            if ((size_t)d->step == v->t) { /* an edit there stays visible under the cursor */
                role = trace_edited(v->tr, v->t) ? R_CURSOR_EDIT : R_CURSOR;
                mark = mcur;
            }
        }
        surf_text(s, x, y, in.x + in.w - 1 - x, role, g);
        if (mark)
            surf_put(s, x, y + 1, mark == mcur ? R_MARK : role, mark);
    }
    strip_rows_free(&rows);
}
