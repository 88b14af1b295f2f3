/* Keys turned into actions on the view: the main loop's half that knows no terminal. */
#ifndef GATETUI_KEYS_H
#define GATETUI_KEYS_H

#include <stdint.h>

#include "screen/models.h"
#include "screen/view.h"

typedef enum gt_keysym {
    K_NONE,
    K_CHAR,     /* a character: cp */
    K_LEFT, K_RIGHT, K_UP, K_DOWN,
    K_PGUP, K_PGDN, K_HOME, K_END,
    K_ENTER, K_ESC, K_BACKSPACE, K_TAB,
    K_CLICK, K_WHEEL_UP, K_WHEEL_DOWN, /* the mouse at (x, y) */
} gt_keysym;

typedef struct gt_key {
    gt_keysym sym;
    uint32_t cp;   /* K_CHAR: the code point */
    int ctrl, shift;
    int x, y;      /* the mouse's cell, from 0 */
} gt_key;

typedef enum gt_act {
    ACT_NONE,     /* nothing changed */
    ACT_REDRAW,   /* the view changed */
    ACT_EXPORT,   /* write the frame on screen to a file */
    ACT_QUIT,
} gt_act;

gt_act keys_handle(gt_view *v, const gt_key *k);
/* The same for the model shown, Tab and Shift-Tab switching models; every other model then
 * gets the same edits (models_sync). */
gt_act keys_handle_models(gt_models *ms, const gt_key *k);

#endif
