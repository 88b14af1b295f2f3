/* Reading a torch.save file (torchfile.h): the zip format's data.pkl and storage entries,
 * or the legacy format's pickles and storage blocks; each storage's bytes checked against
 * the file before a tensor points into them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/torchfile.h"
#include "base/bytes.h"

#define MAX_STORAGES (1u << 20)

static const struct {
    const char *type, *name;
    gt_dtype dtype;
    unsigned esize;
} storage_types[] = {
    {"FloatStorage", "float32", GT_F32, 4},        {"DoubleStorage", "float64", GT_F64, 8},
    {"HalfStorage", "float16", GT_F16, 2},         {"BFloat16Storage", "bfloat16", GT_BF16, 2},
    {"LongStorage", "int64", GT_NONFLOAT, 8},      {"IntStorage", "int32", GT_NONFLOAT, 4},
    {"ShortStorage", "int16", GT_NONFLOAT, 2},     {"CharStorage", "int8", GT_NONFLOAT, 1},
    {"ByteStorage", "uint8", GT_NONFLOAT, 1},      {"BoolStorage", "bool", GT_NONFLOAT, 1},
    {"ComplexFloatStorage", "complex64", GT_NONFLOAT, 8},
    {"ComplexDoubleStorage", "complex128", GT_NONFLOAT, 16},
    {"QInt8Storage", "qint8", GT_NONFLOAT, 1},     {"QUInt8Storage", "quint8", GT_NONFLOAT, 1},
    {"QInt32Storage", "qint32", GT_NONFLOAT, 4},   {"QUInt4x2Storage", "quint4x2", GT_NONFLOAT, 1},
    {"QUInt2x4Storage", "quint2x4", GT_NONFLOAT, 1}, {"UntypedStorage", "uint8", GT_NONFLOAT, 1},
};

/* A storage from a persistent id ('storage', type, key, location, numel, ...). */
static pk_value *new_storage(torch_file *t, pk_machine *pm, const pk_value *pid)
{
    const pk_value *type = pid->u.seq.v[1], *key = pid->u.seq.v[2];
    int64_t numel;
    if (type->kind != PK_GLOBAL || key->kind != PK_STR || key->u.str.n > 256 ||
        pk_int(pid->u.seq.v[4], &numel) || numel < 0) {
        pk_fail(pm, "a storage reference that is not what torch.save writes");
        return NULL;
    }
    size_t k = 0, nt = sizeof storage_types / sizeof storage_types[0];
    while (k < nt && strcmp(type->u.global.name, storage_types[k].type) != 0)
        k++;
    if (k == nt || strncmp(type->u.global.module, "torch", 5) != 0) {
        pk_fail(pm, "storage type %.60s.%.60s is not one gatetui knows", type->u.global.module,
                type->u.global.name);
        return NULL;
    }
    if (t->nstorage >= MAX_STORAGES) {
        pk_fail(pm, "more than %u storages", MAX_STORAGES);
        return NULL;
    }
    if (grow_array(&t->storage, &t->storage_cap, t->nstorage, sizeof *t->storage, 64)) {
        pk_fail(pm, "out of memory");
        return NULL;
    }
    pk_storage *s = pk_bytes(pm, sizeof *s);
    pk_value *v = s ? pk_alloc(pm, PK_STORAGE) : NULL;
    char *kc = v ? pk_strdup(pm, key->u.str.s, key->u.str.n) : NULL;
    if (!kc)
        return NULL;
    *s = (pk_storage){storage_types[k].dtype, storage_types[k].esize, storage_types[k].name, kc,
                      (uint64_t)numel, 0, NULL};
    v->u.storage = s;
    t->storage[t->nstorage++] = v;
    return v;
}

static int is_storage_pid(const pk_value *pid, size_t min)
{
    return pid->kind == PK_TUPLE && pid->u.seq.n >= min && pk_is_str(pid->u.seq.v[0], "storage");
}

/* ---- the zip format ---- */

