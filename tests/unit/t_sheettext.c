/* A text sheet's lines (src/screen/sheet.c, doc/screen.md "What it shows": a number is never
 * cut): a line wider than the sheet goes on in the next rows, broken at its spaces and
 * indented, a word wider than a row in pieces; the rows counted are the rows drawn, and
 * the scroll counts rows. Needs a UTF-8 locale (C.UTF-8); skipped without one. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "screen/draw_surface.h"
#include "screen/sheet.h"
#include "../lib/tap.h"

static const char *row(const gt_surface *s, int y)
{
    static char buf[1024];
    surf_row_text(s, y, buf, sizeof buf);
    return buf;
}

/* 1 when every row of s from y0 holds whole words of text only: each space-separated
 * token of a row is one of text's. */
static int whole_words(const gt_surface *s, int y0, const char *text)
{
    for (int y = y0; y < s->h; y++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", row(s, y));
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
            char pat[1100];
            snprintf(pat, sizeof pat, " %s ", w);
            char hay[1100];
            snprintf(hay, sizeof hay, " %s ", text);
            for (char *c = hay; *c; c++)
                if (*c == '\n')
                    *c = ' ';
            if (!strstr(hay, pat))
                return 0;
        }
    }
    return 1;
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8")) {
        printf("1..0 # SKIP no C.UTF-8 locale\n");
        return 0;
    }
    const char *text = "Effect over 11 windows, 1,309 predictions\n"
                       "inside 328 2.88251 3.06450 +0.18199\n"
                       "short\n";
    /* a sheet of 30 columns: 28 for the text (the rule's row on top, a margin) */
    gt_surface s;
    if (surf_init(&s, 30, 8, 1)) {
        printf("Bail out! no memory\n");
        return 1;
    }
    const gt_rect r = {0, 0, 30, 8};
    const int w = sheet_text_width(r);
    tap_ok(w == 29, "the text's columns: the sheet's less its margin (%d)", w);
    const int rows = sheet_wrapped_rows(text, 20);
    tap_ok(rows == 6, "three lines in 20 columns take 6 rows (%d)", rows);
    tap_ok(sheet_wrapped_rows(text, 200) == 3, "in 200 columns, 3 rows");
    tap_ok(sheet_wrapped_rows("", 20) == 0 && sheet_wrapped_rows(NULL, 20) == 0,
           "no text, no rows");

    gt_surface n;
    surf_init(&n, 21, 8, 1);
    gt_textsheet t = {"t", "", TEXT_KNOWN, NULL, 0, text, 0};
    sheet_draw_text(&n, (gt_rect){0, 0, 21, 8}, &t);
    tap_ok(!strcmp(row(&n, 1), " Effect over 11") && !strcmp(row(&n, 2), "     windows, 1,309") &&
               !strcmp(row(&n, 3), "     predictions"),
           "a line too wide: broken at its spaces, the rest indented");
    tap_ok(whole_words(&n, 1, text), "every number whole: each row's words are the text's");
    tap_ok(!strcmp(row(&n, 6), " short"), "the next line after the rows of the wrapped one");

    /* a sheet of 4 rows of text under its rule: 6 rows scroll by 2 at most */
    surf_clear(&n);
    t.scroll = 2;
    sheet_draw_text(&n, (gt_rect){0, 0, 21, 5}, &t);
    tap_ok(!strcmp(row(&n, 1), "     predictions"), "the scroll counts rows (%s)", row(&n, 1));
    tap_ok(strstr(row(&n, 0), "3-6 of 6") != NULL, "the note counts rows (%s)", row(&n, 0));
    surf_clear(&n);
    t.scroll = 1000; /* a session's, or before a resize: drawn as the last page */
    sheet_draw_text(&n, (gt_rect){0, 0, 21, 5}, &t);
    tap_ok(!strcmp(row(&n, 1), "     predictions") && strstr(row(&n, 0), "3-6 of 6") != NULL,
           "a scroll past the end: the last page (%s)", row(&n, 0));
    tap_ok(sheet_text_rows_scroll(1000, 1, (gt_rect){0, 0, 21, 5}, text) == 2 &&
               sheet_text_rows_scroll(0, 1, (gt_rect){0, 0, 21, 5}, text) == 1,
           "a key brings a scroll past the end back to the last page");

    /* a word wider than a row: in pieces, nothing lost */
    const char *longword = "x 123456789012345678901234567890";
    surf_clear(&n);
    t = (gt_textsheet){"t", "", TEXT_KNOWN, NULL, 0, longword, 0};
    sheet_draw_text(&n, (gt_rect){0, 0, 21, 8}, &t);
    char joined[256] = "";
    for (int y = 1; y < 8 && row(&n, y)[0]; y++) {
        const char *p = row(&n, y);
        while (*p == ' ')
            p++;
        strncat(joined, p, sizeof joined - strlen(joined) - 1);
    }
    tap_ok(!strcmp(joined, "x123456789012345678901234567890"),
           "a word wider than a row: its pieces in order, nothing lost (%s)", joined);
    surf_free(&n);
    surf_free(&s);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
