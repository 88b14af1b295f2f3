/* Reading a zip archive's central directory (zipread.h): the end record (zip64 too), each
 * entry's record and local header, with every offset, size and count checked before it is
 * used. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/zipread.h"
#include "base/bytes.h"

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_END64 0x06064b50u
#define SIG_LOC64 0x07064b50u
#define END_LEN 22
#define CENTRAL_LEN 46
#define LOCAL_LEN 30

int zr_looks_like_zip(const unsigned char *base, size_t size)
{
    return size >= 4 && (load_le(base, 4) == SIG_LOCAL || load_le(base, 4) == SIG_END);
}

typedef struct dir {
    uint64_t count, offset, size;
} dir;

/* The end of central directory record: the last one in the file. */
static int find_end(const char *path, const unsigned char *b, size_t size, size_t *at,
                    gt_error *e)
{
    if (size >= END_LEN) {
        size_t lo = size - END_LEN > 0xFFFF ? size - END_LEN - 0xFFFF : 0;
        for (size_t i = size - END_LEN + 1; i-- > lo;)
            if (load_le(b + i, 4) == SIG_END && i + END_LEN + load_le(b + i + 20, 2) <= size) {
                *at = i;
                return GT_OK;
            }
    }
    return gt_fail(e, GT_EINPUT,
                   "%s: a zip archive with no end record (truncated, or not a zip file)", path);
}

int zr_check_end(const char *path, const unsigned char *tail, size_t n, gt_error *e)
{
    size_t at;
    return find_end(path, tail, n, &at, e);
}

static int read_dir(const char *path, const unsigned char *b, size_t size, dir *d, gt_error *e)
{
    size_t end = 0;
    if (find_end(path, b, size, &end, e))
        return GT_EINPUT;
    const unsigned char *r = b + end;
    if (load_le(r + 4, 2) != 0 || load_le(r + 6, 2) != 0)
        return gt_fail(e, GT_EINPUT, "%s: a zip archive split over several disks", path);
    d->count = load_le(r + 10, 2);
    d->size = load_le(r + 12, 4);
    d->offset = load_le(r + 16, 4);
    size_t limit = end;
    if (d->count == 0xFFFF || d->size == 0xFFFFFFFFu || d->offset == 0xFFFFFFFFu) {
        /* zip64: the locator just before the end record gives the zip64 end record */
        if (end < 20 || load_le(b + end - 20, 4) != SIG_LOC64)
            return gt_fail(e, GT_EINPUT, "%s: a zip64 archive without its zip64 locator", path);
        uint64_t at = load_le(b + end - 20 + 8, 8);
        if (at > end - 20 || end - 20 - at < 56 || load_le(b + at, 4) != SIG_END64)
            return gt_fail(e, GT_EINPUT, "%s: the zip64 end record is not where it says", path);
        d->count = load_le(b + at + 32, 8);
        d->size = load_le(b + at + 40, 8);
        d->offset = load_le(b + at + 48, 8);
        limit = (size_t)at;
    }
    if (d->offset > limit || d->size > limit - d->offset)
        return gt_fail(e, GT_EINPUT,
                       "%s: the zip central directory (%llu bytes at %llu) lies outside the "
                       "file (truncated?)",
                       path, (unsigned long long)d->size, (unsigned long long)d->offset);
    if (d->count > ZR_MAX_ENTRIES || d->count > d->size / CENTRAL_LEN)
        return gt_fail(e, GT_EINPUT, "%s: a zip central directory of %llu bytes cannot hold "
                                     "%llu entries (at most %u are read)",
                       path, (unsigned long long)d->size, (unsigned long long)d->count,
                       ZR_MAX_ENTRIES);
    return GT_OK;
}

/* The zip64 extra field: the 64-bit values of the fields that hold 0xFFFFFFFF. */
static int zip64_extra(const unsigned char *x, size_t n, uint64_t *usize, uint64_t *csize,
                       uint64_t *local)
{
    while (n >= 4) {
        unsigned id = (unsigned)load_le(x, 2), len = (unsigned)load_le(x + 2, 2);
        if (len > n - 4)
            return -1;
        if (id == 1) {
            const unsigned char *p = x + 4, *end = p + len;
            uint64_t *f[3] = {usize, csize, local};
            for (int i = 0; i < 3; i++)
                if (*f[i] == 0xFFFFFFFFu) {
                    if (end - p < 8)
                        return -1;
                    *f[i] = load_le(p, 8);
                    p += 8;
                }
            return 0;
        }
        x += 4 + len;
        n -= 4 + len;
    }
    return 0;
}

/* One central directory record at *p (advanced past it) into en. */
/* Whether the local header at l (n bytes left, at least LOCAL_LEN) names another entry than
 * the directory's record r, or another method, or (when it holds them: no data descriptor,
 * no zip64) other sizes. Python's zipfile refuses such an archive too. */
static int local_differs(const unsigned char *l, size_t n, const unsigned char *r,
                         const char *name, size_t nlen)
{
    if (load_le(l + 26, 2) != nlen || n - LOCAL_LEN < nlen || memcmp(l + LOCAL_LEN, name, nlen))
        return 1;
    if (load_le(l + 8, 2) != load_le(r + 10, 2))
        return 1;
    uint64_t lc = load_le(l + 18, 4), lu = load_le(l + 22, 4);
    int described = (load_le(l + 6, 2) & 8) != 0, zip64 = lc == 0xFFFFFFFFu || lu == 0xFFFFFFFFu;
    return !described && !zip64 && (lc != load_le(r + 20, 4) || lu != load_le(r + 24, 4));
}

