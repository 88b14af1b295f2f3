/* The unit panel: the selected unit's gates, its cell and hidden state and its half-lives.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_UNIT_H
#define GATETUI_PANEL_UNIT_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_unit(gt_surface *s, gt_rect r, const gt_view *v);

#endif
