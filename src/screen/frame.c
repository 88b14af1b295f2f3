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

static void too_small(gt_surface *s)
{
    char l2[64];
    snprintf(l2, sizeof l2, "%dx%d: gatetui needs %dx%d", s->w, s->h, LAYOUT_MIN_COLS,
             LAYOUT_MIN_ROWS);
    const char *lines[3] = {"terminal too small", l2, "q quits"};
    int y0 = s->h / 2 - 1;
    for (int i = 0; i < 3; i++) {
        int w = surf_width(lines[i]);
        int x = s->w > w ? (s->w - w) / 2 : 0;
        surf_text(s, x, y0 + i, s->w - x, i == 0 ? R_ERROR : R_NORMAL, lines[i]);
    }
}

void frame_draw(gt_surface *s, const gt_view *v)
{
    surf_clear(s);
    if (v->lay.too_small) {
        too_small(s);
        return;
    }
    panel_header(s, v->lay.r[P_HEADER], v);
    panel_strip(s, v->lay.r[P_STRIP], v);
    gt_rect g = v->lay.r[P_GATES], body = {g.x, g.y, v->lay.cols, g.h};
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
