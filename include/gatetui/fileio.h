/* Writing a whole buffer to a file descriptor; mapping a whole file to read. */
#ifndef GATETUI_FILEIO_H
#define GATETUI_FILEIO_H

#include <stddef.h>

#include "gatetui/error.h"

/* Writes all n bytes of p to fd, retrying after EINTR and short writes. 0, or -1 with
 * errno set. */
int write_all(int fd, const void *p, size_t n);

/* A regular file mapped read-only (an empty file has data NULL and size 0). */
typedef struct gt_map {
    const unsigned char *data;
    size_t size;
} gt_map;

/* Maps path; on failure e says why (cannot open, not a regular file, ...). */
int map_file(gt_map *m, const char *path, gt_error *e);
void unmap_file(gt_map *m);

#endif
