/* The steps' characters as text (see steptext.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/steptext.h"
#include "gatetui/text.h"
#include "gatetui/utf8.h"

const char *steptext_token(const gt_model *m, int tok, char *buf, int *len)
{
    if (m->words) {
        if (tok == m->tok_eos) {
            *len = 1;
            return "\n";
        }
        *len = (int)m->vocab_len[tok];
        return m->vocab_word[tok];
    }
    int n = utf8_encode(m->vocab_cp[tok], buf);
    *len = n > 0 ? n : utf8_encode(0xFFFD, buf); /* not a character */
    return buf;
}

/* Token tok raw: in bytes mode the byte itself. */
static const char *raw_token(const gt_model *m, int tok, char *buf, int *len)
{
    if (m->vocab_bytes) {
        buf[0] = (char)m->vocab_cp[tok];
        *len = 1;
        return buf;
    }
    return steptext_token(m, tok, buf, len);
}

size_t steptext_len(const gt_model *m, int tok)
{
    char u[4];
    int n;
    raw_token(m, tok, u, &n);
    return (size_t)n;
}

int steptext_join(const gt_model *m, const uint16_t *tok, size_t a, size_t b, char **out,
                  size_t *len, gt_error *e)
{
    size_t total = 0;
    for (size_t s = a; s < b; s++)
        total += steptext_len(m, tok[s]) + (s > a ? text_token_gap(m, tok[s - 1], tok[s]) : 0);
    char *buf = malloc(total + 1);
    if (!buf)
        return gt_fail(e, GT_EFAIL, "out of memory for the text of %zu steps", b - a);
    size_t k = 0;
    for (size_t s = a; s < b; s++) {
        char u[4];
        int n;
        if (s > a && text_token_gap(m, tok[s - 1], tok[s]))
            buf[k++] = ' ';
        const char *t = raw_token(m, tok[s], u, &n);
        memcpy(buf + k, t, (size_t)n);
        k += (size_t)n;
    }
    buf[k] = 0;
    *out = buf;
    *len = k;
    return GT_OK;
}

const char *steptext_printable(const gt_model *m, int tok, char *buf, size_t n)
{
    if (m->words) /* the word, "<eos>" as itself */
        return utf8_printable(buf, n, m->vocab_word[tok]);
    char raw[8] = {0};
    const int len = utf8_encode(m->vocab_cp[tok], raw);
    raw[len > 0 ? len : 0] = 0;
    return utf8_printable(buf, n, raw);
}
