/* A key as the screen reads it (the terminal layer turns libtermkey's keys into these:
 * src/term/ui.c), and what handling it asks of the main loop. Types only. */
#ifndef GATETUI_KEY_H
#define GATETUI_KEY_H

#include <stdint.h>

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
    ACT_EXPORT,   /* write the frame to a file once drawn and computed (gt_shared's
                   * export_wanted) */
    ACT_SESSION,  /* write the session to a file (keys_handle_models does, then redraws) */
    ACT_QUIT,
} gt_act;

#endif
