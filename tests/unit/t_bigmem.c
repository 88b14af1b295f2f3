/* Large zeroed buffers in huge pages (gatetui/bigmem.h): zeroed, of the size asked for,
 * small ones from calloc; a large one aligned to a huge page and, where the kernel gives
 * huge pages on request (/sys/kernel/mm/transparent_hugepage/enabled says [always] or
 * [madvise]), written with a fraction of the page faults its 4 KB pages would take: 8 MB,
 * and 512 KB (above the 256 KB from which big_zalloc takes huge pages). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gatetui/bigmem.h"
#include "../lib/tap.h"

static long faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

static int zeroed(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* n bytes by big_zalloc: zeroed, aligned to a huge page, written to its end, and in huge
 * pages where the kernel gives them on request (mode: its setting). */
static void large(size_t n, const char *mode)
{
    const long before = faults();
    unsigned char *b = big_zalloc(n);
    tap_ok(b && zeroed(b, n) && (uintptr_t)b % ((size_t)2 << 20) == 0,
           "%zu KB, zeroed, aligned to 2 MB", n >> 10);
    memset(b, 7, n); /* read, then written: the faults of both counted */
    const long taken = faults() - before;
    tap_ok(b[n - 1] == 7, "written to its last byte");
    free(b);
#if defined(__SANITIZE_ADDRESS__)
    printf("ok %d - # SKIP page faults under AddressSanitizer: its allocator and shadow memory "
           "take faults of their own (%ld here)\n", ++tap_n, taken);
#else
    if (strstr(mode, "[always]") || strstr(mode, "[madvise]"))
        tap_ok(taken < (long)(n / 4096 / 4),
               "%zu KB in huge pages (transparent huge pages: %.*s): %ld page faults, against "
               "%zu pages of 4 KB", n >> 10, (int)strcspn(mode, "\n"), mode, taken, n / 4096);
    else
        printf("ok %d - # SKIP the kernel gives no huge pages on request (%s)\n", ++tap_n,
               mode[0] ? mode : "no /sys/kernel/mm/transparent_hugepage");
#endif
}

int main(void)
{
    unsigned char *s = big_zalloc(1000);
    tap_ok(s && zeroed(s, 1000), "1,000 bytes, zeroed");
    free(s);
    char mode[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
    large((size_t)8 << 20, mode);
    large((size_t)512 << 10, mode); /* a step's derivative of H 256, the size of most */
    return tap_done();
}
