/* UTF-8 decoding and encoding, strict (RFC 3629). */
#include "config.h"

#include <string.h>

#include "gatetui/utf8.h"

int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    int len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        *cp = UTF8_INVALID;
        return 1;
    }
    if ((size_t)len > n) {
        *cp = UTF8_INVALID;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = UTF8_INVALID;
            return 1;
        }
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = UTF8_INVALID;
        return 1;
    }
    *cp = v;
    return len;
}

int utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    } else if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp < 0x10000) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return 0;
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    } else if (cp <= 0x10FFFF) {
        o[0] = (unsigned char)(0xF0 | cp >> 18);
        o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        o[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

char *utf8_printable(char *dst, size_t cap, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = strlen(src), i = 0, o = 0;
    while (i < n) {
        uint32_t cp;
        int len = utf8_decode(s + i, n - i, &cp);
        int bad = cp == UTF8_INVALID || cp < 0x20 || (cp >= 0x7F && cp < 0xA0);
        size_t w = bad ? 1 : (size_t)len;
        if (o + w >= cap)
            break;
        if (bad)
            dst[o] = '?';
        else
            memmove(dst + o, s + i, w); /* o <= i: dst may be src */
        o += w;
        i += (size_t)len;
    }
    dst[o] = 0;
    return dst;
}
