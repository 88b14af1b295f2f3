/* The screen's keys as one table: each line's keys, where they apply, what handles them,
 * what they do and their hints on the status line. It is data and calls nothing: the
 * dispatch (keys_dispatch.c) gives each line's action its handler, the help box (?) and the
 * status line's hints are drawn from it (panel_status.c), and tests/t_keydoc holds
 * gatetui.1's KEYS and doc/screen.md's Keys to it (every key in the table is in both, and
 * they document no other). */
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

/* What a line's keys do: the dispatch's handler for each (keys_run.h). */
typedef enum gt_keyact {
    KA_NONE, /* handled before the table: Tab by the models, the mouse, ^Z by the terminal */
    KA_CLOSE_VIEW, KA_SCROLL_TABLES, KA_SCROLL_PROFILE, KA_PROFILE_GO, KA_DERIVATIVE_LAGS,
    KA_STEP, KA_PAGE, KA_ENDS, KA_SCROLL_TEXT, KA_MARK, KA_UNIT, KA_UNIT_ENDS, KA_SORT,
    KA_LAYER, KA_COLOUR, KA_GO_TO, KA_SEARCH, KA_FIND, KA_EDIT, KA_UNDO, KA_NEXT_EDIT,
    KA_HORIZON, KA_PERT_ALL, KA_RATIO_K, KA_DIFFERENCE, KA_WRITE, KA_REPORT, KA_DERIVATIVE, KA_BIAS, KA_ABLATE,
    KA_CLEAR_INTERVENTIONS, KA_EXPORT, KA_FIGURE, KA_ESCAPE, KA_REDRAW, KA_HELP_OPEN, KA_QUIT,
    KA_UNITS_OPEN, KA_UNITS_TABLE, KA_STATS_MODELS,
    KA_COUNT
} gt_keyact;

/* Where the status line is: each has its own hints, in its own order. */
typedef enum gt_hintctx {
    HINT_PANELS,  /* the panels, no edit yet */
    HINT_EDITED,  /* the panels after an edit: the keys of an edit first */
    HINT_STATS,   /* the report's tables over the panels */
    HINT_PROFILE, /* the profile over the panels */
    HINT_SELECT,  /* a stretch being selected (v) */
    HINT_DERIV,   /* the derivative over the panels */
    HINT_UNITS,   /* the unit table over the panels */
    HINT_MODELS,  /* the report's tables of several models: the table comparing them */
    HINT_COUNT
} gt_hintctx;

/* One hint of the status line: its keys, what they do, and its place in each context. */
typedef struct gt_keyhint {
    const char *key;   /* NULL: none */
    const char *ascii; /* key without Unicode glyphs (NULL: key) */
    const char *what;
    const char *on;    /* what instead while the difference view is on (NULL: what) */
    int layers;        /* only with more than one layer */
    unsigned char at[HINT_COUNT]; /* its place in each context's hints, from 1; 0: not there */
} gt_keyhint;

#define KEYS_HINTS 2 /* hints per line */
#define KEYS_HINTS_MAX 24 /* hints in one context */

typedef struct gt_keys_table {
    const char *keys; /* as the help box shows them ("^B" for Ctrl-B); "": a line of what the
                       * screen shows; NULL: keys that mean something else in a view over
                       * the panels (its line of the help says so) */
    const char *what;
    int doc_only;     /* documented, not listed in the help box */
    unsigned where;   /* KEY_*: where the keys apply */
    gt_keyact act;    /* what they do */
    const char *chars, *ctrl; /* the characters that are its keys, alone and with Ctrl */
    gt_keysym sym[4]; /* its other keys (K_NONE ends them) */
    gt_keyhint hint[KEYS_HINTS];
} gt_keys_table;

/* The table (*out) and its number of lines. */
int keys_help(const gt_keys_table **out);
/* The hints of context c in their order into out (at most KEYS_HINTS_MAX); their number. */
int keys_hints(gt_hintctx c, const gt_keyhint **out);

#endif
