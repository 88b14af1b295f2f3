/* A sheet's state, and putting one over the panels (see sheet.h). */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "screen/draw_plot.h"
#include "screen/panel_frame.h"
#include "screen/sheet.h"

/* s's place in v's table, or -1. */
static int place(const gt_view *v, const gt_sheet *s)
{
    for (int i = 0; i < v->nsheets; i++)
        if (v->sheets[i] == s)
            return i;
    return -1;
}

void *sheet_data(const gt_view *v, const gt_sheet *s)
{
    int i = place(v, s);
    return i < 0 ? NULL : v->sheet_data[i];
}

void *sheet_ui(const gt_view *v, const gt_sheet *s)
{
    int i = place(v, s);
    return i < 0 ? NULL : v->ui->sheet_ui[i];
}

int sheet_up(const gt_view *v, const gt_sheet *s)
{
    return v->ui->sheet == s;
}

void sheet_set(gt_view *v, const gt_sheet *s)
{
    const gt_sheet *was = v->ui->sheet;
    v->ui->sheet = s;
    if (was != s && was && was->close)
        was->close(v);
    view_follow_stats(v); /* the report ended when nothing wants it any more */
    if (was != s && s && s->open)
        s->open(v);
}

void sheet_toggle(gt_view *v, const gt_sheet *s)
{
    sheet_set(v, sheet_up(v, s) ? NULL : s);
}

int sheet_scroll(int at, int d, int page, int max)
{
    long to = at + (long)(d == KEYS_PAGE ? page : d == -KEYS_PAGE ? -page : d);
    to = to > max ? max : to;
    return to < 0 ? 0 : (int)to;
}

gt_act sheet_close_key(gt_view *v, int arg)
{
    (void)arg;
    sheet_set(v, NULL);
    return ACT_REDRAW;
}

void sheet_progress(gt_surface *s, int x, int y, int w, const char *what, double done)
{
    int used = surf_text(s, x, y, w, R_NORMAL, what);
    int bw = w - used - 8 > 40 ? 40 : w - used - 8;
    if (bw > 4) {
        surf_text(s, x + used, y, 1, R_DIM, "[");
        plot_bar(s, x + used + 1, y, bw, done, R_PROGRESS);
        surf_text(s, x + used + 1 + bw, y, 1, R_DIM, "]");
    }
}

void sheet_text(gt_surface *s, int x, int y, int w, int h, const char *text, int from)
{
    char line[1024];
    const char *p = text;
    for (int i = 0; i < from && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    for (int r = 0; r < h && p && *p; r++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        surf_text(s, x, y + r, w, R_NORMAL, line);
        p = nl ? nl + 1 : NULL;
    }
}

/* The piece of the line [p, eol) that row takes in w columns (a first row, or the rest of
 * a line after the indent): into out; returns where the next row starts (eol: the line is
 * done). */
static const char *wrap_piece(const char *p, const char *eol, int w, char *out, size_t n)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%.*s", (int)(eol - p), p);
    if ((size_t)(eol - p) < sizeof tmp && surf_width(tmp) <= w) {
        snprintf(out, n, "%s", tmp);
        return eol;
    }
    /* the longest prefix that fits, by characters; then back to its last space */
    const char *q = p, *fit = p;
    while (q < eol) {
        const char *next = q + 1;
        while (next < eol && ((unsigned char)*next & 0xC0) == 0x80)
            next++;
        if ((size_t)(next - p) >= sizeof tmp)
            break;
        snprintf(tmp, sizeof tmp, "%.*s", (int)(next - p), p);
        if (surf_width(tmp) > w)
            break;
        fit = q = next;
    }
    const char *cut = fit;
    while (cut > p && cut[-1] != ' ' && *cut != ' ')
        cut--;
    if (cut == p || cut == fit) { /* no space to break at: the word is cut, the rest follows */
        cut = fit;
        if (cut == p) /* not even one character fits: it alone, whole */
            for (cut = p + 1; cut < eol && ((unsigned char)*cut & 0xC0) == 0x80; cut++)
                ;
    }
    const char *end = cut;
    while (end > p && end[-1] == ' ')
        end--;
    snprintf(out, n, "%.*s", (int)(end - p), p);
    while (cut < eol && *cut == ' ')
        cut++;
    return cut;
}

/* Each row of text wrapped in w columns, in turn, from its first: fn(ctx, row, indent, piece)
 * returns nonzero to stop. */
