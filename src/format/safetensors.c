/* Reading a safetensors file (read into memory by the caller): parse the JSON header with jansson and
 * check every size before using it (overflow-checked). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/safetensors.h"

static const struct {
    const char *name;
    unsigned size;
    gt_dtype dtype;
} dtypes[] = {
    {"F64", 8, GT_F64},       {"F32", 4, GT_F32},        {"F16", 2, GT_F16},
    {"BF16", 2, GT_BF16},     {"I64", 8, GT_NONFLOAT},   {"U64", 8, GT_NONFLOAT},
    {"I32", 4, GT_NONFLOAT},  {"U32", 4, GT_NONFLOAT},   {"I16", 2, GT_NONFLOAT},
    {"U16", 2, GT_NONFLOAT},  {"I8", 1, GT_NONFLOAT},    {"U8", 1, GT_NONFLOAT},
    {"BOOL", 1, GT_NONFLOAT}, {"F8_E4M3", 1, GT_NONFLOAT}, {"F8_E5M2", 1, GT_NONFLOAT},
};

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Parses a JSON integer into a uint64; fails on anything else or a negative value. */
static int json_u64(const json_t *j, uint64_t *out)
{
    if (!json_is_integer(j))
        return -1;
    json_int_t v = json_integer_value(j);
    if (v < 0)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int st_outside(const char *path, const char *name, uint64_t end, uint64_t data_size,
               gt_error *e)
{
    return gt_fail(e, GT_EINPUT,
                   "%s: tensor %s: data_offsets end %llu is outside the file (%llu data bytes; "
                   "truncated?)",
                   path, name, (unsigned long long)end, (unsigned long long)data_size);
}

static int parse_tensor(st_file *f, const char *name, json_t *obj, uint64_t data_size,
                        const unsigned char *data, gt_tensor *t, uint64_t *begin,
                        uint64_t *end, gt_error *e)
{
    const char *p = f->path;
    if (!json_is_object(obj))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: header entry is not a JSON object", p, name);
    json_t *jd = json_object_get(obj, "dtype");
    json_t *js = json_object_get(obj, "shape");
    json_t *jo = json_object_get(obj, "data_offsets");
    if (!json_is_string(jd))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: missing or non-string dtype", p, name);
    if (!json_is_array(js))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: missing or non-array shape", p, name);
    if (!json_is_array(jo) || json_array_size(jo) != 2)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: data_offsets must be an array of two integers",
                       p, name);

    const char *dn = json_string_value(jd);
    unsigned esize = 0;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dn, dtypes[i].name) == 0) {
            esize = dtypes[i].size;
            t->dtype = dtypes[i].dtype;
            t->dtype_name = dtypes[i].name;
        }
    if (!esize)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: unknown dtype \"%.40s\"", p, name, dn);

    size_t nd = json_array_size(js);
    if (nd > ST_MAX_DIMS)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape has %zu dimensions (at most %d)", p,
                       name, nd, ST_MAX_DIMS);
    t->ndim = (int)nd;
    t->nelem = 1;
    for (size_t i = 0; i < nd; i++) {
        if (json_u64(json_array_get(js, i), &t->shape[i]))
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: shape entry %zu is not a non-negative integer", p,
                           name, i);
        if (__builtin_mul_overflow(t->nelem, t->shape[i], &t->nelem))
            return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape overflows (element count too large)",
                           p, name);
    }
    uint64_t nbytes;
    if (__builtin_mul_overflow(t->nelem, (uint64_t)esize, &nbytes))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape overflows (byte count too large)", p,
                       name);
    if (json_u64(json_array_get(jo, 0), begin) || json_u64(json_array_get(jo, 1), end))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: data_offsets must be non-negative integers",
                       p, name);
    if (*begin > *end)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: data_offsets begin %llu after end %llu", p,
                       name, (unsigned long long)*begin, (unsigned long long)*end);
    if (*end > data_size)
        return st_outside(p, name, *end, data_size, e);
    if (*end - *begin != nbytes)
        return gt_fail(e, GT_EINPUT,
                       "%s: tensor %s: data_offsets give %llu bytes but shape and dtype %s need %llu",
                       p, name, (unsigned long long)(*end - *begin), t->dtype_name,
                       (unsigned long long)nbytes);
    t->data = data + *begin;
    t->storage = t->data;
    t->esize = esize;
    tensor_set_contiguous(t);
    t->name = strdup(name);
    if (!t->name)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", p);
    return GT_OK;
}

static int parse_metadata(st_file *f, json_t *obj, gt_error *e)
{
    if (!json_is_object(obj))
        return gt_fail(e, GT_EINPUT, "%s: __metadata__ is not a JSON object", f->path);
    size_t n = json_object_size(obj);
    f->meta_key = calloc(n ? n : 1, sizeof *f->meta_key);
    f->meta_val = calloc(n ? n : 1, sizeof *f->meta_val);
    f->meta_len = calloc(n ? n : 1, sizeof *f->meta_len);
    if (!f->meta_key || !f->meta_val || !f->meta_len)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (!json_is_string(v))
            return gt_fail(e, GT_EINPUT, "%s: __metadata__ value of \"%.60s\" is not a string",
                           f->path, k);
        size_t len = json_string_length(v);
        char *val = malloc(len + 1);
        f->meta_key[f->nmeta] = strdup(k);
        f->meta_val[f->nmeta] = val;
        f->meta_len[f->nmeta] = len;
        f->nmeta++;
        if (!f->meta_key[f->nmeta - 1] || !val)
            return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
        memcpy(val, json_string_value(v), len);
        val[len] = 0;
    }
    return GT_OK;
}

