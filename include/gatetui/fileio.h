/* Writing a whole buffer to a file descriptor. */
#ifndef GATETUI_FILEIO_H
#define GATETUI_FILEIO_H

#include <stddef.h>

/* Writes all n bytes of p to fd, retrying after EINTR and short writes. 0, or -1 with
 * errno set. */
int write_all(int fd, const void *p, size_t n);

#endif
