/* Little-endian integers read from bytes, and arrays that grow by doubling. */
#ifndef GATETUI_BYTES_H
#define GATETUI_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The n-byte (n <= 8) little-endian unsigned integer at p. */
static inline uint64_t load_le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Makes room for one more element in *arr (n used of *cap, each elem bytes), doubling from
 * first. 0, or -1 when out of memory (*arr is then unchanged). */
static inline int grow_array(void *arr, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : first;
    void *p = realloc(*(void **)arr, c * elem);
    if (!p)
        return -1;
    *(void **)arr = p;
    *cap = c;
    return 0;
}

#endif
