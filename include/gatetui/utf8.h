/* UTF-8 decoding and encoding. */
#ifndef GATETUI_UTF8_H
#define GATETUI_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_INVALID 0xFFFFFFFFu

/* Decodes one code point at s (n > 0 bytes left). Returns the bytes used (1..4); an
 * invalid, overlong, surrogate or truncated sequence gives *cp = UTF8_INVALID and 1. */
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Encodes cp into out (at least 4 bytes); returns the length, 0 if cp is not valid. */
int utf8_encode(uint32_t cp, char *out);

#endif
