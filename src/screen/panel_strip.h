/* The text strip: the characters (or tokens) around the step, the cursor on the step, the
 * edited positions marked.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_STRIP_H
#define GATETUI_PANEL_STRIP_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_strip(gt_surface *s, gt_rect r, const gt_view *v);

#endif
