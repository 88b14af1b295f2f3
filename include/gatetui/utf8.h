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

/* Copies src into dst (cap > 0 bytes, truncated at a whole character) with every control
 * character (C0, DEL, C1) and every byte that is not valid UTF-8 made '?', so that a file
 * name written to a terminal is text, never an escape sequence. dst may be src. Returns dst. */
char *utf8_printable(char *dst, size_t cap, const char *src);

#endif
