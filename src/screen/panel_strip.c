/* The text strip: the text around the cursor as rows of characters, each with a row of
 * marks under it (the cursor, edited characters, characters not fed to the model, the
 * matches of the hypothesis and of the selection); optionally coloured by the selected
 * unit's value at each step; the matches of the hypothesis underlined, the stretch being
 * selected highlighted. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/utf8.h"
#include "screen/panel.h"

typedef struct dchar {
    long step;    /* -1: not in the vocabulary, not a step */
    uint32_t cp;  /* the text's character (an edit may show another) */
} dchar;

/* Decodes the character at off: fills d, returns its length; steps counts the steps. */
static int next_char(const gt_view *v, size_t off, long *step, dchar *d)
{
    uint32_t cp;
    int len = text_char_at(v->text, off, &cp);
    d->cp = cp;
    d->step = cp != UTF8_INVALID && model_token(v->m, cp) >= 0 ? (*step)++ : -1;
    return len;
}

static int glyph_of(const gt_view *v, const dchar *d, char *g)
{
    if (d->step >= 0)
        view_token_glyph(v, trace_token(v->tr, (size_t)d->step), g);
    else
        view_cp_glyph(v->utf8, v->text->bytes_mode, d->cp, g);
    return surf_width(g);
}

static gt_role heat_role(const gt_view *v, size_t s)
{
    if (!v->heat || !trace_has(v->tr, s))
        return R_NORMAL;
    float x = v->m->arch == GT_LSTM ? tanhf(trace_c(v->tr, s, v->layer)[v->unit])
                                    : trace_h(v->tr, s, v->layer)[v->unit];
    long k = lroundf(x * 3.0f);
    k = k < -3 ? -3 : k > 3 ? 3 : k;
    return (gt_role)(R_HEAT_0 + k);
}

/* The role and the mark of a step's character (mark NULL: none). */
static gt_role step_role(const gt_view *v, const gt_surface *s, size_t st, const char **mark)
{
    const gt_findview *f = &v->find;
    gt_role role = heat_role(v, st);
    *mark = NULL;
    if (findview_in_selection(f, st))
        *mark = s->utf8 ? "\xe2\x95\x90" : "="; /* a double rule */
    if (findview_in_match(f, st)) {
        *mark = s->utf8 ? "\xe2\x80\xbe" : "-"; /* an overline: under the character */
        if (!v->heat)
            role = R_MATCH;
    }
    if (v->nfound && view_in_found(v, text_step_offset(v->text, st)))
        role = R_FOUND;
    if (findview_in_span(f, st, v->t))
        role = R_SPAN;
    if (trace_edited(v->tr, st)) {
        role = R_EDIT;
        *mark = "*";
    }
    return role;
}

/* What the strip's title says on its right. */
static void strip_note(const gt_view *v, const gt_surface *s, char *note, size_t n)
{
    const gt_findview *f = &v->find;
    int k = 0;
    if (f->hyp_state == FIND_KNOWN)
        k += snprintf(note + k, n - (size_t)k, "%s \"%.24s\"  ", s->utf8 ? "\xe2\x80\xbe" : "-",
                      f->regex);
    if (f->sel_state == FIND_KNOWN)
        k += snprintf(note + (size_t)k, n - (size_t)k, "%s %zu-%zu  ",
                      s->utf8 ? "\xe2\x95\x90" : "=", f->sel_a, f->sel_b);
    if (v->heat)
        snprintf(note + k, n - (size_t)k, "coloured by %s of unit %d (c: off)",
                 v->m->arch == GT_LSTM ? "tanh c" : "h", v->unit);
    else
        snprintf(note + k, n - (size_t)k, "c: colour by unit %d", v->unit);
}

void panel_strip(gt_surface *s, gt_rect r, const gt_view *v)
{
    char note[192] = "";
    strip_note(v, s, note, sizeof note);
    gt_rect in;
    panel_frame(s, r, "text", note, &in);
    if (v->heat) { /* the shades' scale, left of the note: -1 ███████ +1 */
        int nx = r.x + r.w - 1 - surf_width(note) - 2, sx = nx - 15;
        if (sx > r.x + 8) {
            surf_text(s, sx, r.y, 4, R_DIM, " -1 ");
            for (int i = 0; i < 7; i++)
                surf_put(s, sx + 4 + i, r.y, (gt_role)(R_HEAT_N3 + i), s->utf8 ? "█" : "#");
            surf_text(s, sx + 11, r.y, 4, R_DIM, " +1 ");
        }
    }
    int pairs = in.h / 2, W = in.w - 2;
    if (pairs < 1 || W < 1)
        return;
    long total = (long)pairs * W, cpos = view_strip_cursor_cell(v, pairs, W);
    /* the characters before the cursor that can show, and those after it */
    long before = cpos < 0 ? 0 : cpos;
    long nafter_max = total - cpos > 0 ? total - cpos : 0;

    /* the characters before the cursor: decode from a step far enough back */
    const gt_text *t = v->text;
    size_t sb = v->t > (size_t)before ? v->t - (size_t)before : 0;
    size_t off = sb == 0 ? 0 : text_step_offset(t, sb), cur = text_step_offset(t, v->t);
    long step = (long)sb;
    dchar *ring = malloc((size_t)(before + 1) * sizeof *ring);
    dchar *after = malloc((size_t)(nafter_max + 1) * sizeof *after);
    if (!ring || !after) {
        free(ring);
        free(after);
        return;
    }
    long nring = 0, head = 0; /* the last `before` characters, oldest at head */
    while (off < cur && before > 0) {
        dchar d;
        off += (size_t)next_char(v, off, &step, &d);
        if (nring < before)
            ring[(head + nring++) % before] = d;
        else {
            ring[head] = d;
            head = (head + 1) % before;
        }
    }
    long nafter = 0;
    step = (long)v->t;
    for (off = cur; off < t->nbytes && nafter < nafter_max;) {
        off += (size_t)next_char(v, off, &step, &after[nafter]);
        nafter++;
    }

    /* lay them out: the cursor at cell `before` of the rows read as one line */
    const char *mcur = s->utf8 ? "▲" : "^", *mskip = s->utf8 ? "×" : "x";
    for (int pass = 0; pass < 2; pass++) {
        long pos = cpos;
        long n = pass == 0 ? nafter : nring;
        for (long i = 0; i < n; i++) {
            const dchar *d = pass == 0 ? &after[i] : &ring[(head + nring - 1 - i) % before];
            char g[8];
            int w = glyph_of(v, d, g);
            if (pass == 1)
                pos -= w;
            if (pass == 0 ? pos >= total : pos < 0)
                break;
            if (pos < 0 || pos >= total) { /* scrolled out of view, on the far side */
                if (pass == 0)
                    pos += w;
                continue;
            }
            int row = (int)(pos / W), col = (int)(pos % W);
            int x = in.x + 1 + col, y = in.y + 2 * row;
            gt_role role = R_NORMAL;
            const char *mark = NULL;
            if (d->step < 0) {
                role = R_SKIPPED;
                mark = mskip;
            } else {
                role = step_role(v, s, (size_t)d->step, &mark);
                if ((size_t)d->step == v->t) {
                    role = R_CURSOR;
                    mark = mcur;
                }
            }
            surf_text(s, x, y, in.x + in.w - 1 - x, role, g);
            if (mark)
                surf_put(s, x, y + 1, mark == mcur ? R_MARK : role, mark);
            if (pass == 0)
                pos += w;
        }
    }
    free(ring);
    free(after);
}
