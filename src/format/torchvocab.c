/* The vocabularies a torch.save file keeps (torchfind.h): under any key that names one
 * (vocab, chars, itos, idx2char, int2char, alphabet, char2idx, stoi, ...), at any depth, in
 * dicts and in objects' attributes; a string (one token per character), a list of strings,
 * a dict index -> string or a dict string -> index. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/torchfind.h"
#include "format/modelfile.h"
#include "gatetui/utf8.h"

#define MAX_FOUND 64

/* Parts of the keys a vocabulary is kept under. */
static const char *const key_parts[] = {
    "vocab", "char", "itos", "stoi", "alphabet", "symbol", "token", "letter", "i2c",  "c2i",
    "idx2",  "2idx", "int2", "2int", "ix2",      "2ix",    "id2",   "2id",    "itoc", "ctoi",
};

int tf_vocab_key(const char *key)
{
    char low[64];
    size_t n = strlen(key);
    if (n >= sizeof low)
        return 0;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)key[i]);
    if (strstr(low, "emb"))
        return 0;
    for (size_t i = 0; i < sizeof key_parts / sizeof key_parts[0]; i++)
        if (strstr(low, key_parts[i]))
            return 1;
    return 0;
}

typedef struct found {
    tf_walker w; /* first: the walk's visit gets it */
    gt_vocab_found *v;
    size_t n;
    char *tokenizer; /* where the first sub-word tokenizer is, or NULL */
    const char *path;
    gt_error *e;
} found;

static void free_tokens(char **tok, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(tok[i]);
    free(tok);
}

static char *copy_str(const pk_value *s)
{
    return strndup(s->u.str.s, s->u.str.n);
}

/* A string: one token per code point (invalid UTF-8: not a vocabulary). */
static char **from_string(const pk_value *s, size_t *n)
{
    size_t cap = s->u.str.n, k = 0;
    if (cap == 0 || cap > 4 * (size_t)GT_MAX_VOCAB)
        return NULL;
    char **tok = calloc(cap, sizeof *tok);
    for (size_t i = 0; tok && i < s->u.str.n;) {
        uint32_t cp;
        int len = utf8_decode((const unsigned char *)s->u.str.s + i, s->u.str.n - i, &cp);
        if (cp == UTF8_INVALID || !(tok[k] = strndup(s->u.str.s + i, (size_t)len))) {
            free_tokens(tok, k);
            return NULL;
        }
        k++;
        i += (size_t)len;
    }
    *n = k;
    return tok;
}

/* A list or tuple of strings. */
static char **from_list(const pk_value *l, size_t *n)
{
    if (l->u.seq.n == 0 || l->u.seq.n > GT_MAX_VOCAB)
        return NULL;
    for (size_t i = 0; i < l->u.seq.n; i++)
        if (l->u.seq.v[i]->kind != PK_STR)
            return NULL;
    char **tok = calloc(l->u.seq.n, sizeof *tok);
    for (size_t i = 0; tok && i < l->u.seq.n; i++)
        if (!(tok[i] = copy_str(l->u.seq.v[i]))) {
            free_tokens(tok, i);
            return NULL;
        }
    *n = l->u.seq.n;
    return tok;
}

/* A dict index -> string, or string -> index (which is turned around). Indices must be
 * distinct, from 0; one missing is a token the file does not name. */
static char **from_dict(const pk_value *d, size_t *n)
{
    size_t pairs = d->u.seq.n / 2;
    if (pairs == 0 || pairs > GT_MAX_VOCAB)
        return NULL;
    int by_index = d->u.seq.v[0]->kind == PK_INT;
    int64_t max = -1;
    for (size_t i = 0; i < pairs; i++) {
        const pk_value *k = d->u.seq.v[2 * i], *v = d->u.seq.v[2 * i + 1];
        const pk_value *idx = by_index ? k : v, *str = by_index ? v : k;
        if (idx->kind != PK_INT || str->kind != PK_STR || idx->u.i < 0 ||
            idx->u.i >= GT_MAX_VOCAB)
            return NULL;
        if (idx->u.i > max)
            max = idx->u.i;
    }
    char **tok = calloc((size_t)max + 1, sizeof *tok);
    for (size_t i = 0; tok && i < pairs; i++) {
        const pk_value *k = d->u.seq.v[2 * i], *v = d->u.seq.v[2 * i + 1];
        const pk_value *idx = by_index ? k : v, *str = by_index ? v : k;
        if (tok[idx->u.i] || !(tok[idx->u.i] = copy_str(str))) {
            free_tokens(tok, (size_t)max + 1);
            return NULL;
        }
    }
    *n = (size_t)max + 1;
    return tok;
}

