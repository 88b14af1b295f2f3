/* Reading and writing files: a whole file read into memory, a whole buffer to a file descriptor, and new files that never replace one
 * that exists (written under a temporary name made with O_EXCL, then linked to their name,
 * which fails rather than replace anything); reading a whole file into memory. */
#ifndef GATETUI_FILEIO_H
#define GATETUI_FILEIO_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "gatetui/error.h"

/* Flushes f, the stream `what` was printed to: GT_OK, or GT_EFAIL "error writing WHAT: WHY"
 * (the system's reason: "No space left on device") when a write to it failed. */
int file_flushed(FILE *f, const char *what, gt_error *e);
/* GT_EFAIL "error writing WHAT: WHY" for the errno err of the write that failed (0: "error
 * writing WHAT"). */
int file_write_failed(const char *what, int err, gt_error *e);
/* Writes all n bytes of p to fd, retrying after EINTR and short writes. 0, or -1 with
 * errno set. */
int write_all(int fd, const void *p, size_t n);
/* Reads n bytes from fd into p, waiting no later than the CLOCK_MONOTONIC time deadline:
 * 0 when all came, 1 when the deadline passed first, -1 at the end of the input or an
 * error. */
int read_by(int fd, void *p, size_t n, const struct timespec *deadline);

/* A regular file read into memory the process owns, so that the file truncated or
 * rewritten afterwards changes nothing. It is opened first (filecopy_open), its first bytes
 * or its last looked at (filecopy_peek), then as much of it read as it is known to need
 * (filecopy_read): a model file's kind and the size its header declares are checked before
 * anything large is read. */
typedef struct gt_filecopy gt_filecopy;

/* Opens path, a regular file: anything else (a directory, a FIFO, a device) is refused
 * before open could wait for it (O_NONBLOCK). On failure *out is NULL. */
int filecopy_open(gt_filecopy **out, const char *path, gt_error *e);
/* The file's size when it was opened. */
unsigned long long filecopy_bytes(const gt_filecopy *m);
/* Reads n bytes at offset off of the file opened (off + n <= filecopy_bytes) into buf. */
int filecopy_peek(const gt_filecopy *m, unsigned long long off, void *buf, size_t n, const char *path,
             gt_error *e);
/* Reads the file's first n bytes (n <= filecopy_bytes) into memory and closes it; a file
 * whose size or modification time changed since filecopy_open is refused. */
int filecopy_read(gt_filecopy *m, size_t n, const char *path, gt_error *e);
/* What filecopy_read read, its size into *size (nothing read: NULL and 0). */
const unsigned char *filecopy_data(const gt_filecopy *m, size_t *size);
/* Frees m and what filecopy_read read, and closes the file if it is still open. */
void filecopy_free(gt_filecopy *m);
/* 1 when path no longer names the file m was read from as it was (another file, another
 * size or modification time, or none), 0 when it does. */
int file_changed(const gt_filecopy *m, const char *path);
/* GT_OK when a new file could be made at path as it stands: none there, its directory one
 * gatetui may write in; else GT_EINPUT and why (before a long computation whose result
 * would have nowhere to go). */
int file_can_create(const char *path, gt_error *e);
/* Writes data to path, which must not exist (GT_EINPUT, "the file exists; not overwritten",
 * if it does). Interrupting signals wait until the file is whole or gone. */
int file_write_new(const char *path, const char *data, size_t n, gt_error *e);

/* Writes data to path in place of the file there (a file of gatetui's own: the session
 * file W writes again), written whole under a temporary name first and renamed over it, so
 * that the file is the old one or the new one, never part of either; a symbolic link's
 * file, the link kept; the file's mode kept; a file no one may write (no w in its mode)
 * refused: GT_EINPUT, "read-only". */
int file_replace(const char *path, const char *data, size_t n, gt_error *e);
/* One of several files written together under one name (file_write_numbered): the ending
 * its file's name has after that name, and its bytes. */
typedef struct gt_filepart {
    const char *suffix;
    const char *data;
    size_t n;
} gt_filepart;
/* Writes the parts as new files in directory dir under the first name of base + ext,
 * base-2 + ext, ... base-9999 + ext for which no part's file (the name, then its suffix)
 * exists, each under a temporary name first (O_EXCL), then linked (never over a file;
 * where hard links are not supported, written with O_EXCL instead); a name taken
 * meanwhile by one of them: the parts already written under it removed, the next name
 * tried. The name chosen (without dir) into out. */
int file_write_numbered(const char *dir, const char *base, const char *ext,
                        const gt_filepart *part, int nparts, char *out, size_t n, gt_error *e);

/* Reads a whole file into a malloc'ed buffer (NUL-terminated, *n bytes); a file, pipe or
 * device of more than GT_MAX_FILE_BYTES is refused once that much has been read. With
 * regular_only, anything but a regular file is refused before open could wait for it (a
 * FIFO without a writer). */
#define GT_MAX_FILE_BYTES (512u << 20)
int read_whole_file(const char *path, int regular_only, unsigned char **buf, size_t *n,
                    gt_error *e);

#endif
