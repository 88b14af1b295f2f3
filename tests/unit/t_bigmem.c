/* Large zeroed buffers in huge pages (gatetui/bigmem.h): zeroed, of the size asked for,
 * small ones from calloc; a large one aligned to a huge page and, where the kernel gives
 * huge pages on request (/sys/kernel/mm/transparent_hugepage/enabled says [always] or
 * [madvise]), written with a fraction of the page faults its 4 KB pages would take. */
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

int main(void)
{
    unsigned char *s = big_zalloc(1000);
    tap_ok(s && zeroed(s, 1000), "1,000 bytes, zeroed");
    free(s);
    const size_t n = (size_t)8 << 20;
    const long before = faults();
    unsigned char *b = big_zalloc(n);
    const long taken = faults() - before;
    tap_ok(b && zeroed(b, n) && (uintptr_t)b % ((size_t)2 << 20) == 0,
           "8 MB, zeroed, aligned to 2 MB");
    memset(b, 7, n); /* touched again: no new page */
    tap_ok(b[n - 1] == 7, "written to its last byte");
    free(b);
    char mode[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
#if defined(__SANITIZE_ADDRESS__)
    printf("ok %d - # SKIP page faults under AddressSanitizer: its allocator and shadow memory "
           "take faults of their own (%ld here)\n", ++tap_n, taken);
#else
    if (strstr(mode, "[always]") || strstr(mode, "[madvise]"))
        tap_ok(taken < (long)(n / 4096 / 4),
               "in huge pages (transparent huge pages: %.*s): %ld page faults, against %zu "
               "pages of 4 KB", (int)strcspn(mode, "\n"), mode, taken, n / 4096);
    else
        printf("ok %d - # SKIP the kernel gives no huge pages on request (%s)\n", ++tap_n,
               mode[0] ? mode : "no /sys/kernel/mm/transparent_hugepage");
#endif
    return tap_done();
}
