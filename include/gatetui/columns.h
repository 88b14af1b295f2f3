/* Texts printed side by side: the outputs of several models, one column each. */
#ifndef GATETUI_COLUMNS_H
#define GATETUI_COLUMNS_H
#include <stdio.h>

/* Writes the n texts (each lines ending in '\n') side by side, paragraph by paragraph (the
 * paragraphs are separated by blank lines): the first paragraph of each, then one blank
 * line, the second of each, ... Each line is padded with spaces to its text's widest line
 * (in code points) and followed by `sep`, the last column unpadded; a text with fewer
 * lines in a paragraph leaves its column blank there. So each text's column, its trailing
 * spaces and the added blank lines taken away, is that text. GT_OK, or GT_EFAIL when
 * writing fails (no message: the caller names the file). */
int columns_print(FILE *f, const char *const *text, int n, const char *sep);

#endif
