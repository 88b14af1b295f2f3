/* A NumPy archive (np.savez: a zip of .npy entries) read as a model file (npzfile.h,
 * doc/model-files.md, "min-char-rnn and NumPy archives"): each float array a tensor named
 * as its entry (the name given to np.savez), in place in the file; a one-dimensional array
 * of strings under a vocabulary's name (chars, vocab, itos, ...) a vocabulary. Object
 * arrays (pickles) are never read. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/npzfile.h"
#include "format/torchfind.h"
#include "base/bytes.h"
#include "gatetui/utf8.h"

/* The value of 'key' in the header's dict: the text after "'key': ". */
static const char *header_value(const char *h, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s':", key);
    const char *p = strstr(h, pat);
    if (!p)
        return NULL;
    for (p += strlen(pat); *p == ' '; p++)
        ;
    return p;
}

/* An array's dtype, order and shape from its .npy header (format versions 1 to 3). */
typedef struct npy {
    char descr[16];
    int fortran, ndim;
    uint64_t shape[GT_MAX_DIMS];
    const unsigned char *data;
    uint64_t bytes; /* what follows the header */
} npy;

static int parse_shape(const char *p, npy *a)
{
    if (!p || *p != '(')
        return -1;
    a->ndim = 0;
    for (p++; *p && *p != ')';) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || a->ndim == GT_MAX_DIMS)
            return -1;
        a->shape[a->ndim++] = v;
        for (p = end; *p == ' ' || *p == ','; p++)
            ;
    }
    return *p == ')' ? 0 : -1;
}

