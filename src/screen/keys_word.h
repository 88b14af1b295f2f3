/* A word model's edit (doc/usage.md): e asks for a token of the vocabulary at a prompt,
 * Tab completes what is typed, Enter replaces the token under the cursor (keys_run.c). */
#ifndef GATETUI_SCREEN_KEYS_WORD_H
#define GATETUI_SCREEN_KEYS_WORD_H

#include <stddef.h>

#include "screen/view.h"

/* Tab: the prompt's line completed to the longest beginning that every token beginning
 * with it shares (the whole token when one does); 0 when no token begins with it. */
int keys_word_complete(gt_view *v);
/* The token the prompt's line spells, or -1 with the message said (none typed, not in the
 * vocabulary). */
int keys_word_token(gt_view *v, const char *line);
/* What the status line says of the line typed so far: how many tokens begin with it and
 * the first of them ("3: land, lands, landed"), into buf; changes nothing. */
void keys_word_candidates(const gt_view *v, const char *line, char *buf, size_t n);

#endif
