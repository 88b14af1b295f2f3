/* A hypothesis as a regular expression (doc/measures.md, "A hypothesis as a regular
 * expression"): the steps' characters, joined in order as UTF-8, are searched left to right
 * for non-overlapping matches of a POSIX extended regular expression (an empty match
 * advances one step); m_t = 1 where step t lies inside a match (its character overlaps the
 * matched bytes). `\n` and `\t` in the expression stand for a newline and a tab, inside
 * brackets too. */
#ifndef GATETUI_MASK_H
#define GATETUI_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

typedef struct gt_mask {
    unsigned char *m;   /* [n] 1 inside a match */
    size_t n;           /* steps searched */
    size_t inside;      /* steps with m = 1 */
    size_t matches;     /* non-empty matches */
    size_t *from, *to;  /* [matches] each match's first and last step, in order */
} gt_mask;

/* Searches tok[0..n). GT_EINPUT, with one line in e, when regex is not a valid expression,
 * or matches no step or every step (the mask is then constant: nothing to correlate). */
int mask_from_regex(gt_mask *out, const gt_model *m, const uint16_t *tok, size_t n,
                    const char *regex, gt_error *e);
void mask_free(gt_mask *k);

#endif
