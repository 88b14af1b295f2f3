/* min-char-rnn's arrays as an nn.RNN and its readout (minchar.h): h = tanh(Wxh x + Whh h +
 * bh) with x one-hot, y = Why h + by (github.com/karpathy, min-char-rnn.py), which is
 * nn.RNN's step with bias_ih = bh and bias_hh = 0. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/minchar.h"

static const char *const arrays[5] = {"Wxh", "Whh", "bh", "Why", "by"};
static const char *const names[5] = {"rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0",
                                     "out.weight", "out.bias"};

/* The tensor named prefix + a, or -1. */
static long find(const gt_modelfile *f, const char *prefix, size_t plen, const char *a)
{
    for (size_t i = 0; i < f->ntensor; i++) {
        const char *n = f->tensor[i].name;
        if (strncmp(n, prefix, plen) == 0 && strcmp(n + plen, a) == 0)
            return (long)i;
    }
    return -1;
}

/* A column [n, 1] as the vector [n] it is. */
static void as_vector(gt_tensor *t)
{
    if (t->ndim == 2 && t->shape[1] == 1) {
        t->ndim = 1;
        t->shape[1] = t->stride[1] = 0;
    }
}

static int rename_to(gt_modelfile *f, gt_tensor *t, const char *prefix, size_t plen,
                     const char *name, gt_error *e)
{
    char *n = malloc(plen + strlen(name) + 1);
    if (!n)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    memcpy(n, prefix, plen);
    strcpy(n + plen, name);
    free(t->name);
    t->name = n;
    return GT_OK;
}

/* bias_hh_l0: H zeros the file does not hold, after the others. */
static int zero_bias(gt_modelfile *f, const gt_tensor *bh, const char *prefix, size_t plen,
                     gt_error *e)
{
    const uint64_t H = bh->ndim == 1 ? bh->shape[0] : 1; /* else refused with bias_ih_l0's shape */
    gt_tensor *grown = realloc(f->tensor, (f->ntensor + 1) * sizeof *f->tensor);
    if (!grown)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    f->tensor = grown;
    float *zeros = calloc(H ? (size_t)H : 1, sizeof *zeros);
    if (!zeros)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    f->synthetic = zeros;
    gt_tensor *t = &f->tensor[f->ntensor];
    *t = (gt_tensor){.dtype_name = "float32", .dtype = GT_F32, .esize = 4, .ndim = 1,
                     .shape = {H}, .stride = {1}, .nelem = H,
                     .data = (const unsigned char *)zeros, .storage = zeros};
    int rc = rename_to(f, t, prefix, plen, "rnn.bias_hh_l0", e);
    if (rc == GT_OK)
        f->ntensor++;
    return rc;
}

/* min-char-rnn's Adagrad memories (mWxh, mWhh, mWhy, mbh, mby), kept beside the arrays
 * when its whole state is saved: not the model's (not counted among its parameters, and
 * mWhy would be a second readout of Why's shape). */
static void drop_memories(gt_modelfile *f, const char *prefix, size_t plen)
{
    size_t k = 0;
    for (size_t i = 0; i < f->ntensor; i++) {
        const char *n = f->tensor[i].name;
        int memory = 0;
        for (int a = 0; a < 5 && !memory; a++)
            memory = strncmp(n, prefix, plen) == 0 && n[plen] == 'm' &&
                     strcmp(n + plen + 1, arrays[a]) == 0;
        if (memory)
            free(f->tensor[i].name);
        else
            f->tensor[k++] = f->tensor[i];
    }
    f->ntensor = k;
}

int minchar_names(gt_modelfile *f, gt_error *e)
{
    long at = -1;
    for (size_t i = 0; i < f->ntensor && at < 0; i++) {
        const char *n = f->tensor[i].name;
        size_t len = strlen(n);
        if (strstr(n, "weight_ih"))
            return GT_OK; /* PyTorch's names: not min-char-rnn's */
        if (len >= 3 && strcmp(n + len - 3, "Wxh") == 0 &&
            (len == 3 || n[len - 4] == '.' || n[len - 4] == '_' || n[len - 4] == '/'))
            at = (long)i;
    }
    if (at < 0)
        return GT_OK;
    const char *prefix = f->tensor[at].name;
    size_t plen = strlen(prefix) - 3;
    long k[5];
    for (int a = 0; a < 5; a++)
        if ((k[a] = find(f, prefix, plen, arrays[a])) < 0)
            return GT_OK;
    char *p = strndup(prefix, plen);
    if (!p)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    drop_memories(f, p, plen);
    for (int a = 0; a < 5; a++)
        k[a] = find(f, p, plen, arrays[a]);
    int rc = GT_OK;
    for (int a = 0; a < 5 && rc == GT_OK; a++) {
        as_vector(&f->tensor[k[a]]);
        rc = rename_to(f, &f->tensor[k[a]], p, plen, names[a], e);
    }
    if (rc == GT_OK)
        rc = zero_bias(f, &f->tensor[k[2]], p, plen, e);
    free(p);
    if (rc == GT_OK && !f->nonlinearity && !(f->nonlinearity = strdup("tanh")))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", f->path);
    return rc;
}
