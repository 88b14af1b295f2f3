/* A whole frame: the header, the strip, the panels or the sheet over them (sheet.h), the
 * status line, or a "too small" notice; and the help box over it all. */
#ifndef GATETUI_FRAME_H
#define GATETUI_FRAME_H

#include "screen/draw_surface.h"
#include "screen/view.h"

/* Draws the frame of v (prepared for s's size) into s. */
void frame_draw(gt_surface *s, const gt_view *v);

#endif
