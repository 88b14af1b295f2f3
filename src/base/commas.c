/* Counts with thousands separators (gatetui/commas.h). */
#include "config.h"

#include <stdio.h>

#include "gatetui/commas.h"

const char *gt_commas(size_t n, char *buf, size_t len)
{
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%zu", n), k = 0;
    for (int i = 0; i < nd && (size_t)k + 2 < len; i++) {
        if (i && (nd - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = 0;
    return buf;
}
