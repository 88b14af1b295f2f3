/* SHA-256 (FIPS 180-4): what a session file holds of each file it names, so that a file
 * changed since is told (doc/usage.md, "Sessions"). */
#ifndef GATETUI_SHA256_H
#define GATETUI_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"

typedef struct gt_sha256 {
    uint32_t h[8];
    uint64_t bytes;          /* the message's length so far */
    unsigned char buf[64];   /* its last block, not yet taken */
    size_t nbuf;
} gt_sha256;

#define SHA256_HEX 65 /* 64 hexadecimal digits and the NUL */

void sha256_init(gt_sha256 *c);
void sha256_update(gt_sha256 *c, const void *data, size_t n);
/* The digest as 64 lower-case hexadecimal digits into hex. */
void sha256_hex(gt_sha256 *c, char hex[SHA256_HEX]);

/* The digest of n bytes at data. */
void sha256_of(const void *data, size_t n, char hex[SHA256_HEX]);
/* The digest and the size of the regular file path, read in pieces (anything but a regular
 * file refused before open could wait for it). GT_EINPUT naming the path when it cannot be
 * read. */
int sha256_file(const char *path, char hex[SHA256_HEX], unsigned long long *size, gt_error *e);

#endif
