/* An edit as the command line gives it (editarg.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/editarg.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"

/* A word model's S:WORD: the token spelled as after the colon. */
static int word_token(const gt_model *m, const char *arg, const char *w, int *tok,
                      gt_error *e)
{
    char shown[80];
    *tok = model_word_token(m, w, strlen(w));
    if (*tok < 0)
        return gt_fail(e, GT_EINPUT, "--edit %s: \"%s\" is not in the model's vocabulary",
                       arg, utf8_printable(shown, sizeof shown, w));
    return GT_OK;
}

int editarg_parse(const gt_model *m, const char *arg, size_t steps, size_t *step, int *tok,
                  gt_error *e)
{
    char *colon, last[32], shown[16];
    const char *what = m->words ? "S:W (a step and a token)" : "S:C (a step and a character)";
    errno = 0;
    const unsigned long long s = strtoull(arg, &colon, 10);
    if (colon == arg || *colon != ':' || errno || arg[0] == '-' || arg[0] == '+')
        return gt_fail(e, GT_EINPUT, "--edit wants %s, not \"%s\"", what, arg);
    const unsigned char *ch = (const unsigned char *)colon + 1;
    const size_t len = strlen((const char *)ch);
    uint32_t cp = UTF8_INVALID;
    if (!m->words &&
        (!len || (size_t)utf8_decode(ch, len, &cp) != len || cp == UTF8_INVALID))
        return gt_fail(e, GT_EINPUT, "--edit %s: one character after the colon", arg);
    if (s >= steps)
        return gt_fail(e, GT_EINPUT, "--edit %s: the text has steps 0-%s", arg,
                       report_commas(steps - 1, last, sizeof last));
    if (m->words) {
        int rc = word_token(m, arg, (const char *)ch, tok, e);
        if (rc == GT_OK)
            *step = (size_t)s;
        return rc;
    }
    const int t = model_token(m, cp);
    if (t < 0)
        return gt_fail(e, GT_EINPUT, "--edit %s: '%s' is not in the model's vocabulary",
                       arg,
                       utf8_printable(shown, sizeof shown, (const char *)ch));
    *step = (size_t)s;
    *tok = t;
    return GT_OK;
}