struct span {
    uint64_t begin, end;
    size_t index;
};

static int span_cmp(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin ? 1 : 0;
}

static int parse_header(st_file *f, json_t *root, uint64_t data_size, const unsigned char *data,
                        gt_error *e)
{
    if (!json_is_object(root))
        return gt_fail(e, GT_EINPUT, "%s: header JSON is not an object", f->path);
    size_t n = json_object_size(root);
    f->tensor = calloc(n ? n : 1, sizeof *f->tensor);
    struct span *sp = calloc(n ? n : 1, sizeof *sp);
    if (!f->tensor || !sp) {
        free(sp);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    }
    int rc = GT_OK;
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (strcmp(k, "__metadata__") == 0) {
            rc = parse_metadata(f, v, e);
        } else {
            struct span *s = &sp[f->ntensor];
            rc = parse_tensor(f, k, v, data_size, data, &f->tensor[f->ntensor], &s->begin,
                              &s->end, e);
            s->index = f->ntensor;
            if (rc == GT_OK)
                f->ntensor++;
        }
        if (rc)
            break;
    }
    if (rc == GT_OK && f->ntensor > 1) {
        qsort(sp, f->ntensor, sizeof *sp, span_cmp);
        for (size_t i = 1; i < f->ntensor && rc == GT_OK; i++)
            if (sp[i].begin < sp[i - 1].end && sp[i].begin < sp[i].end)
                rc = gt_fail(e, GT_EINPUT, "%s: tensor %s: data_offsets overlap tensor %s",
                             f->path, f->tensor[sp[i].index].name,
                             f->tensor[sp[i - 1].index].name);
    }
    free(sp);
    return rc;
}

int st_header_len(const char *path, const unsigned char *b, size_t n, uint64_t file_size,
                  uint64_t *hlen, gt_error *e)
{
    *hlen = n >= 8 ? le64(b) : 0;
    if (n < 8 || file_size < 8)
        return gt_fail(e, GT_EINPUT,
                       "%s: file of %llu bytes is too short for a safetensors header", path,
                       (unsigned long long)file_size);
    if (*hlen > file_size - 8)
        return gt_fail(e, GT_EINPUT,
                       "%s: safetensors header length %llu runs past the end of the file (%llu "
                       "bytes): the file is truncated",
                       path, (unsigned long long)*hlen, (unsigned long long)file_size);
    if (*hlen > ST_MAX_HEADER)
        return gt_fail(e, GT_EINPUT, "%s: header of %llu bytes is larger than %u", path,
                       (unsigned long long)*hlen, ST_MAX_HEADER);
    return GT_OK;
}

uint64_t st_declared_size(const unsigned char *b, uint64_t hlen, char *name, size_t n)
{
    json_t *root = json_loadb((const char *)b + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, NULL);
    uint64_t end = 0;
    int ok = json_is_object(root);
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        uint64_t a;
        json_t *jo = json_object_get(v, "data_offsets");
        if (strcmp(k, "__metadata__") == 0)
            continue;
        if (!json_is_array(jo) || json_u64(json_array_get(jo, 1), &a))
            ok = 0;
        else if (a > end) {
            end = a;
            snprintf(name, n, "%s", k);
        }
    }
    json_decref(root);
    return ok && end <= UINT64_MAX - 8 - hlen ? 8 + hlen + end : 0;
}

int st_parse(st_file *f, const char *path, const unsigned char *base, size_t size, gt_error *e)
{
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    uint64_t hlen;
    int rc = st_header_len(path, base, size, size, &hlen, e);
    if (rc == GT_OK) {
        json_error_t jerr;
        json_t *root = json_loadb((const char *)base + 8, (size_t)hlen,
                                  JSON_REJECT_DUPLICATES, &jerr);
        if (!root) {
            rc = gt_fail(e, GT_EINPUT, "%s: header is not valid JSON (%s, at byte %d)", path,
                         jerr.text, jerr.position);
        } else {
            rc = parse_header(f, root, size - 8 - hlen, base + 8 + hlen, e);
            json_decref(root);
        }
    }
    if (rc)
        st_close(f);
    return rc;
}

void st_close(st_file *f)
{
    for (size_t i = 0; i < f->ntensor; i++)
        free(f->tensor[i].name);
    free(f->tensor);
    for (size_t i = 0; i < f->nmeta; i++) {
        free(f->meta_key[i]);
        free(f->meta_val[i]);
    }
    free(f->meta_key);
    free(f->meta_val);
    free(f->meta_len);
    free(f->path);
    memset(f, 0, sizeof *f);
}

const char *st_meta(const st_file *f, const char *key, size_t *len)
{
    for (size_t i = 0; i < f->nmeta; i++)
        if (strcmp(f->meta_key[i], key) == 0) {
            if (len)
                *len = f->meta_len[i];
            return f->meta_val[i];
        }
    return NULL;
}