static void wrap_rows(const char *text, int w, int (*fn)(void *, int, int, const char *),
                      void *ctx)
{
    char piece[1024];
    int row = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n'), *eol = nl ? nl : p + strlen(p);
        int indent = 0;
        do {
            const int room = w - indent > 1 ? w - indent : 1;
            const char *next = wrap_piece(p, eol, room, piece, sizeof piece);
            if (fn(ctx, row++, indent, piece))
                return;
            p = next;
            indent = w > 2 * SHEET_WRAP_INDENT ? SHEET_WRAP_INDENT : 0;
        } while (p < eol);
        p = nl ? nl + 1 : NULL;
    }
}

static int count_row(void *ctx, int row, int indent, const char *piece)
{
    (void)indent;
    (void)piece;
    *(int *)ctx = row + 1;
    return 0;
}

int sheet_wrapped_rows(const char *text, int w)
{
    int rows = 0;
    wrap_rows(text ? text : "", w, count_row, &rows);
    return rows;
}

int sheet_text_width(gt_rect r)
{
    return r.w - (r.x > 0) - 1; /* panel_frame's inner columns, less the margin */
}

gt_rect sheet_rect(const gt_view *v)
{
    const gt_rect g = v->lay.r[P_GATES];
    return (gt_rect){g.x, g.y, v->lay.cols, g.h};
}

int sheet_text_rows_scroll(int at, int d, gt_rect r, const char *text)
{
    return sheet_text_scroll(at, d, r.h, sheet_wrapped_rows(text, sheet_text_width(r)));
}

typedef struct wrap_draw {
    gt_surface *s;
    int x, y, w, h, from;
} wrap_draw;

static int draw_row(void *ctx, int row, int indent, const char *piece)
{
    const wrap_draw *d = ctx;
    if (row < d->from)
        return 0;
    if (row - d->from >= d->h)
        return 1;
    surf_text(d->s, d->x + indent, d->y + row - d->from, d->w - indent, R_NORMAL, piece);
    return 0;
}

int sheet_text_scroll(int at, int d, int h, int lines)
{
    const int rows = h - 1, page = h - 2 > 1 ? h - 2 : 1;
    return sheet_scroll(at, d, page, lines - (rows > 1 ? rows : 1));
}

int sheet_save_scroll(int scroll, long *val)
{
    val[0] = scroll;
    return 1;
}

int sheet_load_check(const long *val, int n, int i, long lo, long hi, const char *what,
                     char *why, size_t len)
{
    if (i >= n || (val[i] >= lo && val[i] <= hi))
        return 0;
    snprintf(why, len, "state[%d] (%s) wants an integer from %ld to %ld", i, what, lo, hi);
    return -1;
}

int sheet_load_scroll(int *scroll, const long *val, int n, char *why, size_t len)
{
    if (sheet_load_check(val, n, 0, 0, 1L << 24, "the scroll", why, len))
        return -1;
    if (n > 0)
        *scroll = (int)val[0];
    return 0;
}

void sheet_draw_text(gt_surface *s, gt_rect r, const gt_textsheet *t)
{
    char note[160];
    const int rows = t->state == TEXT_KNOWN ? sheet_wrapped_rows(t->text, sheet_text_width(r))
                                            : 0;
    /* a scroll past the end (a session's, a resize's) shows the last page */
    const int last = rows - (r.h - 1) > 0 ? rows - (r.h - 1) : 0,
              scroll = t->scroll < last ? t->scroll : last;
    if (t->state == TEXT_KNOWN)
        snprintf(note, sizeof note, "%d-%d of %d  %s", scroll + 1,
                 scroll + r.h - 1 < rows ? scroll + r.h - 1 : rows, rows, t->note);
    else
        snprintf(note, sizeof note, "%s", t->note);
    gt_rect in;
    panel_frame(s, r, t->title, note, &in);
    const int x = in.x + 1, w = in.w - 1;
    if (t->state == TEXT_KNOWN) {
        wrap_draw d = {s, x, in.y, w, in.h, scroll};
        wrap_rows(t->text, w, draw_row, &d);
    } else if (t->state == TEXT_COMPUTING)
        sheet_progress(s, x, in.y + 1, w, t->say, t->done);
    else
        panel_wrap(s, x, in.y + 1, w, in.h - 1, t->state == TEXT_FAILED ? R_ERROR : R_DIM,
                   t->say);
}
