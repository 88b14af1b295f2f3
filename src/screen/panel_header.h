/* The header: the model(s), the layer, the step and its character, the loss, the edits and
 * interventions in force.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_HEADER_H
#define GATETUI_PANEL_HEADER_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_header(gt_surface *s, gt_rect r, const gt_view *v);

#endif
