/* The text strip's rows (see draw_striprows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gatetui/utf8.h"
#include "screen/draw_striprows.h"
#include "screen/draw_stripwords.h"
#include "screen/draw_surface.h"

typedef strip_char wchar_at;

/* The character drawn: for a step, its token as edited; otherwise the text's. */
static uint32_t shown_cp(const gt_view *v, long step, uint32_t cp)
{
    return step >= 0 ? v->m->vocab_cp[trace_token(v->tr, (size_t)step)] : cp;
}

int strip_glyph(const gt_view *v, long step, uint32_t cp, char *g)
{
    if (step >= 0)
        view_token_glyph(v, trace_token(v->tr, (size_t)step), g);
    else
        view_cp_glyph(v->utf8, v->text->bytes_mode, cp, g);
    return surf_width(g);
}

/* The width of a character, without building its glyph for printable ASCII. */
static int char_width(const gt_view *v, long step, uint32_t cp)
{
    uint32_t c = shown_cp(v, step, cp);
    if (c >= 0x20 && c < 0x7F)
        return 1;
    char g[16];
    return strip_glyph(v, step, cp, g);
}

/* A byte model's text: the character of several bytes that starts at off, when its bytes
 * are steps none of which is edited (so the strip shows what the bytes say); its length in
 * bytes and the character in *cp, else 0. */
static int byte_sequence(const gt_view *v, size_t off, size_t limit, long step, uint32_t *cp)
{
    const gt_text *t = v->text;
    if (!t->bytes_mode || step < 0 || t->bytes[off] < 0xC2)
        return 0;
    int n = utf8_decode(t->bytes + off, limit - off, cp);
    if (n < 2 || *cp == UTF8_INVALID || (size_t)step + (size_t)n > v->steps)
        return 0;
    for (int i = 0; i < n; i++)
        if (trace_edited(v->tr, (size_t)step + (size_t)i))
            return 0;
    return n;
}

static int is_space(uint32_t c)
{
    return c == ' ' || c == '\t';
}

/* Wraps one row from off (its step count *step) into c (room for W characters), stopping
 * before limit: returns the next row's start (and its step count in *step), *n the row's
 * characters. A row ends after a newline, before the first character of a new block, and
 * when the next character does not fit: after the row's last space (or before a wide
 * character), or there when it is a space, wide, or the row holds one word. */
static size_t wrap_row(const gt_view *v, int W, size_t off, size_t limit, long *step,
                       wchar_at *c, int *n)
{
    const gt_text *t = v->text;
    int k = 0, col = 0, brk = -1; /* brk: the last character after which the row may break */
    long s = *step;
    while (off < limit && (k < W || col >= W)) { /* (k > col: a byte model's bytes of no
                                                   * width; a full row breaks below) */
        if (k > 0 && off / STRIP_BLOCK != c[k - 1].off / STRIP_BLOCK)
            break;
        uint32_t cp, dcp;
        int len = text_char_at(t, off, &cp);
        long st = cp != UTF8_INVALID && model_token(v->m, cp) >= 0 ? s : -1;
        int seq = byte_sequence(v, off, limit, st, &dcp), w;
        if (seq && k + seq > W) { /* its bytes' entries do not fit the row's room */
            if (k > 0)
                break;
            seq = 0; /* a row too narrow for them: the bytes one by one */
        }
        if (seq) {
            char g[16];
            view_cp_glyph(v->utf8, 0, dcp, g);
            w = surf_width(g);
        } else {
            w = char_width(v, st, cp);
        }
        uint32_t sc = shown_cp(v, st, cp);
        if (col + w > W && k > 0) {
            if (brk >= 0 && brk < k - 1 && !is_space(sc) && w < 2) { /* the word moves to the next row */
                k = brk + 1;
                s = c[k].next;
                off = c[k].off;
            }
            break;
        }
        if (seq) { /* the character at its first byte, its other bytes of no width there */
            for (int i = 0; i < seq; i++)
                c[k + i] = (wchar_at){off + (size_t)i, s + i, s + i, dcp, col, i ? 0 : w,
                                      i ? 2 : 1};
            if (w > 1)
                brk = k;
            k += seq;
            col += w;
            s += seq;
            off += (size_t)seq;
            continue;
        }
        c[k] = (wchar_at){off, st, s, cp, col, w, 0};
        if (is_space(sc) || w > 1)
            brk = k;
        k++;
        col += w;
        s += st >= 0;
        off += (size_t)len;
        if (sc == '\n')
            break;
    }
    *n = k;
    *step = s;
    return off;
}

/* The start of the row-wrapping anchor for the character at off: after the last newline
 * before it in its block, or the block's first character. */
static size_t anchor_of(const gt_view *v, size_t off)
{
    const gt_text *t = v->text;
    size_t b = off - off % STRIP_BLOCK;
    for (size_t p = off; p > b; p--)
        if (t->bytes[p - 1] == '\n')
            return p;
    if (!t->bytes_mode)
        while (b < off && b % STRIP_BLOCK < 3 && (t->bytes[b] & 0xC0) == 0x80)
            b++;
    return b;
}

