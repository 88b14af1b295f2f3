/* A word model's text (textwords.c): what text.c does for a word model. */
#ifndef GATETUI_ENGINE_TEXTWORDS_H
#define GATETUI_ENGINE_TEXTWORDS_H

#include <stddef.h>

#include "gatetui/text.h"

/* Splits t->bytes (the file as read) into m's tokens, as data.py does, and puts the tokens
 * joined in its place. */
int textwords_split(gt_text *t, const gt_model *m, gt_error *e);
/* The last of t's marks (every TEXT_MARK-th step's offset) at or before byte off, or 0:
 * any text's, text.c's too. */
size_t textwords_mark_before(const gt_text *t, size_t off);
/* text.h's functions for a word model's text. */
size_t textwords_step_offset(const gt_text *t, size_t s);
size_t textwords_step_at_offset(const gt_text *t, size_t off);
size_t textwords_step_len(const gt_text *t, size_t s);
void textwords_summary(const gt_text *t, char *buf, size_t n);

#endif
