/* The screen's keys as one table: each line's keys, where they apply, what handles them and
 * what they do. keys_handle dispatches from it, the help box (?) is drawn from it, and
 * tests/t_keydoc holds gatetui.1's KEYS and doc/screen.md's Keys to it (every key in the
 * table is in both, and they document no other). */
#ifndef GATETUI_KEYS_TABLE_H
#define GATETUI_KEYS_TABLE_H

#include "screen/keys.h"

/* Where a line's keys apply: the panels, or one of the views over them (gt_overlay). */
#define KEY_PANELS (1u << OVERLAY_NONE)
#define KEY_STATS (1u << OVERLAY_STATS)
#define KEY_PROFILE (1u << OVERLAY_PROFILE)
#define KEY_JACOBIAN (1u << OVERLAY_JACOBIAN)
#define KEY_UNITS (1u << OVERLAY_UNITS)
#define KEY_VIEWS (KEY_STATS | KEY_PROFILE | KEY_JACOBIAN | KEY_UNITS)
#define KEY_ALL (KEY_PANELS | KEY_VIEWS)

typedef gt_act (*gt_keyrun)(gt_view *v, const gt_key *k);

typedef struct gt_keys_table {
    const char *keys; /* as the help box shows them ("^B" for Ctrl-B); "": a line of what the
                       * screen shows; NULL: keys that mean something else in a view over
                       * the panels (its line of the help says so) */
    const char *what;
    int doc_only;     /* documented, not listed in the help box */
    unsigned where;   /* KEY_*: where the keys apply */
    gt_keyrun run;    /* what they do; NULL: handled before the table (Tab by the models,
                       * the mouse, ^Z by the terminal) */
    const char *chars, *ctrl; /* the characters that are its keys, alone and with Ctrl */
    gt_keysym sym[4]; /* its other keys (K_NONE ends them) */
} gt_keys_table;

/* The table (*out) and its number of lines. */
int keys_help(const gt_keys_table **out);

#endif
