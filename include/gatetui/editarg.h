/* An edit as the command line gives it (doc/usage.md, "Steps"): S:C, the step S of the text
 * (counted from 0 over the in-vocabulary characters) and the one character C of the model's
 * vocabulary put there; for a word model (SPEC section 27) S:W, a token W of its vocabulary
 * ("<eos>" among them). */
#ifndef GATETUI_EDITARG_H
#define GATETUI_EDITARG_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

/* The step and C's token of m; GT_EINPUT with one line naming what is wrong (no colon, not
 * one character after it, a step past the text's steps, a character not in m's
 * vocabulary). */
int editarg_parse(const gt_model *m, const char *arg, size_t steps, size_t *step, int *tok,
                  gt_error *e);

#endif
