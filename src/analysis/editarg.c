/* An edit as the command line gives it (editarg.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/editarg.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"

int editarg_parse(const gt_model *m, const char *arg, size_t steps, size_t *step, int *tok,
                  gt_error *e)
{
    char *colon, last[32], shown[16];
    errno = 0;
    const unsigned long long s = strtoull(arg, &colon, 10);
    if (colon == arg || *colon != ':' || errno || arg[0] == '-' || arg[0] == '+')
        return gt_fail(e, GT_EINPUT, "--edit wants S:C (a step and a character), not \"%s\"",
                       arg);
    const unsigned char *ch = (const unsigned char *)colon + 1;
    const size_t len = strlen((const char *)ch);
    uint32_t cp = UTF8_INVALID;
    if (!len || (size_t)utf8_decode(ch, len, &cp) != len || cp == UTF8_INVALID)
        return gt_fail(e, GT_EINPUT, "--edit %s: one character after the colon", arg);
    if (s >= steps)
        return gt_fail(e, GT_EINPUT, "--edit %s: the text has steps 0-%s", arg,
                       report_commas(steps - 1, last, sizeof last));
    const int t = model_token(m, cp);
    if (t < 0)
        return gt_fail(e, GT_EINPUT, "--edit %s: '%s' is not in the model's vocabulary",
                       arg,
                       utf8_printable(shown, sizeof shown, (const char *)ch));
    *step = (size_t)s;
    *tok = t;
    return GT_OK;
}
