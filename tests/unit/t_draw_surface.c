/* The drawing surface's text: wide characters take two cells, combining marks join the
 * character before them, nothing is drawn past the width given, and surf_width agrees with
 * the columns surf_text uses. Needs a UTF-8 locale (C.UTF-8); skipped without one. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "screen/draw_surface.h"
#include "../lib/tap.h"

static const char *row(const gt_surface *s, int y)
{
    static char buf[1024];
    surf_row_text(s, y, buf, sizeof buf);
    return buf;
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8")) {
        printf("1..0 # SKIP no C.UTF-8 locale\n");
        return 0;
    }
    gt_surface s;
    if (surf_init(&s, 20, 4, 1)) {
        printf("Bail out! no memory\n");
        return 1;
    }
    const char *comb = "cafe\xcc\x81 x"; /* e + U+0301 COMBINING ACUTE ACCENT */
    int used = surf_text(&s, 0, 0, 20, R_NORMAL, comb);
    tap_ok(used == 6 && surf_width(comb) == 6, "a combining mark takes no column (%d, %d)", used,
           surf_width(comb));
    tap_ok(!strcmp(surf_cell(&s, 3, 0)->s, "e\xcc\x81") && !strcmp(surf_cell(&s, 4, 0)->s, " "),
           "the mark is in the cell of the e before it: '%s'", surf_cell(&s, 3, 0)->s);
    tap_ok(!strcmp(row(&s, 0), comb), "the row reads back as written");

    used = surf_text(&s, 0, 1, 20, R_NORMAL, "\xe6\xbc\xa2\xcc\x81z"); /* 漢 + U+0301, z */
    tap_ok(used == 3 && surf_cell(&s, 0, 1)->wide && !strcmp(surf_cell(&s, 2, 1)->s, "z"),
           "a mark after a wide character joins it; the next character is in column 2");

    used = surf_text(&s, 0, 2, 20, R_NORMAL, "\xcc\x81" "a");
    tap_ok(used == 2 && !strcmp(surf_cell(&s, 0, 2)->s, "?") && surf_width("\xcc\x81" "a") == 2,
           "a mark with nothing before it is a '?' of one column");

    /* a mark cannot make a cell overflow: two marks after a dotted circle fill its 8 bytes;
     * a third is dropped, and takes no column */
    const char *many = "\xe2\x97\x8c\xcc\x81\xcc\x81\xcc\x81z";
    used = surf_text(&s, 0, 3, 20, R_NORMAL, many);
    tap_ok(used == 2 && strlen(surf_cell(&s, 0, 3)->s) == 7 && !strcmp(surf_cell(&s, 1, 3)->s, "z") &&
               surf_width(many) == 2,
           "marks beyond a cell's room are dropped (%d columns)", used);

    surf_clear(&s);
    used = surf_text(&s, 15, 0, 3, R_NORMAL, "ab\xe6\xbc\xa2" "cd");
    tap_ok(used == 3 && !strcmp(surf_cell(&s, 17, 0)->s, " ") && !strcmp(surf_cell(&s, 18, 0)->s, " "),
           "a wide character that does not fit in the width given is a blank; nothing past it");

    gt_surface a;
    surf_init(&a, 8, 1, 0);
    used = surf_text(&a, 0, 0, 8, R_NORMAL, comb);
    tap_ok(used == 7 && !strcmp(row(&a, 0), "cafe? x"), "without Unicode glyphs the mark is a '?'");
    surf_free(&a);
    surf_free(&s);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
