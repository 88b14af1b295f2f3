/* The characters the steps read, as text: a token as UTF-8, and runs of steps joined. In
 * bytes mode (a model with 256 tokens and no vocabulary) a token is a byte: as read (raw,
 * so that bytes of UTF-8 join back into their characters) or shown as the code point of the
 * same number (always valid UTF-8). A word model's token is its word, "<eos>" a newline, and
 * the steps join with single spaces between words (doc/usage.md, "Word models"; text_token_gap). */
#ifndef GATETUI_STEPTEXT_H
#define GATETUI_STEPTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

/* Token tok's text, valid UTF-8 to show: a character into buf (at least 4 bytes), a word
 * model's word where the model keeps it; its length in *len. */
const char *steptext_token(const gt_model *m, int tok, char *buf, int *len);
/* Its length raw (in bytes mode 1: the byte itself), as steptext_join joins it. */
size_t steptext_len(const gt_model *m, int tok);

/* How steptext_name writes a character beyond ASCII: never (U+00E9), as UTF-8 (a file, a
 * pipe: --carriers, a figure's caption), or as UTF-8 where the terminal's locale gives it
 * a width (the screen). */
enum { STEPTEXT_ASCII, STEPTEXT_UTF8, STEPTEXT_TERMINAL };

/* Token tok as the screen's panel, --carriers and the captions name it, into buf of n
 * bytes: 'a', '\n', '\t', '\r', "'", U+0001 (a control character, never itself), 0xE9 (a
 * byte model's byte beyond ASCII); a word model's word 'the', a special token (<eos>,
 * <unk>) bare. The one place that names a token so (doc/usage.md, "--carriers"). */
void steptext_name(const gt_model *m, int tok, int how, char *buf, size_t n);

/* tok[a..b) joined raw into a malloc'ed NUL-terminated string *out of *len bytes. */
int steptext_join(const gt_model *m, const uint16_t *tok, size_t a, size_t b, char **out,
                  size_t *len, gt_error *e);

#endif
