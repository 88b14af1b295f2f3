/* The steps' characters as text (see steptext.h). */
#include "config.h"

#include <stdlib.h>

#include "analysis/steptext.h"
#include "gatetui/utf8.h"

int steptext_char(const gt_model *m, int tok, char *out)
{
    int n = utf8_encode(m->vocab_cp[tok], out);
    return n > 0 ? n : utf8_encode(0xFFFD, out); /* not a character */
}

int steptext_raw_char(const gt_model *m, int tok, char *out)
{
    if (m->vocab_bytes) {
        out[0] = (char)m->vocab_cp[tok];
        return 1;
    }
    return steptext_char(m, tok, out);
}

int steptext_join(const gt_model *m, const uint16_t *tok, size_t a, size_t b, char **out,
                  size_t *len, gt_error *e)
{
    char *buf = malloc(4 * (b > a ? b - a : 0) + 1);
    if (!buf)
        return gt_fail(e, GT_EFAIL, "out of memory for the text of %zu steps", b - a);
    size_t k = 0;
    for (size_t s = a; s < b; s++)
        k += (size_t)steptext_raw_char(m, tok[s], buf + k);
    buf[k] = 0;
    *out = buf;
    *len = k;
    return GT_OK;
}

const char *steptext_printable(const gt_model *m, int tok, char *buf, size_t n)
{
    char raw[8] = {0};
    const int len = utf8_encode(m->vocab_cp[tok], raw);
    raw[len > 0 ? len : 0] = 0;
    return utf8_printable(buf, n, raw);
}
