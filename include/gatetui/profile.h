/* A unit's profile (doc/measures.md, "A unit's profile", after RNNVis): for one unit and
 * signal over the steps of one run from the zero state, the PROFILE_TOP steps of highest
 * and of lowest value (ties: the earlier step first), each with its context, and the mean
 * value by input character with its count, highest first (ties by code point). A word
 * model's (doc/usage.md, "Word models"): by token, the PROFILE_TOKENS most frequent ones (ties by
 * token), the context in whole tokens. */
#ifndef GATETUI_PROFILE_H
#define GATETUI_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/signals.h"

#define PROFILE_TOP 10
#define PROFILE_BEFORE 20 /* characters of context before the step */
#define PROFILE_AFTER 5   /* and after it */
#define PROFILE_TOKENS 20 /* a word model's tokens in the mean by token */
#define PROFILE_WORDS_BEFORE 40 /* a word model's: bytes of whole tokens before the step */
#define PROFILE_WORDS_AFTER 20  /* and after it */
#define PROFILE_WORD_MAX 60     /* the step's own token cut to this many bytes */

typedef struct gt_profile_hit {
    size_t step;
    double value;
} gt_profile_hit;

typedef struct gt_profile_char {
    int tok;
    double mean;
    size_t count;
} gt_profile_char;

typedef struct gt_profile {
    const gt_model *m;
    int layer, unit, signal;
    size_t steps;
    int ntop, nbottom;
    gt_profile_hit top[PROFILE_TOP], bottom[PROFILE_TOP];
    int nchars;
    gt_profile_char *by_char;   /* [nchars]: the characters that occur */
} gt_profile;

int profile_compute(gt_profile *p, const gt_model *m, const uint16_t *tok, size_t n, int unit,
                    int signal, const gt_pass_options *o, gt_error *e);
void profile_free(gt_profile *p);

/* Step s's context in tok[0..n): up to PROFILE_BEFORE characters before it, its own, up to
 * PROFILE_AFTER after (a word model's: the whole tokens within PROFILE_WORDS_BEFORE and
 * PROFILE_WORDS_AFTER bytes, joined as the text joins them), as UTF-8 into buf (at least
 * PROFILE_CONTEXT_BYTES); *at and *len give the byte offset and length of step s's
 * character. Returns the context's length in bytes. */
size_t profile_context(const gt_model *m, const uint16_t *tok, size_t n, size_t s, char *buf,
                     size_t *at, size_t *len);
/* The same with a word model's bytes before and after given (at most PROFILE_WORDS_BEFORE
 * and PROFILE_WORDS_AFTER): the plain profile's, within 80 columns. */
size_t profile_context_within(const gt_model *m, const uint16_t *tok, size_t n, size_t s,
                              size_t before, size_t after, char *buf, size_t *at, size_t *len);
#define PROFILE_CONTEXT_BYTES 160

#endif
