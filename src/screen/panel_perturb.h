/* The perturbation panel: after an edit, how fast the difference between the two runs dies
 * away, measured against what the forget gate alone predicts, with the half-lives.
 * Draws rectangle r from a const view and changes nothing (doc/screen.md). */
#ifndef GATETUI_PANEL_PERTURB_H
#define GATETUI_PANEL_PERTURB_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

void panel_perturb(gt_surface *s, gt_rect r, const gt_view *v);

#endif
