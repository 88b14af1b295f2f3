/* The screen as a session file keeps it (doc/usage.md, "Sessions"): W writes the session
 * (gatetui/sessionfile.h: the models, the text, their options and interventions) with the
 * screen's state beside it, the "screen" object: the model shown, the step, the layer, the
 * unit, the order, the colour, the perturbation's K and what it compares, the edits, the
 * marks, the search, the hypothesis, the sheet up with its numbers, the pinned curves.
 * gatetui --session FILE puts a screen back as that object says, on the screen or for
 * --export. */
#ifndef GATETUI_SESSIONSTATE_H
#define GATETUI_SESSIONSTATE_H

#include <stddef.h>

#include "gatetui/error.h"
#include "screen/models.h"

struct json_t;

/* The screen ms was opened from the session file `file`: W writes it again, unless what it
 * holds changed since (its SHA-256 now). */
void sessionstate_own(gt_models *ms, const char *file);
/* Writes the session of the screen ms to its own file (ms->own_file, when it was opened
 * from one, and holds what it held when read or last written) or else to a new file of
 * the current directory, NAME.gatetui-session.json (then NAME-2..., never over another
 * file; NAME the text's); its name into out. */
int sessionstate_write(gt_models *ms, char *out, size_t n, gt_error *e);

/* Puts the screen ms (just opened on the session's models and text) as st says; GT_EINPUT
 * naming file and the entry that does not fit (an edit for another text, a unit past the
 * layer's, ...). The cursor is at ui.t, for the caller to go to (view_seek, or at once in
 * a batch mode). */
int sessionstate_restore(gt_models *ms, const struct json_t *st, const char *file,
                         gt_error *e);

#endif
