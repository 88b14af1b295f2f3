/* The mouse on the view: a click on a unit row selects the unit, a click on a character of
 * the text strip moves the cursor to its step, the wheel selects units over the panels and
 * steps over the strip (doc/screen.md). */
#ifndef GATETUI_KEYS_MOUSE_H
#define GATETUI_KEYS_MOUSE_H

#include "screen/key.h"
#include "screen/view.h"

/* What a mouse event (K_CLICK, K_WHEEL_UP, K_WHEEL_DOWN) does to v: a click acts at once;
 * the wheel is turned into *arrow (an arrow key, or K_NONE where it does nothing), which
 * the caller handles KEYS_WHEEL_STEPS times. */
#define KEYS_WHEEL_STEPS 3
gt_act keys_mouse(gt_view *v, const gt_key *k, gt_key *arrow);

/* The step of the character drawn at (x, y) of the text strip, or -1 where there is none. */
long keys_strip_step_at(const gt_view *v, int x, int y);

#endif