static int try_value(found *f, const pk_value *v, const char *where)
{
    const pk_value *c = v->kind == PK_OBJECT && v->u.obj.items ? v->u.obj.items : v;
    char **tok = NULL;
    size_t n = 0;
    if (c->kind == PK_STR)
        tok = from_string(c, &n);
    else if (c->kind == PK_LIST || c->kind == PK_TUPLE)
        tok = from_list(c, &n);
    else if (c->kind == PK_DICT)
        tok = from_dict(c, &n);
    if (!tok)
        return GT_OK;
    if (f->n >= MAX_FOUND) {
        free_tokens(tok, n);
        return GT_OK;
    }
    gt_vocab_found *nv = realloc(f->v, (f->n + 1) * sizeof *nv);
    char *w = malloc(strlen(where) + 16);
    if (!nv || !w) {
        free(w);
        free_tokens(tok, n);
        if (nv)
            f->v = nv;
        return gt_fail(f->e, GT_EFAIL, "%s: out of memory", f->path);
    }
    f->v = nv;
    sprintf(w, "\"%s\" in the file", where);
    f->v[f->n++] = (gt_vocab_found){w, tok, n};
    return GT_OK;
}

static int has_part(const char *s, const char *const *part, size_t nparts)
{
    char low[64];
    size_t n = strlen(s);
    if (n >= sizeof low)
        n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
    low[n] = 0;
    for (size_t i = 0; i < nparts; i++)
        if (strstr(low, part[i]))
            return 1;
    return 0;
}

#define HAS_PART(s, parts) has_part(s, parts, sizeof parts / sizeof parts[0])

/* A sub-word tokenizer: BPE merges or ranks under any key, or an object that is a
 * tokenizer by its key or its class (not a character or byte one). */
static int is_tokenizer(const pk_value *v, const char *name, const char **cls)
{
    static const char *const merges[] = {"merges", "bpe_ranks"};
    static const char *const keys[] = {"tokeniz", "tokenis", "sp_model", "sentencepiece"};
    static const char *const classes[] = {"tokeniz", "bpe", "sentencepiece", "wordpiece"};
    static const char *const chars[] = {"char", "byte"};
    const pk_value *c = v->kind == PK_OBJECT ? v->u.obj.cls : NULL;
    *cls = c && c->kind == PK_GLOBAL ? c->u.global.name : NULL;
    if (HAS_PART(name, merges))
        return v->kind == PK_OBJECT || ((v->kind == PK_LIST || v->kind == PK_TUPLE ||
                                         v->kind == PK_DICT) && v->u.seq.n > 0);
    if (v->kind != PK_OBJECT && v->kind != PK_BYTES)
        return 0;
    if (HAS_PART(name, chars) || (*cls && HAS_PART(*cls, chars)))
        return 0;
    return HAS_PART(name, keys) || (*cls && HAS_PART(*cls, classes));
}

static int note_tokenizer(found *f, const pk_value *v, const char *name, const char *path)
{
    const char *cls;
    if (f->tokenizer || !is_tokenizer(v, name, &cls))
        return GT_OK;
    const pk_value *g = cls ? v->u.obj.cls : NULL;
    size_t n = strlen(path) + (g ? strlen(g->u.global.module) + strlen(cls) : 0) + 32;
    if (!(f->tokenizer = malloc(n)))
        return gt_fail(f->e, GT_EFAIL, "%s: out of memory", f->path);
    if (g)
        snprintf(f->tokenizer, n, "\"%s\" in the file, a %s.%s", path, g->u.global.module, cls);
    else
        snprintf(f->tokenizer, n, "\"%s\" in the file", path);
    return GT_OK;
}

/* A value under a key that names a vocabulary is tried, a tokenizer noted; the walk goes
 * below every value but tensors. */
static int vocab_visit(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                       const char *name, const char *path)
{
    (void)parent;
    if (v->kind == PK_TENSOR)
        return TF_SKIP;
    int rc = note_tokenizer((found *)w, v, name, path);
    if (rc)
        return rc;
    if (key && key->kind == PK_STR && tf_vocab_key(name))
        return try_value((found *)w, v, path);
    return GT_OK;
}

int tf_find_vocabs(pk_value *root, const char *path, gt_vocab_found **out, size_t *n,
                   char **tokenizer, gt_error *e)
{
    found f = {.w = {vocab_visit, 0, path, e}, .path = path, .e = e};
    int rc = tf_walk(&f.w, root, NULL, NULL, "", "", 0);
    if (rc) {
        for (size_t i = 0; i < f.n; i++) {
            free(f.v[i].where);
            free_tokens(f.v[i].tok, f.v[i].ntok);
        }
        free(f.v);
        free(f.tokenizer);
        return rc;
    }
    *out = f.v;
    *n = f.n;
    *tokenizer = f.tokenizer;
    return GT_OK;
}
