/* The steps' characters as text (see steptext.h). */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include "config.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

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

/* A word model's token as a name: 'the', a special token (<eos>, <unk>) bare; a word too
 * long for buf cut at a character's start, an ellipsis in its place ("~" in ASCII). */
static void word_name(const gt_model *m, int tok, int how, char *buf, size_t n)
{
    const char *w = m->vocab_word[tok];
    const size_t len = m->vocab_len[tok];
    const int special = len >= 3 && w[0] == '<' && w[len - 1] == '>';
    const size_t room = n > 8 ? n - 3 : 1;
    if (len + 2 < n || n <= 8) {
        snprintf(buf, n, special ? "%s" : "'%s'", w);
        return;
    }
    size_t k = room - 4;
    while (k > 0 && ((unsigned char)w[k] & 0xC0) == 0x80)
        k--;
    snprintf(buf, n, "'%.*s%s'", (int)k, w, how == STEPTEXT_ASCII ? "~" : "\xe2\x80\xa6");
}

/* Whether code point cp beyond ASCII is written as itself. */
static int shown_as_itself(uint32_t cp, int how)
{
    if (cp >= 0x80 && cp < 0xA0)
        return 0;
    if (how == STEPTEXT_TERMINAL)
        return wcwidth((wchar_t)cp) >= 1;
    return how == STEPTEXT_UTF8;
}

void steptext_name(const gt_model *m, int tok, int how, char *buf, size_t n)
{
    if (m->words) {
        word_name(m, tok, how, buf, n);
        return;
    }
    const uint32_t cp = m->vocab_cp[tok];
    if (cp == '\n')
        snprintf(buf, n, "'\\n'");
    else if (cp == '\t')
        snprintf(buf, n, "'\\t'");
    else if (cp == '\r')
        snprintf(buf, n, "'\\r'");
    else if (cp == '\'')
        snprintf(buf, n, "\"'\"");
    else if (m->vocab_bytes && cp >= 0x80)
        snprintf(buf, n, "0x%02X", (unsigned)cp);
    else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && !shown_as_itself(cp, how)))
        snprintf(buf, n, "U+%04X", (unsigned)cp);
    else {
        char u[8];
        const int len = utf8_encode(cp, u);
        snprintf(buf, n, "'%.*s'", len, u);
    }
}