static pk_value *zip_persistent(void *ctx, pk_machine *pm, pk_value *pid)
{
    torch_file *t = ctx;
    if (!is_storage_pid(pid, 5)) {
        pk_fail(pm, "a persistent id that is not a storage");
        return NULL;
    }
    pk_value *v = new_storage(t, pm, pid);
    if (!v)
        return NULL;
    pk_storage *s = v->u.storage;
    char name[400];
    snprintf(name, sizeof name, "%sdata/%s", t->prefix, s->key);
    const zr_entry *en = zr_find(&t->zip, name);
    if (!en) {
        pk_fail(pm, "storage %.60s has no entry %.200s in the archive", s->key, name);
        return NULL;
    }
    if (zr_unreadable(en)) {
        pk_fail(pm, "zip entry %.200s %s", name, zr_unreadable(en));
        return NULL;
    }
    uint64_t need;
    if (__builtin_mul_overflow(s->nelem, (uint64_t)s->esize, &need) || en->size < need) {
        pk_fail(pm, "storage %.60s: %llu %s values need more than the %llu bytes of %.200s",
                s->key, (unsigned long long)s->nelem, s->dtype_name,
                (unsigned long long)en->size, name);
        return NULL;
    }
    s->data = en->data;
    return v;
}

/* The archive's folder: the one holding data.pkl. */
static int find_prefix(torch_file *t, gt_error *e)
{
    const zr_entry *pkl = NULL;
    for (size_t i = 0; i < t->zip.n; i++) {
        const char *n = t->zip.entry[i].name, *slash = strchr(n, '/');
        if (slash && strcmp(slash + 1, "data.pkl") == 0) {
            if (pkl)
                return gt_fail(e, GT_EINPUT, "%s: two data.pkl in the archive (%.100s, %.100s)",
                               t->path, pkl->name, n);
            pkl = &t->zip.entry[i];
        }
    }
    if (!pkl)
        return gt_fail(e, GT_EINPUT, "%s: a zip archive without data.pkl", t->path);
    size_t n = strlen(pkl->name) - strlen("data.pkl");
    t->prefix = strndup(pkl->name, n);
    if (!t->prefix)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", t->path);
    char name[400];
    snprintf(name, sizeof name, "%sbyteorder", t->prefix);
    const zr_entry *bo = zr_find(&t->zip, name);
    if (bo && zr_unreadable(bo))
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.200s %s", t->path, bo->name,
                       zr_unreadable(bo));
    if (bo && bo->size == 3 && memcmp(bo->data, "big", 3) == 0)
        return gt_fail(e, GT_EINPUT, "%s: saved on a big-endian machine; gatetui reads "
                                     "little-endian files",
                       t->path);
    if (bo && !(bo->size == 6 && memcmp(bo->data, "little", 6) == 0))
        return gt_fail(e, GT_EINPUT, "%s: its byteorder entry says neither little nor big: a "
                                     "damaged file",
                       t->path);
    if (zr_unreadable(pkl))
        return gt_fail(e, GT_EINPUT, "%s: zip entry %.200s %s", t->path, pkl->name,
                       zr_unreadable(pkl));
    return GT_OK;
}

int torch_open_zip(torch_file *t, const char *path, zr_archive *z, gt_error *e)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->zip = *z;
    memset(z, 0, sizeof *z);
    int rc = find_prefix(t, e);
    if (rc == GT_OK && !(t->pm = pk_new(path, e)))
        rc = GT_EFAIL;
    if (rc == GT_OK) {
        char name[400];
        snprintf(name, sizeof name, "%sdata.pkl", t->prefix);
        const zr_entry *pkl = zr_find(&t->zip, name);
        size_t used;
        rc = pk_run(t->pm, "data.pkl", pkl->data, (size_t)pkl->size, &used, &t->root,
                    zip_persistent, t);
    }
    if (rc)
        torch_close(t);
    return rc;
}

/* ---- the legacy format ---- */

