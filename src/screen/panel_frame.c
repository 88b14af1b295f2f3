/* What the panels share: the title rule and the names of characters. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/steptext.h"
#include "gatetui/utf8.h"
#include "screen/panel_frame.h"

void panel_frame(gt_surface *s, gt_rect r, const char *title, const char *note, gt_rect *inner)
{
    const char *rule = s->utf8 ? "─" : "-";
    int left = r.x > 0; /* a right-hand panel: a rule down its left edge */
    for (int x = r.x; x < r.x + r.w; x++)
        surf_put(s, x, r.y, R_DIM, rule);
    if (left) {
        surf_put(s, r.x, r.y, R_DIM, s->utf8 ? "┬" : "+");
        for (int y = r.y + 1; y < r.y + r.h; y++)
            surf_put(s, r.x, y, R_DIM, s->utf8 ? "│" : "|");
    }
    int tx = r.x + left + 1, end = r.x + r.w;
    int used = 0;
    if (title && *title && tx < end) {
        char buf[512];
        snprintf(buf, sizeof buf, " %s ", title);
        used = surf_text(s, tx, r.y, end - tx, R_TITLE, buf);
    }
    if (note && *note) {
        /* the note's parts (apart by two spaces: "1-17 of 36  ↑↓ scroll  p closes") from the
           first on, as many as fit beside the title: the place kept where the keys cannot be */
        char buf[512];
        snprintf(buf, sizeof buf, " %s ", note);
        for (;;) {
            int w = surf_width(buf);
            int nx = end - 1 - w;
            if (nx > tx + used) {
                surf_text(s, nx, r.y, w, R_DIM, buf);
                break;
            }
            char *cut = NULL;
            for (char *p = strstr(buf + 1, "  "); p; p = strstr(p + 1, "  "))
                if (p[2] && p[2] != ' ')
                    cut = p;
            if (!cut)
                break;
            strcpy(cut, " ");
        }
    }
    if (inner)
        *inner = (gt_rect){r.x + left, r.y + 1, r.w - left, r.h - 1};
}

int panel_frame_fits(gt_rect r, const char *title, const char *note)
{
    const int left = r.x > 0, room = r.w - left - 5; /* the rules and blanks around them */
    return surf_width(title) + (note && *note ? surf_width(note) + 2 : 0) <= room;
}

int panel_fields(gt_surface *s, int x, int y, int w, gt_role role, const char *const *fields,
                 int n, int widest)
{
    for (int gap = widest; gap >= 1; gap--) {
        int used = 0, fit = 0;
        for (; fit < n; fit++) {
            int need = (fit ? gap : 0) + surf_width(fields[fit]);
            if (used + need > w)
                break;
            used += need;
        }
        if (fit < n && gap > 1)
            continue; /* not all with two spaces: try one */
        int cx = x;
        for (int i = 0; i < fit; i++)
            cx += surf_text(s, cx + (i ? gap : 0), y, w, role, fields[i]) + (i ? gap : 0);
        return cx - x;
    }
    return 0;
}

void panel_char_name(const gt_view *v, int tok, char *buf, size_t n)
{
    steptext_name(v->m, tok, v->utf8 ? STEPTEXT_TERMINAL : STEPTEXT_ASCII, buf, n);
}

int panel_line(gt_surface *s, int x, int y, int w, gt_role role, const char *text)
{
    if (w < 1)
        return 0;
    if (surf_width(text) <= w)
        return surf_text(s, x, y, w, role, text);
    /* the longest run of whole items (up to a comma, a semicolon or a colon) that leaves
       room for " …" after it, else of whole words: a number is not parted from its name */
    char head[512];
    size_t keep = 0, item = 0;
    for (const char *sp = strchr(text, ' '); sp; sp = strchr(sp + 1, ' ')) {
        size_t len = (size_t)(sp - text);
        if (len >= sizeof head)
            break;
        snprintf(head, sizeof head, "%.*s", (int)len, text);
        if (surf_width(head) + 2 > w)
            break;
        if (len && text[len - 1] != ' ')
            keep = len;
        /* an item ends at a word ending so; a word that is the mark alone (a key: "; changes
           the signal") ends none */
        if (len > 1 && strchr(",;:", text[len - 1]) && text[len - 2] != ' ')
            item = len;
    }
    if (item)
        keep = item;
    if (keep) {
        snprintf(head, sizeof head, "%.*s", (int)keep, text);
        int n = surf_text(s, x, y, w, role, head);
        return n + surf_text(s, x + n, y, 2, R_DIM, s->utf8 ? " …" : " ~");
    }
    /* one word (a name) wider than w: cut where it must */
    int n = surf_text(s, x, y, w - 1, role, text);
    return n + surf_text(s, x + n, y, 1, R_DIM, s->utf8 ? "…" : "~");
}

int panel_items(gt_surface *s, int x, int y, int w, gt_role role, const char *const *items,
                int n)
{
    const char *more = s->utf8 ? " …" : " ~";
    int used = 0, fit = 0, total = 0;
    for (int i = 0; i < n; i++)
        total += surf_width(items[i]);
    if (total <= w) {
        fit = n;
    } else {
        for (; fit < n && used + surf_width(items[fit]) + 2 <= w; fit++)
            used += surf_width(items[fit]);
    }
    used = 0;
    for (int i = 0; i < fit; i++)
        used += surf_text(s, x + used, y, w - used, role, items[i]);
    if (fit < n && fit > 0)
        used += surf_text(s, x + used, y, w - used, R_DIM, more);
    else if (fit < n) /* not even the first: its words that fit */
        used = panel_line(s, x, y, w, role, items[0] + strspn(items[0], " "));
    return used;
}

int panel_wrap(gt_surface *s, int x, int y, int w, int h, gt_role role, const char *text)
{
    int row = 0;
    const char *p = text;
    while (*p && row < h && w > 0) {
        while (*p == ' ')
            p++;
        /* the longest run of words that fits in w columns */
        const char *end = p, *q = p;
        while (*q) {
            while (*q && *q != ' ')
                q++;
            char tmp[512];
            snprintf(tmp, sizeof tmp, "%.*s", (int)(q - p), p);
            int need = surf_width(tmp);
            if (need > w && end != p)
                break;
            end = q;
            if (need > w)
                break;
            while (*q == ' ')
                q++;
        }
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(end - p), p);
        surf_text(s, x, y + row, w, role, line);
        row++;
        p = end;
    }
    return row;
}
