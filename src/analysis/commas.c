/* Counts with thousands separators, as the tables write them, and with their nouns
 * (report.h). */
#include "config.h"

#include <stdio.h>

#include "gatetui/commas.h"
#include "gatetui/report.h"

const char *report_commas(size_t n, char *buf, size_t len)
{
    return gt_commas(n, buf, len);
}

const char *report_count(size_t n, const char *noun, char *buf, size_t len)
{
    char digits[32];
    snprintf(buf, len, "%s %s%s", report_commas(n, digits, sizeof digits), noun,
             n == 1 ? "" : "s");
    return buf;
}
