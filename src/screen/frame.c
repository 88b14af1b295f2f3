/* Drawing a whole frame (see frame.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/frame.h"
#include "screen/help.h"
#include "screen/panel_cellhid.h"
#include "screen/panel_frame.h"
#include "screen/panel_gates.h"
#include "screen/panel_header.h"
#include "screen/panel_perturb.h"
#include "screen/panel_status.h"
#include "screen/panel_strip.h"
#include "screen/panel_unit.h"
#include "screen/sheet.h"

/* msg's words in lines of at most w columns (a line break in msg starts a new one), centred
 * from row y0 on, the first max of them drawn; how many lines it takes, or w + h + 1 when a
 * word is wider than w. */
static int wrap_words(gt_surface *s, const char *msg, int w, int y0, int max)
{
    char line[128];
    int n = 0;
    for (const char *p = msg; *p;) {
        size_t len = 0;
        for (;;) { /* the words that fit after those taken, up to a line break */
            const size_t word = strcspn(p, " \n");
            if ((int)word > w || len + 1 + word >= sizeof line)
                return w + s->h + 1;
            if (len && (int)(len + 1 + word) > w)
                break;
            if (len)
                line[len++] = ' ';
            memcpy(line + len, p, word);
            len += word;
            p += word;
            p += strspn(p, " ");
            if (!*p || *p == '\n')
                break;
        }
        line[len] = 0;
        if (*p == '\n')
            p++;
        if (n < max) {
            const int lw = surf_width(line), x = w > lw ? (w - lw) / 2 : 0;
            surf_text(s, x, y0 + n, w - x, n == 0 ? R_ERROR : R_NORMAL, line);
        }
        n++;
    }
    return n;
}

/* "terminal too small", the size and the least, and q (once q was pressed with edits not
 * written: that q again quits): in whole words where the screen has room for them, a
 * shorter form below that, cut only where no word fits. */
static void too_small(gt_surface *s, int asked)
{
    char full[160], terse[96];
    const char *q = asked ? "edits not written: q again quits" : "q quits";
    snprintf(full, sizeof full, "terminal too small\n%dx%d: gatetui needs %dx%d\n%s", s->w,
             s->h, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, q);
    snprintf(terse, sizeof terse, "too small: %dx%d, needs %dx%d; %s", s->w, s->h,
             LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, asked ? "q again quits" : "q quits");
    const char *msg = full;
    int n = wrap_words(s, full, s->w, 0, 0);
    if (n > s->h) {
        msg = terse;
        n = wrap_words(s, terse, s->w, 0, 0);
    }
    if (n > s->h) { /* not even that: the lines as they are, cut at the edge */
        const char *lines[3] = {"terminal too small", "gatetui needs more room",
                                asked ? "q again quits" : "q quits"};
        for (int i = 0; i < 3 && i < s->h; i++)
            surf_text(s, 0, i, s->w, i == 0 ? R_ERROR : R_NORMAL, lines[i]);
        return;
    }
    wrap_words(s, msg, s->w, (s->h - n + 1) / 2, n); /* three lines from row h/2 - 1 */
}

void frame_draw(gt_surface *s, const gt_view *v)
{
    surf_clear(s);
    if (v->lay.too_small) {
        too_small(s, v->ui->quit_asked);
        return;
    }
    panel_header(s, v->lay.r[P_HEADER], v);
    panel_strip(s, v->lay.r[P_STRIP], v);
    const gt_rect body = sheet_rect(v);
    const gt_sheet *up = v->ui->sheet;
    if (up) { /* a sheet covers the panels below the strip */
        up->draw(s, body, v);
    } else {
        panel_gates(s, v->lay.r[P_GATES], v);
        if (v->lay.r[P_CELLHID].h > 0)
            panel_cellhid(s, v->lay.r[P_CELLHID], v);
        panel_unit(s, v->lay.r[P_UNIT], v);
        panel_perturb(s, v->lay.r[P_PERTURB], v);
    }
    panel_status(s, v->lay.r[P_STATUS], v);
    if (v->ui->input == INPUT_HELP)
        help_draw(s, v);
}
