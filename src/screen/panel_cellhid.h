/* The cell-against-hidden panel: c and h (or a GRU's h and n, an RNN's a and h) unit by unit.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_CELLHID_H
#define GATETUI_PANEL_CELLHID_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_cellhid(gt_surface *s, gt_rect r, const gt_view *v);

#endif