static const char *parse_npy(const zr_entry *en, npy *a)
{
    const unsigned char *b = en->data;
    if (en->size < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
        return "is not a .npy array";
    const size_t at = b[6] == 1 ? 10 : 12;
    if (b[6] < 1 || b[6] > 3 || en->size < at)
        return "is a .npy array of a format version gatetui does not know";
    const uint64_t hlen = at == 10 ? load_le(b + 8, 2) : load_le(b + 8, 4);
    if (hlen > en->size - at || hlen > 65536)
        return "has a .npy header that runs past the entry (truncated)";
    char h[65537];
    memcpy(h, b + at, (size_t)hlen);
    h[hlen] = 0;
    const char *d = header_value(h, "descr"), *fo = header_value(h, "fortran_order");
    size_t dn = d && *d == '\'' ? strcspn(d + 1, "'") : 0;
    if (!dn || dn >= sizeof a->descr || !fo || parse_shape(header_value(h, "shape"), a))
        return "has a .npy header without its descr, fortran_order and shape";
    memcpy(a->descr, d + 1, dn);
    a->descr[dn] = 0;
    a->fortran = strncmp(fo, "True", 4) == 0;
    a->data = b + at + hlen;
    a->bytes = en->size - at - hlen;
    return NULL;
}

static const struct {
    const char *descr;
    gt_dtype dtype;
    unsigned esize;
} float_types[] = {{"<f8", GT_F64, 8}, {"<f4", GT_F32, 4}, {"<f2", GT_F16, 2}};

/* A's elements as a tensor named name: row-major, or column-major for fortran_order. */
static const char *as_tensor(const npy *a, char *name, gt_tensor *t)
{
    size_t k = 0, nt = sizeof float_types / sizeof float_types[0];
    while (k < nt && strcmp(a->descr, float_types[k].descr) != 0)
        k++;
    memset(t, 0, sizeof *t);
    t->name = name;
    t->dtype = k < nt ? float_types[k].dtype : GT_NONFLOAT;
    t->esize = k < nt ? float_types[k].esize : (unsigned)atoi(a->descr + 2);
    if (t->esize == 0)
        t->esize = 1;
    t->dtype_name = k < nt ? float_types[k].descr + 1 : "a NumPy dtype other than float";
    t->ndim = a->ndim;
    memcpy(t->shape, a->shape, sizeof t->shape);
    uint64_t n = 1, stride = 1;
    for (int i = 0; i < a->ndim; i++)
        if (__builtin_mul_overflow(n, a->shape[i], &n))
            return "has a shape whose size overflows";
    if (__builtin_mul_overflow(n, (uint64_t)t->esize, &stride) || stride > a->bytes)
        return "holds fewer bytes than its shape needs (truncated)";
    stride = 1;
    for (int i = 0; i < a->ndim; i++) {
        int d = a->fortran ? i : a->ndim - 1 - i;
        t->stride[d] = stride;
        stride *= a->shape[d];
    }
    t->nelem = n;
    t->data = t->storage = a->data;
    return NULL;
}

/* A one-dimensional array of strings ('<U<k>': k UTF-32 code points each, NULs at the end
 * dropped) as the vocabulary v. */
static int as_vocab(const npy *a, const char *name, gt_vocab_found *v, const char *path,
                    gt_error *e)
{
    char *end;
    unsigned long k = strtoul(a->descr + 2, &end, 10);
    uint64_t n = a->ndim == 1 ? a->shape[0] : 0;
    if (*end || k == 0 || k > 64 || n == 0 || n > GT_MAX_VOCAB || n * k * 4 > a->bytes)
        return gt_fail(e, GT_EINPUT, "%s: array %s: strings of %s, shape not one list of at "
                       "most %d strings", path, name, a->descr, GT_MAX_VOCAB);
    if (!(v->tok = calloc((size_t)n, sizeof *v->tok)) || !(v->where = malloc(strlen(name) + 32)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    sprintf(v->where, "\"%s\" in the archive", name);
    for (uint64_t i = 0; i < n; i++) {
        char buf[64 * 4 + 1];
        size_t len = 0;
        for (unsigned long c = 0; c < k; c++) {
            uint32_t cp = (uint32_t)load_le(a->data + (i * k + c) * 4, 4);
            if (cp == 0)
                break;
            int w = utf8_encode(cp, buf + len);
            if (w <= 0)
                return gt_fail(e, GT_EINPUT, "%s: array %s: U+%X is not a character", path,
                               name, cp);
            len += (size_t)w;
        }
        if (!(v->tok[i] = strndup(buf, len)))
            return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
        v->ntok++;
    }
    return GT_OK;
}

/* Entry en, named name (its name less ".npy"): a tensor, a vocabulary, or passed over. */
static int read_entry(gt_modelfile *f, const zr_entry *en, char *name, gt_error *e)
{
    npy a;
    const char *bad = zr_unreadable(en)
                          ? "is compressed (np.savez_compressed): save the arrays with np.savez"
                          : parse_npy(en, &a);
    if (!bad && a.descr[0] == '>')
        bad = "is big-endian: gatetui reads little-endian arrays";
    if (!bad && strncmp(a.descr, "<U", 2) == 0 && tf_vocab_key(name)) {
        int rc = as_vocab(&a, name, &f->vocab[f->nvocab], f->path, e);
        f->nvocab++;
        free(name);
        return rc;
    }
    if (!bad && strchr("<|", a.descr[0]) && a.descr[1] != 'O' && a.descr[1] != 'U')
        bad = as_tensor(&a, name, &f->tensor[f->ntensor]);
    else if (!bad) { /* objects (pickles) and other strings: not read */
        free(name);
        return GT_OK;
    }
    if (bad) {
        gt_fail(e, GT_EINPUT, "%s: NumPy array %s %s", f->path, name, bad);
        free(name);
        return GT_EINPUT;
    }
    f->ntensor++;
    return GT_OK;
}

int npz_read(gt_modelfile *f, const zr_archive *z, gt_error *e)
{
    f->format = GT_NPZ;
    f->tensor = calloc(z->n ? z->n : 1, sizeof *f->tensor);
    f->vocab = calloc(z->n ? z->n : 1, sizeof *f->vocab);
    if (!f->tensor || !f->vocab)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    for (size_t i = 0; i < z->n; i++) {
        const char *n = z->entry[i].name;
        size_t len = strlen(n);
        if (len <= 4 || strcmp(n + len - 4, ".npy") != 0)
            continue;
        char *name = strndup(n, len - 4);
        if (!name)
            return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
        int rc = read_entry(f, &z->entry[i], name, e);
        if (rc)
            return rc;
    }
    return GT_OK;
}

int npz_check_model(const gt_modelfile *f, gt_error *e)
{
    char some[200];
    for (size_t i = 0; i < f->ntensor; i++)
        if (strstr(f->tensor[i].name, "weight_ih"))
            return GT_OK;
    tensor_names(f->tensor, f->ntensor, some, sizeof some);
    return gt_fail(e, GT_EINPUT,
                   "%s: a NumPy archive (.npz) of %zu array%s (%s), neither min-char-rnn's "
                   "(Wxh, Whh, Why, bh, by) nor a state_dict's names (weight_ih_l0, ...): "
                   "not a model gatetui reads",
                   f->path, f->ntensor, f->ntensor == 1 ? "" : "s", some);
}
