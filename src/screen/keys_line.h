/* A line of the key table (keys_table.c has the panels' lines, each sheet its own,
 * sheet.h): its keys, each bound to the line's handler with an argument, so that no handler
 * tests again which key it was; what it does, as the help box lists it. And how the screen
 * names keys (gt_keyname) in the status line's hints and in the panels' notes: the names of
 * the panels' keys are here, data calling nothing, so that a panel names a key without
 * reaching the handlers; tests/unit/t_keydoc holds every name to the keys its line binds. */
#ifndef GATETUI_KEYS_LINE_H
#define GATETUI_KEYS_LINE_H

#include <stdint.h>

#include "screen/key.h"

struct gt_view;

/* A handler: the view and the argument of the key pressed. */
typedef gt_act (*gt_keyrun)(struct gt_view *v, int arg);

/* An argument: a page (of rows, of units) on; -KEYS_PAGE: a page back. */
#define KEYS_PAGE 1000000

/* A key a line binds, and its argument. */
typedef struct gt_keybind {
    gt_keysym sym;          /* K_NONE ends a line's keys */
    uint32_t cp;            /* K_CHAR: the character */
    unsigned char ctrl;     /* K_CHAR: with Ctrl */
    unsigned char shift;    /* another key: only with Shift (without: with it or not) */
    int arg;
} gt_keybind;

#define KB_CHAR(c, a) {K_CHAR, (c), 0, 0, (a)}
#define KB_CTRL(c, a) {K_CHAR, (c), 1, 0, (a)}
#define KB_SYM(s, a) {(s), 0, 0, 0, (a)}
#define KB_SHIFT(s, a) {(s), 0, 0, 1, (a)}

/* How the screen names a key, or a line's keys together ("↑↓", "PgUp/Dn", "r Esc"). */
typedef struct gt_keyname {
    gt_keybind of;         /* the key it stands for: its words name keys that the line
                            * bound to this key binds too (tests/unit/t_keydoc) */
    const char *text;      /* with Unicode glyphs */
    const char *ascii;     /* without them (NULL: text) */
    int layers;            /* hinted only for a model of more than one layer */
} gt_keyname;

/* A hint of the status line: a key's name, what it does there, and what instead while the
 * difference is on (NULL: the same). A list of them ends with a NULL name. */
typedef struct gt_hint {
    const gt_keyname *name;
    const char *what, *on;
} gt_hint;

#define KEYS_BINDS 12

typedef struct gt_keyline {
    const char *keys; /* as the help box lists them ("^B" for Ctrl-B); "": a line of what the
                       * screen shows; NULL: not in the help box (a sheet's own keys) */
    const char *what;
    int doc_only;     /* documented, not listed in the help box */
    int here;         /* a sheet's line that applies only while the sheet is up (so do its
                       * lines without keys) */
    gt_keyrun run;    /* NULL: its keys are taken before the table (Tab by the models, the
                       * mouse, ^Z by the terminal) */
    gt_keybind bind[KEYS_BINDS];
} gt_keyline;

/* The names of the panels' keys (keys_names[KN_...]). */
enum {
    KN_STEP, KN_PAGE, KN_UNIT, KN_UNIT_NOTE, KN_SORT, KN_LAYER, KN_COLOUR, KN_COLOUR_MORE,
    KN_GOTO, KN_SEARCH, KN_MATCH, KN_SELECT, KN_SIGNAL, KN_EDIT, KN_UNDO, KN_HORIZON,
    KN_DIFF, KN_WRITE, KN_EXPORT, KN_MODEL, KN_CANCEL, KN_HELP, KN_QUIT, KN_EFFECT,
    KN_CARRIERS, KN_PIN, KN_COUNT
};
extern const gt_keyname keys_names[KN_COUNT];

/* The name as a surface shows it: with Unicode glyphs or not. */
const char *keys_name_text(const gt_keyname *n, int utf8);
/* The binding of k in l, or NULL: the same key, a character with Ctrl or not as bound;
 * with exact, Shift as bound too, else a key bound without Shift also with it. */
const gt_keybind *keys_line_bind(const gt_keyline *l, const gt_key *k, int exact);

#endif
