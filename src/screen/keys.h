/* Keys turned into actions on the view: the main loop's half that knows no terminal
 * (keys.c). */
#ifndef GATETUI_KEYS_H
#define GATETUI_KEYS_H

#include "screen/key.h"
#include "screen/models.h"
#include "screen/view.h"

/* What key k does to v: the help, a prompt or the key after o, M or ' take it first
 * (gt_shared.input), the mouse acts on what is under it, any other key runs its line of the
 * key table where the screen is (keys_table.h). */
gt_act keys_handle(gt_view *v, const gt_key *k);
/* The same for the model shown, Tab and Shift-Tab switching models; every other model then
 * gets the same edits (models_sync). */
gt_act keys_handle_models(gt_models *ms, const gt_key *k);

#endif
