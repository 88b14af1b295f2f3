/* The --export mode: the frame of a step rendered without a terminal, as the screen would
 * show it, written to a file (doc/usage.md, "Exporting a frame"). */
#ifndef GATETUI_EXPORT_H
#define GATETUI_EXPORT_H

#include <stddef.h>

#include "gatetui/editarg.h"
#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/session.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "screen/models.h"

struct json_t;

/* What the screen modes are asked for on the command line. */
typedef struct gt_screen_opts {
    int layer;             /* -1: 0 */
    long step;             /* --export: the cursor's step */
    const gt_editsrc *edits; /* --edit S:C and --edits FILE, in order: made first */
    int nedits;
    const char *size;      /* --export: "COLSxROWS", or NULL for 120x40 */
    const char *file;      /* --export: the file, "-" for standard output */
    long steps;            /* the steps m, v and p search (--steps); <= 0: the default */
    int color;             /* the screen: colours allowed (NO_COLOR unset or empty) */
    int mouse;             /* the screen: the mouse's clicks and wheel (GATETUI_NOMOUSE unset) */
    const char *term;      /* the screen: TERM, or NULL */
    int threads;           /* GATETUI_THREADS: N >= 0 for the pass and the Jacobian, or -1:
                            * their own choice */
    const struct json_t *state; /* --session: the screen's state the file holds, or NULL */
    const char *state_file;     /* --session: that file (W writes it again), or NULL */
    int model;             /* --export: the model shown, from 0 (--model I: I - 1) */
} gt_screen_opts;

#define EXPORT_COLS 120
#define EXPORT_ROWS 40

/* The --export mode. */
int export_main(const gt_session *s, const gt_screen_opts *o, gt_error *e);

#endif
