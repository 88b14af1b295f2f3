/* Large zeroed buffers in huge pages (gatetui/bigmem.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gatetui/bigmem.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *big_zalloc(size_t n)
{
    if (n < HUGE_PAGE / 8)
        return calloc(n ? n : 1, 1);
    const size_t whole = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, whole);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, whole, MADV_HUGEPAGE); /* a request: where refused, 4 KB pages as before */
#endif
    memset(p, 0, n);
    return p;
}