static int read_entry(const char *path, const unsigned char *b, size_t size,
                      const unsigned char **p, const unsigned char *cd_end, zr_entry *en,
                      gt_error *e)
{
    const unsigned char *r = *p;
    if (cd_end - r < CENTRAL_LEN || load_le(r, 4) != SIG_CENTRAL)
        return gt_fail(e, GT_EINPUT, "%s: a damaged zip central directory (record at byte %zu)",
                       path, (size_t)(r - b));
    size_t nlen = (size_t)load_le(r + 28, 2), xlen = (size_t)load_le(r + 30, 2), clen = (size_t)load_le(r + 32, 2);
    if ((size_t)(cd_end - r) - CENTRAL_LEN < nlen + xlen + clen)
        return gt_fail(e, GT_EINPUT, "%s: a zip directory record runs past the directory", path);
    const char *name = (const char *)r + CENTRAL_LEN;
    if (nlen == 0 || memchr(name, 0, nlen))
        return gt_fail(e, GT_EINPUT, "%s: a zip entry with an empty name or a NUL in it", path);
    uint64_t csize = load_le(r + 20, 4), usize = load_le(r + 24, 4), local = load_le(r + 42, 4);
    if (zip64_extra(r + CENTRAL_LEN + nlen, xlen, &usize, &csize, &local))
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: a damaged zip64 field", path,
                       (int)(nlen > 200 ? 200 : nlen), name);
    en->method = (unsigned)load_le(r + 10, 2);
    en->flags = (unsigned)load_le(r + 8, 2);
    if (local > size || size - local < LOCAL_LEN || load_le(b + local, 4) != SIG_LOCAL)
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: its local header is not where the "
                                     "directory says (byte %llu)",
                       path, (int)(nlen > 200 ? 200 : nlen), name, (unsigned long long)local);
    if (local_differs(b + local, size - local, r, name, nlen))
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: its local header disagrees with the "
                                     "directory (name, method or sizes): a damaged archive",
                       path, (int)(nlen > 200 ? 200 : nlen), name);
    uint64_t data = local + LOCAL_LEN + load_le(b + local + 26, 2) + load_le(b + local + 28, 2);
    if (data > size || csize > size - data)
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: %llu bytes at byte %llu run past the "
                                     "end of the file (%zu bytes; truncated?)",
                       path, (int)(nlen > 200 ? 200 : nlen), name, (unsigned long long)csize,
                       (unsigned long long)data, size);
    if (en->method == 0 && usize != csize)
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: stored, but its sizes differ", path,
                       (int)(nlen > 200 ? 200 : nlen), name);
    en->crc = (uint32_t)load_le(r + 16, 4);
    /* a CRC of 0 is none: torch.serialization.set_crc32_options(False) writes 0 for each.
       Not checked when fuzzing (tests/fuzz/run.sh), whose changed bytes must reach the
       pickle machine and the tensors rather than stop here. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    if (en->method == 0 && !(en->flags & 1) && en->crc != 0) {
        const uint32_t got = (uint32_t)crc32_z(0, b + data, (z_size_t)csize);
        if (got != en->crc)
            return gt_fail(e, GT_EINPUT, "%s: zip entry %.*s: its %llu bytes do not give the "
                                         "CRC-32 the archive records for them (%08x, not %08x): "
                                         "a damaged file, or one changed after it was saved",
                           path, (int)(nlen > 200 ? 200 : nlen), name,
                           (unsigned long long)csize, (unsigned)got, (unsigned)en->crc);
    }
#endif
    en->name = strndup(name, nlen);
    if (!en->name)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    en->data = b + data;
    en->size = csize;
    *p = r + CENTRAL_LEN + nlen + xlen + clen;
    return GT_OK;
}

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const zr_entry *)a)->name, ((const zr_entry *)b)->name);
}

int zr_open(zr_archive *z, const char *path, const unsigned char *base, size_t size,
            gt_error *e)
{
    memset(z, 0, sizeof *z);
    dir d = {0, 0, 0};
    if (read_dir(path, base, size, &d, e))
        return GT_EINPUT;
    z->entry = calloc(d.count ? (size_t)d.count : 1, sizeof *z->entry);
    if (!z->entry)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    const unsigned char *p = base + d.offset, *cd_end = p + d.size;
    for (uint64_t i = 0; i < d.count; i++) {
        int rc = read_entry(path, base, size, &p, cd_end, &z->entry[z->n], e);
        if (rc) {
            zr_close(z);
            return rc;
        }
        z->n++;
    }
    qsort(z->entry, z->n, sizeof *z->entry, entry_cmp);
    for (size_t i = 1; i < z->n; i++)
        if (strcmp(z->entry[i].name, z->entry[i - 1].name) == 0) {
            int rc = gt_fail(e, GT_EINPUT, "%s: zip entry %.200s appears twice", path,
                             z->entry[i].name);
            zr_close(z);
            return rc;
        }
    return GT_OK;
}

void zr_close(zr_archive *z)
{
    for (size_t i = 0; i < z->n; i++)
        free(z->entry[i].name);
    free(z->entry);
    memset(z, 0, sizeof *z);
}

const zr_entry *zr_find(const zr_archive *z, const char *name)
{
    size_t lo = 0, hi = z->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(z->entry[mid].name, name);
        if (c == 0)
            return &z->entry[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *zr_unreadable(const zr_entry *en)
{
    if (en->flags & 1)
        return "is encrypted";
    if (en->method != 0)
        return "is compressed; torch.save stores its entries: was the file zipped again? Save "
               "it again with torch.save";
    return NULL;
}
