/* The gates panel: every unit's gate values at the step as a row of cells.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_GATES_H
#define GATETUI_PANEL_GATES_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_gates(gt_surface *s, gt_rect r, const gt_view *v);

#endif
