/* Opening a model file (modelfile.h): tell safetensors from torch.save's zip and legacy
 * formats by their first bytes, refuse anything else before the rest is read, read what the
 * format needs, and read that into named tensors and vocabularies. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/filekind.h"
#include "format/torchfile.h"
#include "format/torchfind.h"
#include "format/zipread.h"
#include "format/modelfile.h"
#include "format/npzfile.h"
#include "format/minchar.h"
#include "format/safetensors.h"
#include "gatetui/utf8.h"

static void free_vocabs(gt_modelfile *f)
{
    for (size_t i = 0; i < f->nvocab; i++) {
        for (size_t k = 0; k < f->vocab[i].ntok; k++)
            free(f->vocab[i].tok[k]);
        free(f->vocab[i].tok);
        free(f->vocab[i].where);
    }
    free(f->vocab);
    f->vocab = NULL;
    f->nvocab = 0;
}

/* The metadata "vocab" of a safetensors file: one token per code point. */
static int st_vocab(gt_modelfile *f, const st_file *st, gt_error *e)
{
    size_t len;
    const char *v = st_meta(st, "vocab", &len);
    if (!v)
        return GT_OK;
    f->vocab = calloc(1, sizeof *f->vocab);
    char **tok = calloc(len ? len : 1, sizeof *tok);
    if (!f->vocab || !tok) {
        free(tok);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    }
    f->nvocab = 1;
    f->vocab[0].tok = tok;
    f->vocab[0].where = strdup("metadata vocab");
    if (!f->vocab[0].where)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    for (size_t i = 0; i < len;) {
        uint32_t c;
        int n = utf8_decode((const unsigned char *)v + i, len - i, &c);
        if (c == UTF8_INVALID)
            return gt_fail(e, GT_EINPUT, "%s: metadata vocab is not valid UTF-8", f->path);
        if (!(tok[f->vocab[0].ntok] = strndup(v + i, (size_t)n)))
            return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
        f->vocab[0].ntok++;
        i += (size_t)n;
    }
    return GT_OK;
}

