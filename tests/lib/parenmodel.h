/* A model built by hand whose unit 0 provably tracks "inside parentheses", and texts for it
 * (see parenmodel.c). */
#ifndef GATETUI_PARENMODEL_H
#define GATETUI_PARENMODEL_H

#include <stddef.h>

/* Tokens of the model's vocabulary "\n ()ab". */
enum { PAREN_V = 6, PAREN_H = 6, PAREN_NL = 0, PAREN_SP = 1, PAREN_OPEN = 2, PAREN_CLOSE = 3 };

/* Writes the model (safetensors) to path; 0 on success. */
int paren_write_model(const char *path);
/* A malloc'ed text of n characters: words of a and b, spaces, newlines and parentheticals
 * (some back to back, every one closed). */
char *paren_make_text(size_t n);
/* A number in [-1, 1) from a fixed sequence. */
float paren_rand(void);

#endif