/* PyTorch's magic number, 0x1950a86a20f9469cfc6c: as LONG1 (protocols 2 to 5, after PROTO
 * and perhaps a FRAME) or as text (protocol 1). */
static const unsigned char magic_long1[] = {0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9,
                                            0x20, 0x6a, 0xa8, 0x50, 0x19, '.'};
static const char magic_text[] = "L119547037146038801333356L\n.";

size_t torch_looks_legacy(const unsigned char *b, size_t size)
{
    size_t at = 0;
    if (size >= sizeof magic_text - 1 && memcmp(b, magic_text, sizeof magic_text - 1) == 0)
        return sizeof magic_text - 1;
    if (size >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5)
        at = 2;
    if (at && size >= at + 9 && b[at] == 0x95)
        at += 9; /* FRAME and its length */
    if (at && size - at >= sizeof magic_long1 && memcmp(b + at, magic_long1, sizeof magic_long1) == 0)
        return at + sizeof magic_long1;
    return 0;
}

static pk_value *legacy_persistent(void *ctx, pk_machine *pm, pk_value *pid)
{
    torch_file *t = ctx;
    /* ('module', class, source file, source): the legacy format's record of a module's class */
    if (pid->kind == PK_TUPLE && pid->u.seq.n >= 2 && pk_is_str(pid->u.seq.v[0], "module") &&
        pid->u.seq.v[1]->kind == PK_GLOBAL)
        return pid->u.seq.v[1];
    if (!is_storage_pid(pid, 6)) {
        pk_fail(pm, "a persistent id that is not a storage");
        return NULL;
    }
    pk_value *v = new_storage(t, pm, pid);
    if (!v)
        return NULL;
    const pk_value *view = pid->u.seq.v[5];
    if (view->kind == PK_NONE)
        return v;
    /* (view key, offset, size): a view of the root storage */
    int64_t off, n;
    pk_storage *s = v->u.storage;
    if (view->kind != PK_TUPLE || view->u.seq.n != 3 || pk_int(view->u.seq.v[1], &off) ||
        pk_int(view->u.seq.v[2], &n) || off < 0 || n < 0 || (uint64_t)off > s->nelem ||
        (uint64_t)n > s->nelem - (uint64_t)off) {
        pk_fail(pm, "a storage view outside its storage");
        return NULL;
    }
    s->offset = (uint64_t)off;
    s->nelem = (uint64_t)n;
    return v;
}

static int key_cmp(const void *a, const void *b)
{
    const pk_value *x = *(pk_value *const *)a, *y = *(pk_value *const *)b;
    return strcmp(x->u.storage->key, y->u.storage->key);
}

/* The storages' bytes: for each key of the list, 8 bytes of element count, then the
 * elements. Every storage made by the pickle gets its data here. */
