/* A token named by its text, as edits name them in the edits' list and a session file
 * (doc/usage.md, "Edits"): a word model's word (doc/usage.md, "Word models"), another model's one
 * character in UTF-8. */
#include "config.h"

#include <string.h>

#include "gatetui/model.h"
#include "gatetui/utf8.h"

int model_token_named(const gt_model *m, const char *s)
{
    const size_t n = strlen(s);
    if (m->words)
        return model_word_token(m, s, n);
    uint32_t cp = UTF8_INVALID;
    if (!n || (size_t)utf8_decode((const unsigned char *)s, n, &cp) != n || cp == UTF8_INVALID)
        return -1;
    return model_token(m, cp);
}

const char *model_token_text(const gt_model *m, int tok, char *buf)
{
    if (m->words)
        return m->vocab_word[tok];
    const int k = utf8_encode(m->vocab_cp[tok], buf);
    buf[k > 0 ? k : 0] = 0;
    return buf;
}
