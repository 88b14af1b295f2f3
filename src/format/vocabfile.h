/* A vocabulary kept in a file of its own (doc/model-files.md, "The vocabulary"). */
#ifndef GATETUI_FORMAT_VOCABFILE_H
#define GATETUI_FORMAT_VOCABFILE_H

#include "format/modelfile.h"
#include "gatetui/error.h"

/* Reads path's vocabulary into v (its tokens in index order, where = a copy of where). A
 * file that is not JSON is read as one token per line when it has want lines and not want
 * characters, else as characters. On failure v is left empty and e says what is wrong. */
int vocabfile_read(gt_vocab_found *v, const char *path, const char *where, size_t want,
                   gt_error *e);
void vocabfile_free(gt_vocab_found *v);

#endif