static int legacy_data(torch_file *t, const pk_value *keys, const unsigned char *p,
                       const unsigned char *end, gt_error *e)
{
    if (keys->kind != PK_LIST)
        return gt_fail(e, GT_EINPUT, "%s: the legacy storage list is not a list", t->path);
    if (t->nstorage)
        qsort(t->storage, t->nstorage, sizeof *t->storage, key_cmp);
    for (size_t k = 0; k < keys->u.seq.n; k++) {
        const pk_value *key = keys->u.seq.v[k];
        if (key->kind != PK_STR || key->u.str.n > 256)
            return gt_fail(e, GT_EINPUT, "%s: a legacy storage key that is not a string", t->path);
        char kc[260];
        memcpy(kc, key->u.str.s, key->u.str.n);
        kc[key->u.str.n] = 0;
        size_t lo = 0, hi = t->nstorage;
        while (lo < hi) { /* the first storage with this key */
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(t->storage[mid]->u.storage->key, kc) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == t->nstorage || strcmp(t->storage[lo]->u.storage->key, kc) != 0)
            return gt_fail(e, GT_EINPUT, "%s: storage %.60s is listed but no tensor uses it",
                           t->path, kc);
        unsigned esize = t->storage[lo]->u.storage->esize;
        if (end - p < 8)
            return gt_fail(e, GT_EINPUT, "%s: the file ends before storage %.60s (truncated)",
                           t->path, kc);
        uint64_t count = load_le(p, 8), bytes;
        p += 8;
        if (__builtin_mul_overflow(count, (uint64_t)esize, &bytes) ||
            bytes > (uint64_t)(end - p))
            return gt_fail(e, GT_EINPUT, "%s: storage %.60s: %llu elements run past the end of "
                                         "the file (truncated)",
                           t->path, kc, (unsigned long long)count);
        for (size_t i = lo; i < t->nstorage && strcmp(t->storage[i]->u.storage->key, kc) == 0;
             i++) {
            pk_storage *s = t->storage[i]->u.storage;
            if (s->esize != esize || s->offset > count || s->nelem > count - s->offset)
                return gt_fail(e, GT_EINPUT, "%s: storage %.60s: a tensor reaches past its %llu "
                                             "elements",
                               t->path, kc, (unsigned long long)count);
            s->data = p + s->offset * esize;
        }
        p += bytes;
    }
    for (size_t i = 0; i < t->nstorage; i++)
        if (!t->storage[i]->u.storage->data)
            return gt_fail(e, GT_EINPUT, "%s: storage %.60s has no data in the file", t->path,
                           t->storage[i]->u.storage->key);
    return GT_OK;
}

/* The pickles before the data: the magic number (checked by torch_looks_legacy), the
 * protocol version, the system's description, the object itself, the list of storage
 * keys. */
static int legacy_pickles(torch_file *t, const unsigned char *base, size_t size, gt_error *e)
{
    static const char *what[] = {"magic number", "protocol version", "system info", "pickle",
                                 "storage list"};
    size_t pos = torch_looks_legacy(base, size);
    pk_value *v[5];
    for (int i = 1; i < 5; i++) {
        size_t used;
        int rc = pk_run(t->pm, what[i], base + pos, size - pos, &used, &v[i],
                        i == 3 ? legacy_persistent : NULL, t);
        if (rc)
            return rc;
        pos += used;
        int64_t n;
        if (i == 1 && (pk_int(v[1], &n) || n != 1001))
            return gt_fail(e, GT_EINPUT, "%s: legacy torch.save protocol version is not 1001",
                           t->path);
        if (i == 2 && v[2]->kind == PK_DICT) {
            const pk_value *le = pk_dict_get(v[2], "little_endian");
            if (le && le->kind == PK_BOOL && !le->u.i)
                return gt_fail(e, GT_EINPUT, "%s: saved on a big-endian machine; gatetui reads "
                                             "little-endian files",
                               t->path);
        }
    }
    t->root = v[3];
    return legacy_data(t, v[4], base + pos, base + size, e);
}

int torch_open_legacy(torch_file *t, const char *path, const unsigned char *base, size_t size,
                      gt_error *e)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->legacy = 1;
    int rc = (t->pm = pk_new(path, e)) ? legacy_pickles(t, base, size, e) : GT_EFAIL;
    if (rc)
        torch_close(t);
    return rc;
}

void torch_close(torch_file *t)
{
    pk_free(t->pm);
    zr_close(&t->zip);
    free(t->prefix);
    free(t->storage);
    memset(t, 0, sizeof *t);
}

void torch_tensor(const pk_value *v, char *name, gt_tensor *out)
{
    const pk_tensor *pt = v->u.tensor;
    const pk_storage *s = pt->storage->u.storage;
    memset(out, 0, sizeof *out);
    out->name = name;
    out->dtype = s->dtype;
    out->dtype_name = s->dtype_name;
    out->esize = s->esize;
    out->ndim = pt->ndim;
    memcpy(out->shape, pt->shape, sizeof out->shape);
    memcpy(out->stride, pt->stride, sizeof out->stride);
    out->nelem = pt->nelem;
    out->data = s->data + pt->offset * s->esize;
    out->storage = s->data;
}
