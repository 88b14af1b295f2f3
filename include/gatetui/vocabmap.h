/* Several models on one text: their vocabularies must hold the same characters, in any
 * order. The text is split once, with the first model's vocabulary; every other model reads
 * it through a permutation table from the first model's tokens to its own, so that no model
 * needs a copy of the text (doc/usage.md, "Several models"). */
#ifndef GATETUI_VOCABMAP_H
#define GATETUI_VOCABMAP_H
#include <stddef.h>
#include <stdint.h>
#include "gatetui/error.h"
#include "gatetui/model.h"

/* *map becomes a malloc'ed table [ref->vocab]: m's token for each of ref's tokens, or NULL
 * when the two orders are the same. GT_EINPUT, naming the characters that differ, when the
 * two vocabularies do not hold the same characters. Tokens no character maps to ("<unk>")
 * are matched in the order they come; their numbers may differ, since no text holds them.
 * Word models (doc/usage.md) must hold the same words, "<unk>" and "<eos>" among them; a
 * word model and a character model are refused. */
int vocab_map(const gt_model *ref, const gt_model *m, uint16_t **map, gt_error *e);

/* tok[s] = map[tok[s]] for s < n, in place. */
void vocab_map_tokens(uint16_t *tok, size_t n, const uint16_t *map);

#endif