typedef struct rowstart {
    size_t off;
    long step;
} rowstart;

/* How the rows are wrapped: a character model's text by its bytes (a position is a byte
 * offset), a word model's by its steps (a position is a step: draw_stripwords.h). */
typedef struct layout {
    size_t (*wrap)(const gt_view *v, int W, size_t pos, size_t limit, long *step,
                   wchar_at *c, int *n);
    size_t (*anchor)(const gt_view *v, size_t pos);
    size_t end, cur; /* the last position, and the cursor's */
} layout;

static size_t step_of_offset(const gt_view *v, size_t off)
{
    return v->text->words ? off : text_step_at_offset(v->text, off);
}

static layout layout_of(const gt_view *v)
{
    const gt_text *t = v->text;
    const size_t cur = v->t < v->steps ? v->t : v->steps - 1;
    if (t->words)
        return (layout){stripwords_wrap, stripwords_anchor, v->steps, cur};
    return (layout){wrap_row, anchor_of, t->nbytes, text_step_offset(t, cur)};
}

typedef struct rowlist {
    rowstart *r;
    size_t n, cap;
} rowlist;

static int push(rowlist *l, size_t off, long step)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        rowstart *r = realloc(l->r, cap * sizeof *r);
        if (!r)
            return -1;
        l->r = r;
        l->cap = cap;
    }
    l->r[l->n++] = (rowstart){off, step};
    return 0;
}

/* The starts of the rows from a to b (b a row start: a newline's or a block's), appended. */
static int rows_between(const gt_view *v, const layout *ly, int W, size_t a, size_t b,
                        wchar_at *buf, rowlist *l)
{
    long s = (long)step_of_offset(v, a);
    int n;
    while (a < b) {
        if (push(l, a, s) < 0)
            return -1;
        a = ly->wrap(v, W, a, b, &s, buf, &n);
    }
    return 0;
}

int strip_rows(const gt_view *v, int pairs, int W, gt_strip_rows *out)
{
    out->c = NULL;
    out->n = 0;
    if (pairs < 1 || W < 1 || v->text->nbytes == 0)
        return 0;
    const layout ly = layout_of(v);
    const size_t cur = ly.cur, end = ly.end;
    wchar_at *buf = malloc((size_t)W * sizeof *buf);
    rowlist rows = {0}, before = {0};
    out->c = malloc((size_t)pairs * (size_t)W * sizeof *out->c);
    if (!buf || !out->c)
        goto fail;
    /* the rows from the anchor up to the cursor's */
    size_t a = ly.anchor(v, cur), off = a;
    long s = (long)step_of_offset(v, a);
    int n;
    for (;;) {
        if (push(&rows, off, s) < 0)
            goto fail;
        size_t next = ly.wrap(v, W, off, end, &s, buf, &n);
        if (next > cur || next >= end)
            break;
        off = next;
    }
    /* the row shown at the top, counted from the first in rows (negative: before it) */
    long first = (long)rows.n - 1 - (pairs / 2 - v->ui->strip_scroll);
    while (first < 0 && a > 0) { /* the lines before the anchor, as far as they show */
        size_t a0 = ly.anchor(v, a - 1);
        before.n = 0;
        if (rows_between(v, &ly, W, a0, a, buf, &before) < 0)
            goto fail;
        for (size_t i = 0; i < rows.n; i++) /* rows after them */
            if (push(&before, rows.r[i].off, rows.r[i].step) < 0)
                goto fail;
        rowlist x = rows;
        rows = before;
        before = x;
        first += (long)(rows.n - before.n); /* the rows added */
        a = a0;
    }
    /* lay out the shown rows from the top one (blank rows above the text's start) */
    int row = 0;
    if (first < 0) {
        row = (int)(-first < pairs ? -first : pairs);
        first = 0;
    }
    if ((size_t)first < rows.n) {
        off = rows.r[first].off;
        s = rows.r[first].step;
    } else { /* scrolled on past the cursor's row: wrap on from it */
        off = rows.r[rows.n - 1].off;
        s = rows.r[rows.n - 1].step;
        for (long skip = first - (long)rows.n + 1; skip > 0 && off < end; skip--)
            off = ly.wrap(v, W, off, end, &s, buf, &n);
    }
    for (; row < pairs && off < end; row++) {
        off = ly.wrap(v, W, off, end, &s, buf, &n);
        for (int i = 0; i < n; i++)
            out->c[out->n++] = (gt_strip_cell){buf[i].off, buf[i].step, buf[i].cp, row,
                                               buf[i].col, buf[i].w, buf[i].decoded};
    }
    free(buf);
    free(rows.r);
    free(before.r);
    return 0;
fail:
    free(buf);
    free(rows.r);
    free(before.r);
    strip_rows_free(out);
    return -1;
}

void strip_rows_free(gt_strip_rows *r)
{
    free(r->c);
    r->c = NULL;
    r->n = 0;
}
