/* The help box (?): every line of the key table that has keys (keys_help_lines: the
 * panels' and the sheets'), wrapped to the box, drawn over the whole frame; the arrows,
 * k j, PgUp PgDn and the wheel scroll it, any other key closes it (its input,
 * INPUT_HELP). */
#ifndef GATETUI_HELP_H
#define GATETUI_HELP_H

#include "screen/draw_surface.h"
#include "screen/key.h"
#include "screen/view.h"

/* A key while the help is up. */
gt_act help_key(gt_view *v, const gt_key *k);
/* The help box over s, from its line v->ui->help_scroll. */
void help_draw(gt_surface *s, const gt_view *v);

#endif
