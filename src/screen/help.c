/* The help box (?; see help.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/help.h"
#include "screen/keys_table.h"

/* The help's text in ASCII: arrows and signs by name. */
static void help_ascii(const char *in, char *out, size_t n)
{
    /* the text marks as the strip draws them in ASCII (panel_strip.c) */
    static const char *const from[] = {"←", "→", "↑", "↓", "½", "Δ", "▲", "×", "‾", "═", "≡"};
    static const char *const to[] = {"Left", "Right", "Up", "Down", "1/2", "d", "^", "x", "-",
                                     "=", "#"};
    size_t k = 0;
    while (*in && k + 8 < n) {
        int hit = 0;
        for (size_t i = 0; i < sizeof from / sizeof from[0] && !hit; i++) {
            size_t len = strlen(from[i]);
            if (strncmp(in, from[i], len) == 0) {
                k += (size_t)snprintf(out + k, n - k, "%s", to[i]);
                in += len;
                hit = 1;
            }
        }
        if (!hit)
            out[k++] = *in++;
    }
    out[k] = 0;
}

#define HELP_ROWS 128

/* One row of the help box: a key (or "" under it) and a piece of what it does. */
typedef struct help_row {
    const char *key;
    char text[160];
    int legend;       /* a line of what the screen shows, across the box */
} help_row;

/* Breaks text into pieces of at most w columns at spaces (a word wider than w is cut);
 * returns the number of pieces written into rows (at most max). */
static int wrap_into(help_row *rows, int max, const char *key, const char *text, int w,
                     int legend)
{
    int n = 0;
    const char *p = text;
    do {
        char line[160] = "";
        size_t len = 0;
        const char *q = p;
        while (*q) {
            const char *e = q;
            while (*e && *e != ' ')
                e++;
            char tmp[160];
            snprintf(tmp, sizeof tmp, "%s%s%.*s", line, len ? " " : "", (int)(e - q), q);
            if (len && surf_width(tmp) > w)
                break;
            snprintf(line, sizeof line, "%s", tmp);
            len = strlen(line);
            q = *e ? e + 1 : e;
        }
        if (n < max) {
            rows[n].key = n == 0 ? key : "";
            rows[n].legend = legend;
            snprintf(rows[n].text, sizeof rows[n].text, "%s", line);
        }
        n++;
        p = q;
    } while (*p && n < max);
    return n < max ? n : max;
}

/* The help box on a surface of w x h: its size, the first row of keys, how many rows show,
 * the key column's width and the rows (wrapped to the box). Returns the number of rows. */
static int help_layout(const gt_view *v, int u, int w, int h, int *bw, int *bh, int *top,
                       int *shown, int *kw, help_row *rows)
{
    const gt_keyline *keys[HELP_ROWS];
    int n = keys_help_lines(v->sheets, v->nsheets, keys, HELP_ROWS), ww = 0;
    *kw = 0;
    for (int i = 0; i < n; i++) {
        char kb[64], wb[160];
        if (keys[i]->doc_only) /* documented, not in the box */
            continue;
        help_ascii(keys[i]->keys, kb, sizeof kb); /* the wider of the two forms */
        help_ascii(keys[i]->what, wb, sizeof wb);
        int a = surf_width(kb), b = surf_width(wb);
        *kw = a > *kw ? a : *kw;
        ww = b > ww ? b : ww;
    }
    *bw = *kw + ww + 7 < w ? *kw + ww + 7 : w;
    int tw = *bw - *kw - 6 > 8 ? *bw - *kw - 6 : 8, nr = 0;
    for (int i = 0; i < n && nr < HELP_ROWS; i++) {
        char kb[64], wb[160];
        if (keys[i]->doc_only)
            continue;
        if (u) {
            snprintf(kb, sizeof kb, "%s", keys[i]->keys);
            snprintf(wb, sizeof wb, "%s", keys[i]->what);
        } else {
            help_ascii(keys[i]->keys, kb, sizeof kb);
            help_ascii(keys[i]->what, wb, sizeof wb);
        }
        int legend = !kb[0];
        nr += wrap_into(rows + nr, HELP_ROWS - nr, keys[i]->keys, wb, legend ? *bw - 4 : tw,
                        legend);
    }
    *bh = nr + 4 < h ? nr + 4 : h;
    *top = *bh == nr + 4 ? 2 : 1; /* no blank row under the title when it does not fit */
    *shown = *bh - *top - 1 > 1 ? *bh - *top - 1 : 1;
    return nr;
}

