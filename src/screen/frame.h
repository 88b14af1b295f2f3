/* A whole frame: the layout's panels, or a "too small" notice, and the help over them. */
#ifndef GATETUI_FRAME_H
#define GATETUI_FRAME_H

#include "screen/draw_surface.h"
#include "screen/view.h"

/* Draws the frame of v (prepared for s's size) into s. */
void frame_draw(gt_surface *s, const gt_view *v);

#endif
