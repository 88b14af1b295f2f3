/* A word model's text strip (see draw_stripwords.h). */
#include "config.h"

#include <string.h>

#include "gatetui/utf8.h"
#include "screen/draw_stripwords.h"
#include "screen/draw_surface.h"

/* The width of token tok as the strip shows it (<eos> one cell, ↵). */
static int token_width(const gt_view *v, int tok)
{
    const gt_model *m = v->m;
    if (tok == m->tok_eos)
        return 1;
    const unsigned char *w = (const unsigned char *)m->vocab_word[tok];
    const size_t n = m->vocab_len[tok];
    int width = 0;
    for (size_t off = 0; off < n;) {
        uint32_t cp;
        char g[16];
        off += (size_t)utf8_decode(w + off, n - off, &cp);
        view_cp_glyph(v->utf8, 0, cp, g);
        width += surf_width(g);
    }
    return width;
}

/* Token tok of step s at column col of the row, its characters into c from k, as many as
 * fit before column W; returns the next k. */
static int put_token(const gt_view *v, int tok, size_t s, int col, int W, strip_char *c,
                     int k)
{
    const gt_model *m = v->m;
    const size_t off = text_step_offset(v->text, s);
    const unsigned char *w = (const unsigned char *)(tok == m->tok_eos ? "\n" : m->vocab_word[tok]);
    const size_t n = tok == m->tok_eos ? 1 : m->vocab_len[tok];
    for (size_t b = 0; b < n;) {
        uint32_t cp;
        char g[16];
        b += (size_t)utf8_decode(w + b, n - b, &cp);
        view_cp_glyph(v->utf8, 0, cp, g);
        const int cw = surf_width(g);
        if (col + cw > W)
            break; /* a token wider than the row: cut */
        c[k++] = (strip_char){off, (long)s, (long)s, cp, col, cw, 1};
        col += cw;
    }
    return k;
}

size_t stripwords_wrap(const gt_view *v, int W, size_t s, size_t limit, long *step,
                       strip_char *c, int *n)
{
    int k = 0, col = 0;
    const size_t first = s;
    while (s < limit) {
        if (s > first && s % STRIPWORDS_BLOCK == 0)
            break;
        const int tok = trace_token(v->tr, s), gap = s > first;
        if (s > first && col + gap + token_width(v, tok) > W)
            break; /* the token moves to the next row */
        col += gap;
        const int k0 = k;
        k = put_token(v, tok, s, col, W, c, k);
        for (int i = k0; i < k; i++)
            col += c[i].w;
        s++;
        if (tok == v->m->tok_eos)
            break;
    }
    *n = k;
    *step = (long)s;
    return s;
}

size_t stripwords_anchor(const gt_view *v, size_t s)
{
    const size_t b = s - s % STRIPWORDS_BLOCK;
    for (size_t p = s; p > b; p--)
        if (trace_token(v->tr, p - 1) == v->m->tok_eos)
            return p;
    return b;
}
