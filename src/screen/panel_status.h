/* The status line: the step, the keys that apply where the screen is, a message.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_STATUS_H
#define GATETUI_PANEL_STATUS_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_status(gt_surface *s, gt_rect r, const gt_view *v);

#endif
