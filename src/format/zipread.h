/* A zip archive in memory (the file as read): its entries' names and where their bytes
 * lie, every offset and size checked against the file. Entries are not decompressed:
 * torch.save stores them, and a stored entry is read in place. */
#ifndef GATETUI_ENGINE_ZIPREAD_H
#define GATETUI_ENGINE_ZIPREAD_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"

#define ZR_MAX_ENTRIES (1u << 20)

typedef struct zr_entry {
    char *name;
    const unsigned char *data; /* the entry's bytes as stored in the file */
    uint64_t size;             /* bytes stored */
    unsigned method;           /* 0: stored (readable), 8: deflated, ... */
    unsigned flags;            /* bit 0: encrypted */
    uint32_t crc;              /* the CRC-32 the directory records for its bytes */
} zr_entry;

typedef struct zr_archive {
    zr_entry *entry; /* sorted by name */
    size_t n;
} zr_archive;

/* 1 when the size bytes at base start like a zip archive. */
int zr_looks_like_zip(const unsigned char *base, size_t size);

/* Checks that the last n bytes of a file (n >= 22, or the whole file) hold a zip archive's
 * end record; refused, as zr_open would refuse it, when they do not. */
int zr_check_end(const char *path, const unsigned char *tail, size_t n, gt_error *e);
/* The bytes at a file's end zr_check_end needs: the end record and its longest comment. */
#define ZR_TAIL (22u + 0xFFFFu)

/* Reads the central directory of the archive at base[0..size), and checks each stored
 * entry's bytes against the CRC-32 the directory records (zlib's crc32_z): a damaged byte
 * anywhere in a tensor is refused, naming the entry, rather than read as a number. */
int zr_open(zr_archive *z, const char *path, const unsigned char *base, size_t size,
            gt_error *e);
void zr_close(zr_archive *z);

/* The entry called name, or NULL. */
const zr_entry *zr_find(const zr_archive *z, const char *name);

/* NULL when en's bytes can be read in place (stored, not encrypted); otherwise why not. */
const char *zr_unreadable(const zr_entry *en);

#endif
