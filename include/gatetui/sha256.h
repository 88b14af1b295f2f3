/* SHA-256 (FIPS 180-4): what a session file holds of each file it names, so that a file
 * changed since is told (doc/usage.md, "Sessions"). */
#ifndef GATETUI_SHA256_H
#define GATETUI_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"

#define SHA256_HEX 65 /* 64 hexadecimal digits and the NUL */

/* The digest of n bytes at data. */
void sha256_of(const void *data, size_t n, char hex[SHA256_HEX]);
/* The digest and the size of the regular file path, read in pieces (anything but a regular
 * file refused before open could wait for it). GT_EINPUT naming the path when it cannot be
 * read. */
int sha256_file(const char *path, char hex[SHA256_HEX], unsigned long long *size, gt_error *e);

#endif
