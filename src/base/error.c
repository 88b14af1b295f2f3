/* Filling a gt_error. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/utf8.h"

int gt_fail(gt_error *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        /* one line, whatever a file's names or a parser's excerpt held */
        utf8_printable(e->msg, sizeof e->msg, e->msg);
        e->code = code;
    }
    return code;
}
