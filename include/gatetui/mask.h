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

/* The seconds a search may take unless told otherwise. */
#define MASK_SECONDS 30.0

/* Searches tok[0..n), in a child process stopped after seconds. GT_EINPUT, with one line
 * in e, when regex is not a valid expression or too large to compile (its bounded
 * repetitions written out, doc/measures.md), takes longer than seconds, or matches no
 * step or every step (the mask is then constant: nothing to correlate). */
int mask_from_regex(gt_mask *out, const gt_model *m, const uint16_t *tok, size_t n,
                    const char *regex, double seconds, gt_error *e);
/* GT_OK when regex compiles within the size bound; else GT_EINPUT and one line in e. */
int mask_regex_check(const char *regex, gt_error *e);
void mask_free(gt_mask *k);

#endif