/* The help's last useful scroll position on a w x h screen. */
static int scroll_max(const gt_view *v, int w, int h)
{
    help_row rows[HELP_ROWS];
    int bw, bh, top, shown, kw;
    int n = help_layout(v, 1, w, h, &bw, &bh, &top, &shown, &kw, rows);
    return n > shown ? n - shown : 0;
}

gt_act help_key(gt_view *v, const gt_key *k)
{
    int rows = v->lay.rows > 0 ? v->lay.rows : 24, cols = v->lay.cols > 0 ? v->lay.cols : 80;
    int max = scroll_max(v, cols, rows), d = 0, page = rows - 4 > 1 ? rows - 4 : 1;
    if (k->sym == K_UP || k->sym == K_WHEEL_UP || (k->sym == K_CHAR && !k->ctrl && k->cp == 'k'))
        d = -1;
    else if (k->sym == K_DOWN || k->sym == K_WHEEL_DOWN ||
             (k->sym == K_CHAR && !k->ctrl && k->cp == 'j'))
        d = 1;
    else if (k->sym == K_PGUP)
        d = -page;
    else if (k->sym == K_PGDN)
        d = page;
    if (!d) {
        v->ui->input = INPUT_KEYS;
        return k->sym == K_CHAR && k->ctrl && k->cp == 'c' ? ACT_QUIT : ACT_REDRAW;
    }
    int to = v->ui->help_scroll + d;
    v->ui->help_scroll = to < 0 ? 0 : to > max ? max : to;
    return ACT_REDRAW;
}

void help_draw(gt_surface *s, const gt_view *v)
{
    int u = s->utf8, scroll = v->ui->help_scroll;
    help_row rows[HELP_ROWS];
    int bw, bh, top, shown, kw;
    int n = help_layout(v, u, s->w, s->h, &bw, &bh, &top, &shown, &kw, rows);
    int max = n > shown ? n - shown : 0;
    scroll = scroll < 0 ? 0 : scroll > max ? max : scroll;
    int x0 = (s->w - bw) / 2, y0 = (s->h - bh) / 2;
    gt_rect box = {x0, y0, bw, bh};
    surf_fill(s, box, R_NORMAL, " ");
    const char *h = u ? "─" : "-", *vb = u ? "│" : "|";
    for (int x = x0; x < x0 + bw; x++) {
        surf_put(s, x, y0, R_TITLE, h);
        surf_put(s, x, y0 + bh - 1, R_TITLE, h);
    }
    for (int y = y0; y < y0 + bh; y++) {
        surf_put(s, x0, y, R_TITLE, vb);
        surf_put(s, x0 + bw - 1, y, R_TITLE, vb);
    }
    surf_put(s, x0, y0, R_TITLE, u ? "┌" : "+");
    surf_put(s, x0 + bw - 1, y0, R_TITLE, u ? "┐" : "+");
    surf_put(s, x0, y0 + bh - 1, R_TITLE, u ? "└" : "+");
    surf_put(s, x0 + bw - 1, y0 + bh - 1, R_TITLE, u ? "┘" : "+");
    surf_text(s, x0 + 2, y0, bw - 4, R_TITLE, " gatetui keys ");
    if (max) { /* where the list is, at the bottom right */
        char more[48];
        snprintf(more, sizeof more, " %d-%d of %d, %s scroll ", scroll + 1, scroll + shown, n,
                 u ? "↑↓" : "Up/Down");
        int mw = surf_width(more);
        surf_text(s, x0 + bw - 2 - mw, y0 + bh - 1, mw, R_DIM, more);
    }
    for (int i = 0; i < shown && scroll + i < n; i++) {
        const help_row *r = &rows[scroll + i];
        int y = y0 + top + i;
        if (r->legend) {
            surf_text(s, x0 + 2, y, bw - 4, R_DIM, r->text);
            continue;
        }
        char kb[64];
        if (u)
            snprintf(kb, sizeof kb, "%s", r->key);
        else
            help_ascii(r->key, kb, sizeof kb);
        surf_text(s, x0 + 2, y, kw, R_KEY, kb);
        surf_text(s, x0 + 4 + kw, y, bw - kw - 6, R_NORMAL, r->text);
    }
}