static int open_safetensors(gt_modelfile *f, gt_error *e)
{
    st_file *st = calloc(1, sizeof *st);
    if (!st)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    f->impl = st;
    f->format = GT_SAFETENSORS;
    size_t n;
    const unsigned char *b = filecopy_data(f->copy, &n);
    int rc = st_parse(st, f->path, b, n, e);
    if (rc)
        return rc;
    f->tensor = st->tensor;
    f->ntensor = st->ntensor;
    const char *r = st_meta(st, "gru_reset", NULL);
    if (r && !(f->gru_reset = strdup(r)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    const char *nl = st_meta(st, "nonlinearity", NULL);
    if (nl && !(f->nonlinearity = strdup(nl)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    return st_vocab(f, st, e);
}

/* The model and the vocabularies of a torch.save file read into t; t is closed after. */
static int from_torch(gt_modelfile *f, torch_file *t, gt_error *e)
{
    tf_named *named = NULL;
    size_t n = 0;
    int rc = tf_find_model(t->root, f->path, &named, &n, &f->where, e);
    if (rc == GT_OK && !(f->tensor = calloc(n ? n : 1, sizeof *f->tensor)))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    for (size_t i = 0; i < n; i++) {
        if (rc == GT_OK)
            torch_tensor(named[i].v, named[i].name, &f->tensor[f->ntensor++]);
        else
            free(named[i].name);
    }
    free(named);
    if (rc == GT_OK)
        rc = tf_find_vocabs(t->root, f->path, &f->vocab, &f->nvocab, &f->tokenizer, e);
    if (rc == GT_OK)
        rc = tf_find_string(t->root, f->path, "nonlinearity", &f->nonlinearity, e);
    if (rc == GT_OK) /* after the file's nonlinearity, which it leaves as it is */
        rc = minchar_names(f, e);
    if (rc == GT_OK)
        rc = tf_find_quantized(t->root, f->path, &f->quantized, &f->quant_dynamic, e);
    size_t wn = f->where ? strlen(f->where) : 0;
    if (rc == GT_OK && f->quantized && wn && strncmp(f->quantized, f->where, wn) == 0 &&
        f->quantized[wn] == '.') /* named as the model's tensors are */
        memmove(f->quantized, f->quantized + wn + 1, strlen(f->quantized + wn + 1) + 1);
    torch_close(t);
    return rc;
}

static int open_torch_zip(gt_modelfile *f, gt_error *e)
{
    zr_archive z;
    size_t n;
    const unsigned char *b = filecopy_data(f->copy, &n);
    int rc = zr_open(&z, f->path, b, n, e);
    if (rc)
        return rc;
    if (!filekind_is_torch_zip(&z)) {
        rc = filekind_is_npz(&z) ? npz_read(f, &z, e) : filekind_other_zip(&z, f->path, e);
        if (rc == GT_OK)
            rc = minchar_names(f, e);
        if (rc == GT_OK)
            rc = npz_check_model(f, e);
        zr_close(&z);
        return rc;
    }
    torch_file t;
    f->format = GT_TORCH_ZIP;
    rc = torch_open_zip(&t, f->path, &z, e);
    return rc ? rc : from_torch(f, &t, e);
}

static int open_torch_legacy(gt_modelfile *f, gt_error *e)
{
    torch_file t;
    f->format = GT_TORCH_LEGACY;
    size_t n;
    const unsigned char *b = filecopy_data(f->copy, &n);
    int rc = torch_open_legacy(&t, f->path, b, n, e);
    return rc ? rc : from_torch(f, &t, e);
}

/* The bytes a model may take in all: its file (read whole) and the float32 copies of the
 * tensors that cannot be used in place, at most MODEL_BYTES_FILES times the file plus
 * MODEL_BYTES_FLOOR. A view repeats its storage's bytes (expand() saves a stride of 0), so
 * a small file could otherwise ask for any amount; it is refused before anything is copied. */
#define MODEL_BYTES_FILES 8
#define MODEL_BYTES_FLOOR (64ull << 20)
static int within_bound(const gt_modelfile *f, gt_error *e)
{
    size_t n; /* the bytes read */
    filecopy_data(f->copy, &n);
    unsigned long long file = n, total = file; /* in bytes */
    unsigned long long bound = MODEL_BYTES_FILES * file + MODEL_BYTES_FLOOR;
    for (size_t i = 0; i < f->ntensor && total <= bound; i++)
        if (!tensor_direct_f32(&f->tensor[i]))
            total += f->tensor[i].nelem > bound / 4 ? bound + 1 : f->tensor[i].nelem * 4;
    if (total <= bound)
        return GT_OK;
    return gt_fail(e, GT_EINPUT,
                   "%s: its tensors would take more than %llu MB as float32 (at most %d times "
                   "the file plus %llu MB); views of a small storage, such as expand()'s, are "
                   "copied out whole: save the tensors with .contiguous() or .clone()",
                   f->path, bound >> 20, MODEL_BYTES_FILES, MODEL_BYTES_FLOOR >> 20);
}

/* The bytes of a safetensors file to read: its header and the data it declares (what
 * follows is never read); a header that declares more than the file holds is refused. */
static int safetensors_size(gt_modelfile *f, const unsigned char *head, size_t n,
                            size_t *want, gt_error *e)
{
    const unsigned long long size = filecopy_bytes(f->copy);
    uint64_t hlen;
    int rc = st_header_len(f->path, head, n, size, &hlen, e);
    if (rc)
        return rc;
    unsigned char *h = n >= 8 + hlen ? NULL : malloc(8 + (size_t)hlen);
    if (n < 8 + hlen && !h)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for its header", f->path);
    if (h && (rc = filecopy_peek(f->copy, 0, h, 8 + (size_t)hlen, f->path, e))) {
        free(h);
        return rc;
    }
    char name[256] = "";
    uint64_t need = st_declared_size(h ? h : head, hlen, name, sizeof name);
    free(h);
    if (need > size) /* truncated: said before its bytes are read */
        return st_outside(f->path, name, need - 8 - hlen, size - 8 - hlen, e);
    *want = need ? (size_t)need : (size_t)size;
    return GT_OK;
}

/* How much of the file to read, from its first bytes (and a zip archive's last): what is
 * not a model is refused from them, before anything large is read; a safetensors file's
 * header and its data; the rest of the other formats whole. */
static int size_to_read(gt_modelfile *f, size_t *want, gt_error *e)
{
    unsigned char head[4096 + 8]; /* the 4 KiB filekind_describe looks at, and a little more */
    const unsigned long long size = filecopy_bytes(f->copy);
    const size_t n = size < sizeof head ? (size_t)size : sizeof head;
    int rc = filecopy_peek(f->copy, 0, head, n, f->path, e);
    *want = (size_t)size;
    if (rc || torch_looks_legacy(head, n))
        return rc;
    if (zr_looks_like_zip(head, n)) {
        const size_t tn = size < ZR_TAIL ? (size_t)size : ZR_TAIL;
        unsigned char *tail = malloc(tn ? tn : 1);
        if (!tail)
            return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
        rc = filecopy_peek(f->copy, size - tn, tail, tn, f->path, e);
        if (rc == GT_OK)
            rc = zr_check_end(f->path, tail, tn, e);
        free(tail);
        return rc;
    }
    if (filekind_is_safetensors(head, n))
        return safetensors_size(f, head, n, want, e);
    return filekind_describe(head, n, f->path, e);
}

int modelfile_open(gt_modelfile *f, const char *path, gt_error *e)
{
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    size_t want = 0;
    int rc = filecopy_open(&f->copy, path, e);
    const unsigned long long bytes = rc == GT_OK ? filecopy_bytes(f->copy) : 0;
    if (rc == GT_OK && (unsigned long long)(size_t)bytes != bytes)
        rc = gt_fail(e, GT_EINPUT, "%s: too large to read", path);
    if (rc == GT_OK)
        rc = size_to_read(f, &want, e);
    if (rc == GT_OK)
        rc = filecopy_read(f->copy, want, path, e);
    if (rc == GT_OK) {
        size_t n;
        const unsigned char *b = filecopy_data(f->copy, &n);
        if (zr_looks_like_zip(b, n))
            rc = open_torch_zip(f, e);
        else if (torch_looks_legacy(b, n))
            rc = open_torch_legacy(f, e);
        else if (filekind_is_safetensors(b, n))
            rc = open_safetensors(f, e);
        else
            rc = filekind_describe(b, n, path, e);
    }
    if (rc == GT_OK)
        rc = within_bound(f, e);
    if (rc)
        modelfile_close(f);
    return rc;
}

void modelfile_close(gt_modelfile *f)
{
    if (f->format == GT_SAFETENSORS && f->impl) {
        st_close(f->impl);
    } else {
        for (size_t i = 0; i < f->ntensor; i++)
            free(f->tensor[i].name);
        free(f->tensor);
    }
    free(f->impl);
    free_vocabs(f);
    free(f->where);
    free(f->gru_reset);
    free(f->nonlinearity);
    free(f->tokenizer);
    free(f->quantized);
    free(f->synthetic);
    filecopy_free(f->copy);
    free(f->path);
    memset(f, 0, sizeof *f);
}

const gt_tensor *modelfile_find(const gt_modelfile *f, const char *name)
{
    for (size_t i = 0; i < f->ntensor; i++)
        if (strcmp(f->tensor[i].name, name) == 0)
            return &f->tensor[i];
    return NULL;
}

