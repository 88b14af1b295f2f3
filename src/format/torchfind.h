/* Finding, in the graph of a torch.save file, the model's tensors under their state_dict
 * names and the vocabularies the file keeps (torchfind.c, torchvocab.c). */
#ifndef GATETUI_ENGINE_TORCHFIND_H
#define GATETUI_ENGINE_TORCHFIND_H

#include <stddef.h>

#include "format/pickle.h"
#include "gatetui/error.h"
#include "format/modelfile.h"

#define TF_MAX_DEPTH 64          /* containers inside containers followed */
#define TF_MAX_VISITS (1u << 22) /* values looked at by one search */
#define TF_MAX_TENSORS (1u << 20)
#define TF_MAX_NAME 1024
#define TF_PATH_BUF (2 * TF_MAX_NAME + 2)

typedef struct tf_named {
    char *name; /* malloc'ed */
    pk_value *v; /* a PK_TENSOR */
} tf_named;

/* The model in root: its tensors (*out, sorted by name, names and array malloc'ed) and
 * where it is ("" for the whole file, "model_state_dict", ...; malloc'ed). With no
 * recurrent weights anywhere, every tensor of the file under its full path. */
int tf_find_model(pk_value *root, const char *path, tf_named **out, size_t *n, char **where,
                  gt_error *e);

/* Every value under a key that names a vocabulary (vocab, chars, itos, char2idx, ...) that
 * has the form of one: a string, a list of strings, a dict index -> string or string ->
 * index. *out and its contents are malloc'ed. *tokenizer: where the file holds a sub-word
 * tokenizer (BPE merges or ranks, a tokenizer object), malloc'ed, or NULL. */
int tf_find_vocabs(pk_value *root, const char *path, gt_vocab_found **out, size_t *n,
                   char **tokenizer, gt_error *e);

/* 1 when a key names a vocabulary (vocab, chars, itos, char2idx, ...; not emb...). */
int tf_vocab_key(const char *key);

/* The first string under a key named key (a module's attribute, a checkpoint's entry) in
 * root, malloc'ed into *out, or NULL when there is none. */
int tf_find_string(pk_value *root, const char *path, const char *key, char **out,
                   gt_error *e);

/* Where root holds int8-quantized values (a quantized tensor, a quantized module's packed
 * parameters: the module's path, malloc'ed into *where, or NULL when none); *dynamic: 1
 * when they are torch.ao.quantization.quantize_dynamic's packed parameters. */
int tf_find_quantized(pk_value *root, const char *path, char **where, int *dynamic,
                      gt_error *e);

/* A walk over the graph below a value, each container reached once (by the first path to
 * it; a container met again is passed over, so the walk is linear in the file; cycles cut),
 * at most TF_MAX_DEPTH deep and TF_MAX_VISITS values in all. visit is called for each value
 * with its key (NULL for a list's item), the key's name and its path ("a.b.c"); it returns
 * GT_OK to go below it, TF_SKIP not to, or an error. */
#define TF_SKIP (-1)
typedef struct tf_walker tf_walker;
struct tf_walker {
    int (*visit)(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                 const char *name, const char *path);
    size_t visits;
    const char *file;
    gt_error *e;
    unsigned walk; /* this walk's number, kept in the marks of the containers it has seen */
};
int tf_walk(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key, const char *name,
            const char *path, int depth);

#endif
