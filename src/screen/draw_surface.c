/* The character grid the panels draw into (see draw_surface.h). */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "gatetui/utf8.h"
#include "screen/draw_surface.h"

int surf_init(gt_surface *s, int w, int h, int utf8)
{
    memset(s, 0, sizeof *s);
    if (w < 0)
        w = 0;
    if (h < 0)
        h = 0;
    s->w = w;
    s->h = h;
    s->utf8 = utf8;
    s->cells = calloc((size_t)w * (size_t)h + 1, sizeof *s->cells);
    if (!s->cells)
        return -1;
    surf_clear(s);
    return 0;
}

void surf_free(gt_surface *s)
{
    free(s->cells);
    memset(s, 0, sizeof *s);
}

void surf_clear(gt_surface *s)
{
    s->nclips = 0;
    size_t n = (size_t)s->w * (size_t)s->h;
    for (size_t i = 0; i < n; i++) {
        s->cells[i].s[0] = ' ';
        s->cells[i].s[1] = 0;
        s->cells[i].role = R_NORMAL;
        s->cells[i].wide = 0;
    }
}

/* Columns of code point cp on screen: 1 or 2, or 0 when it cannot be shown as is. */
static int cp_width(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7F)
        return 0;
    if (cp < 0x7F)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w == 1 || w == 2 ? w : 0;
}

/* Whether code point cp takes no column of its own (a combining mark). */
static int joins(uint32_t cp)
{
    return cp >= 0x300 && cp != UTF8_INVALID && wcwidth((wchar_t)cp) == 0;
}

/* Blanks a cell, first undoing a wide character it is part of. */
static void blank(gt_surface *s, int x, int y)
{
    gt_cell *c = surf_cell(s, x, y);
    if (c->wide && x + 1 < s->w)
        strcpy(surf_cell(s, x + 1, y)->s, " ");
    if (!c->s[0] && x > 0) {
        gt_cell *p = surf_cell(s, x - 1, y);
        strcpy(p->s, " ");
        p->wide = 0;
    }
    strcpy(c->s, " ");
    c->wide = 0;
}

/* Notes text cut at column col of row y: the last bytes drawn (text up to p) and the first
 * left out (from p on). */
static void clip_note(gt_surface *s, int col, int y, const char *text, const char *p)
{
    if (s->nclips++ >= SURF_CLIPS)
        return;
    gt_clip *c = &s->clips[s->nclips - 1];
    size_t done = (size_t)(p - text), keep = sizeof c->drawn - 1;
    const char *from = done > keep ? p - keep : text;
    while (from > text && from < p && ((unsigned char)*from & 0xC0) == 0x80)
        from++; /* whole characters */
    c->x = col;
    c->y = y;
    snprintf(c->drawn, sizeof c->drawn, "%.*s", (int)(p - from), from);
    snprintf(c->dropped, sizeof c->dropped, "%s", p);
}

int surf_text(gt_surface *s, int x, int y, int maxw, gt_role role, const char *text)
{
    if (y < 0 || y >= s->h)
        return 0;
    int end = x + maxw < s->w ? x + maxw : s->w;
    int col = x;
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text);
    while (n && col < end) {
        uint32_t cp;
        int len = utf8_decode(p, n, &cp);
        int w = cp == UTF8_INVALID || (!s->utf8 && cp >= 0x80) ? 0 : cp_width(cp);
        if (w == 0 && s->utf8 && col > x && col > 0 && joins(cp)) {
            /* a combining mark joins the character drawn before it (dropped when the
             * cell has no room left: it takes no column either way) */
            gt_cell *c = surf_cell(s, col - 1, y);
            if (!c->s[0] && col > 1)
                c = surf_cell(s, col - 2, y); /* the second half of a wide character */
            size_t have = strlen(c->s);
            if (have + (size_t)len < sizeof c->s) {
                memcpy(c->s + have, p, (size_t)len);
                c->s[have + (size_t)len] = 0;
            }
            p += len;
            n -= (size_t)len;
            continue;
        }
        if (w == 2 && col + 1 >= end)
            w = 0, cp = ' '; /* no room for a wide character: a blank */
        if (col >= 0) {
            blank(s, col, y);
            if (w == 2)
                blank(s, col + 1, y);
            gt_cell *c = surf_cell(s, col, y);
            if (w == 0) {
                strcpy(c->s, cp == ' ' ? " " : "?");
                w = 1;
            } else {
                memcpy(c->s, p, (size_t)len);
                c->s[len] = 0;
            }
            c->role = (unsigned char)role;
            if (w == 2) {
                c->wide = 1;
                gt_cell *c2 = surf_cell(s, col + 1, y);
                c2->s[0] = 0;
                c2->role = (unsigned char)role;
            }
        } else if (w == 0) {
            w = 1;
        }
        col += w;
        p += len;
        n -= (size_t)len;
    }
    if (n)
        clip_note(s, col, y, text, (const char *)p);
    return col - x;
}

int surf_printf(gt_surface *s, int x, int y, int maxw, gt_role role, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return surf_text(s, x, y, maxw, role, buf);
}

void surf_put(gt_surface *s, int x, int y, gt_role role, const char *glyph)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h)
        return;
    blank(s, x, y);
    gt_cell *c = surf_cell(s, x, y);
    size_t len = strlen(glyph);
    if (len >= sizeof c->s)
        len = sizeof c->s - 1;
    memcpy(c->s, glyph, len);
    c->s[len] = 0;
    c->role = (unsigned char)role;
}

void surf_fill(gt_surface *s, gt_rect r, gt_role role, const char *glyph)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            surf_put(s, x, y, role, glyph);
}

int surf_width(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text);
    int w = 0;
    while (n) {
        uint32_t cp;
        int len = utf8_decode(p, n, &cp);
        int cw = cp == UTF8_INVALID ? 0 : cp_width(cp);
        w += cw ? cw : w && joins(cp) ? 0 : 1;
        p += len;
        n -= (size_t)len;
    }
    return w;
}

size_t surf_row_text(const gt_surface *s, int y, char *buf, size_t n)
{
    size_t k = 0, keep = 0;
    if (!n)
        return 0;
    for (int x = 0; x < s->w; x++) {
        const char *g = surf_cell(s, x, y)->s;
        size_t len = strlen(g);
        if (k + len + 1 > n)
            break;
        memcpy(buf + k, g, len);
        k += len;
        if (len && strcmp(g, " ") != 0)
            keep = k;
    }
    buf[keep] = 0;
    return keep;
}

int surf_write(const gt_surface *s, FILE *f)
{
    size_t n = (size_t)s->w * 8 + 1;
    char *row = malloc(n);
    if (!row)
        return -1;
    for (int y = 0; y < s->h; y++) {
        size_t len = surf_row_text(s, y, row, n);
        fwrite(row, 1, len, f);
        fputc('\n', f);
    }
    free(row);
    return ferror(f) ? -1 : 0;
}
