/* Counts with thousands separators, as every output writes them (doc/usage.md): 43,235. */
#ifndef GATETUI_COMMAS_H
#define GATETUI_COMMAS_H

#include <stddef.h>

/* n with a comma between each three digits into buf (len bytes, 32 hold any size_t);
 * returns buf. */
const char *gt_commas(size_t n, char *buf, size_t len);

#endif
