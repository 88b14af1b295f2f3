/* Large zeroed buffers in huge pages where the kernel gives them (transparent huge pages
 * on request, Linux's MADV_HUGEPAGE): a page touched for the first time costs a fault, and
 * on a virtual machine a fault can cost 15 µs, so that a buffer of 2 MB written once took
 * 7.7 ms in its 512 faults of 4 KB, and 0.1 ms in one huge page (doc/speed.md, "The
 * Jacobian"). Freed with free(). */
#ifndef GATETUI_BIGMEM_H
#define GATETUI_BIGMEM_H

#include <stddef.h>

/* n zeroed bytes (calloc's, for under 256 KB), or NULL. From 256 KB a buffer takes whole
 * huge pages (a 2 MB page faulted once costs less than 64 of 4 KB): for buffers made once
 * for a computation, not for many small ones. */
void *big_zalloc(size_t n);

#endif
