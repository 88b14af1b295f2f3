/* A model file as the user has it (doc/model-files.md): a safetensors file or what
 * torch.save wrote (zip or legacy format), read into memory without running anything. It
 * gives the model's tensors under their state_dict names and the vocabularies the file
 * holds; any other file is refused with a message saying what it looks like. */
#ifndef GATETUI_MODELFILE_H
#define GATETUI_MODELFILE_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/fileio.h"
#include "format/tensor.h"

/* The most tokens a vocabulary may have (a token is a uint16_t). */
#define GT_MAX_VOCAB 65535

typedef enum gt_format { GT_SAFETENSORS, GT_TORCH_ZIP, GT_TORCH_LEGACY, GT_NPZ } gt_format;

/* A vocabulary found in the file: its tokens in index order, each a UTF-8 string (one
 * character, or longer for tokens such as "<pad>" that no character maps to; NULL for an
 * index the file does not name). */
typedef struct gt_vocab_found {
    char *where;   /* "metadata \"vocab\"", "\"itos\" in the checkpoint", ... */
    char **tok;
    size_t ntok;
} gt_vocab_found;

typedef struct gt_modelfile {
    char *path;
    gt_format format;
    gt_filecopy *copy;     /* the file read into memory */
    gt_tensor *tensor;     /* the model's tensors */
    size_t ntensor;
    char *where;           /* where the model is in a torch.save file ("" for the whole) */
    gt_vocab_found *vocab; /* every vocabulary-like value found */
    size_t nvocab;
    char *gru_reset;       /* safetensors metadata "gru_reset", or NULL */
    char *nonlinearity;    /* an RNN's: safetensors metadata "nonlinearity", or the first
                              string under that key in a torch.save file (a pickled
                              nn.RNN's attribute, a checkpoint's entry), or NULL */
    char *tokenizer;       /* where a torch.save file holds a sub-word tokenizer, or NULL */
    char *quantized;       /* where a torch.save file holds int8-quantized values (the
                              module's path: "fc"), or NULL */
    int quant_dynamic;     /* 1: quantize_dynamic's packed parameters */
    void *synthetic;       /* a tensor's values the file does not hold (min-char-rnn's
                              zero bias_hh), malloc'ed; not counted among its parameters */
    void *impl;            /* the format's reader */
} gt_modelfile;

/* Maps path, finds its format and reads it. On failure f is left closed and e says what
 * is wrong, for a file of another kind what it looks like and what to do. */
int modelfile_open(gt_modelfile *f, const char *path, gt_error *e);
void modelfile_close(gt_modelfile *f);

const gt_tensor *modelfile_find(const gt_modelfile *f, const char *name);

#endif
