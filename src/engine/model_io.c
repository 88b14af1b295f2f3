/* The model's input and output (doc/model-files.md): the embedding is the tensor of shape
 * [V, D] with D the first layer's input width, whatever its name (--embedding NAME picks
 * one when several fit); without one the input is one-hot. The readout is the other
 * tensor of shape [V, H] ([V, P] for nn.LSTM(proj_size=P)), with its bias. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_impl.h"

#define MAX_CANDIDATES 16

static int name_has(const char *name, const char *const *parts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(name, parts[i]))
            return 1;
    return 0;
}

static int hints_embedding(const char *name)
{
    static const char *const parts[] = {"emb", "encoder.weight", "wte", "lookup", "token",
                                        "vocab"};
    return name_has(name, parts, sizeof parts / sizeof parts[0]);
}

static int hints_readout(const char *name)
{
    static const char *const parts[] = {"fc", "decoder", "head", "out", "linear", "proj",
                                        "logit", "classifier", "dense", "lm_"};
    return name_has(name, parts, sizeof parts / sizeof parts[0]);
}

/* The readout's bias: the same name with its last "weight" replaced by "bias". */
static const gt_tensor *bias_of(const gt_model *m, const gt_tensor *w)
{
    const char *at = NULL;
    for (const char *s = strstr(w->name, "weight"); s; s = strstr(s + 1, "weight"))
        at = s;
    if (!at)
        return NULL;
    size_t n = strlen(w->name) + 8;
    char *b = malloc(n);
    if (!b)
        return NULL;
    snprintf(b, n, "%.*sbias%s", (int)(at - w->name), w->name, at + 6);
    const gt_tensor *t = modelfile_find(m->file, b);
    free(b);
    return t;
}

/* How much t looks like an embedding rather than a readout: its name, and a bias of its
 * row count beside it (an nn.Linear has one, an nn.Embedding does not). */
static int score(const gt_model *m, const gt_tensor *t)
{
    const gt_tensor *b = bias_of(m, t);
    int s = hints_embedding(t->name) ? 2 : 0;
    if (b && b->ndim == 1 && b->shape[0] == t->shape[0])
        s -= 2;
    if (hints_readout(t->name))
        s -= 1;
    return s;
}

static void list_names(const gt_tensor *const *c, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k + 1 < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%.60s", i ? ", " : "", c[i]->name);
}

static int chosen_by_option(const gt_model *m, const char *want, const gt_tensor **out,
                            gt_error *e)
{
    const gt_tensor *t = modelfile_find(m->file, want);
    if (!t)
        return gt_fail(e, GT_EINPUT, "%s: --embedding %.100s: no tensor of that name", m->path,
                       want);
    char shape[96];
    snprintf(shape, sizeof shape, "[V, %d] (the input width of %sweight_ih_l0)", m->input_dim,
             m->prefix);
    if (t->ndim != 2 || t->shape[1] != (uint64_t)m->input_dim || t->shape[0] == 0 ||
        model_is_recurrent(m, t))
        return model_bad_shape(m, t, shape, e);
    *out = t;
    return GT_OK;
}

/* The embedding among the tensors of shape [V, D0]; NULL for one-hot input. */
static int choose_embedding(const gt_model *m, const gt_model_options *opt,
                            const gt_tensor **out, gt_error *e)
{
    *out = NULL;
    if (opt && opt->embedding)
        return chosen_by_option(m, opt->embedding, out, e);
    const gt_tensor *best[MAX_CANDIDATES];
    int nbest = 0, top = 0;
    const gt_modelfile *f = m->file;
    for (size_t i = 0; i < f->ntensor; i++) {
        const gt_tensor *t = &f->tensor[i];
        if (t->ndim != 2 || model_is_recurrent(m, t) || t->shape[1] != (uint64_t)m->input_dim ||
            t->shape[0] == 0)
            continue;
        int s = score(m, t), again = 0;
        for (int j = 0; j < nbest && !again; j++) /* a second name of one view: the same */
            again = model_view_cmp(&best[j], &t) == 0;
        if (again)
            continue;
        /* with D0 = H a readout fits too: one that looks like a readout is not taken */
        if (s < 0 && m->input_dim == (m->proj ? m->proj : m->layer[m->layers - 1].hidden))
            continue;
        if (nbest == 0 || s > top) {
            top = s;
            nbest = 0;
        }
        if (s == top && nbest < MAX_CANDIDATES)
            best[nbest++] = t;
    }
    if (nbest > 1) {
        char names[300];
        list_names(best, nbest, names, sizeof names);
        return gt_fail(e, GT_EINPUT,
                       "%s: several tensors could be the embedding ([V, %d]): %s: choose one with "
                       "--embedding NAME",
                       m->path, m->input_dim, names);
    }
    *out = nbest ? best[0] : NULL;
    return GT_OK;
}

/* A tensor named like an embedding whose width is not the input width: a mistake to say. */
static int embedding_width(const gt_model *m, gt_error *e)
{
    const gt_modelfile *f = m->file;
    for (size_t i = 0; i < f->ntensor; i++) {
        const gt_tensor *t = &f->tensor[i];
        if (t->ndim == 2 && !model_is_recurrent(m, t) && hints_embedding(t->name) &&
            !hints_readout(t->name)) {
            char want[128];
            snprintf(want, sizeof want, "[V, %d] (the input width of %sweight_ih_l0)",
                     m->input_dim, m->prefix);
            return model_bad_shape(m, t, want, e);
        }
    }
    return GT_OK;
}

static int load_embedding(gt_model *m, const gt_model_options *opt, const gt_tensor **emb,
                          gt_error *e)
{
    int rc = choose_embedding(m, opt, emb, e);
    if (rc)
        return rc;
    if (!*emb) {
        if ((rc = embedding_width(m, e)))
            return rc;
        if (m->input_dim > GT_MAX_VOCAB)
            return gt_fail(e, GT_EINPUT,
                           "%s: one-hot input of width %d is larger than the largest vocabulary "
                           "(%d)",
                           m->path, m->input_dim, GT_MAX_VOCAB);
        m->vocab = m->input_dim;
        return GT_OK;
    }
    if ((*emb)->shape[0] > GT_MAX_VOCAB)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: vocabulary of %llu tokens is larger than %d",
                       m->path, (*emb)->name, (unsigned long long)(*emb)->shape[0],
                       GT_MAX_VOCAB);
    m->vocab = (int)(*emb)->shape[0];
    m->has_embedding = 1;
    if (!(m->embedding_name = strdup((*emb)->name)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    return model_weights(m, *emb, &m->emb, e);
}

/* A projected LSTM with no [V, P] readout but a [V, H] tensor: a readout of m, not of the
 * projection nn.LSTM(proj_size) hands on, is not silently dropped. */
static int unprojected_readout(const gt_model *m, const gt_tensor *emb, gt_error *e)
{
    const gt_modelfile *f = m->file;
    for (size_t i = 0; i < f->ntensor; i++) {
        const gt_tensor *t = &f->tensor[i];
        if (t != emb && !model_is_recurrent(m, t) &&
            model_is_2d(t, (uint64_t)m->vocab, (uint64_t)m->hidden_max))
            return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape [%d, %d], but the readout of a "
                           "projected LSTM reads the projection's %d outputs: [%d, %d]", m->path,
                           t->name, m->vocab, m->hidden_max, m->proj, m->vocab, m->proj);
    }
    return GT_OK;
}

int model_check_readout(const gt_model *m, gt_error *e)
{
    if (m->has_readout || m->proj)
        return GT_OK;
    const gt_modelfile *f = m->file;
    const int width = m->layer[m->layers - 1].hidden;
    for (size_t i = 0; i < f->ntensor; i++) {
        const gt_tensor *t = &f->tensor[i];
        if (model_is_recurrent(m, t) || t->ndim != 2 || !hints_readout(t->name) ||
            t->shape[1] != (uint64_t)width || t->shape[0] == (uint64_t)m->vocab)
            continue;
        /* within a tenth of the tokens (a token more or less): a readout gone wrong; a
           head of a few classes or values beside them is another thing, the model read
           without a readout as before */
        const uint64_t V = (uint64_t)m->vocab, R = t->shape[0], near = V / 10 > 1 ? V / 10 : 1;
        if (R + near < V || R > V + near)
            continue;
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape [%llu, %llu], but a readout of the "
                       "model's %d tokens from %d cells is [%d, %d]", m->path, t->name,
                       (unsigned long long)t->shape[0], (unsigned long long)t->shape[1],
                       m->vocab, width, m->vocab, width);
    }
    return GT_OK;
}

/* The readout reads the top layer's h: H_(L-1) wide, or P for a projected LSTM, whose
 * readout is folded with the top projection to read m (model_fold_projection). */
static int load_readout(gt_model *m, const gt_tensor *emb, gt_error *e)
{
    const gt_modelfile *f = m->file;
    const gt_tensor *out = NULL;
    const int width = m->proj ? m->proj : m->layer[m->layers - 1].hidden;
    for (size_t i = 0; i < f->ntensor; i++) {
        const gt_tensor *t = &f->tensor[i];
        if (t == emb || model_is_recurrent(m, t) ||
            !model_is_2d(t, (uint64_t)m->vocab, (uint64_t)width))
            continue;
        /* the embedding under a second name (fastai's encoder_dp.emb.weight), not a tied
         * readout (which has a bias, or a readout's name) */
        if (emb && model_view_cmp(&emb, &t) == 0 && !bias_of(m, t) && !hints_readout(t->name))
            continue;
        if (out && model_view_cmp(&out, &t) == 0) { /* one view: the name with a bias */
            if (!bias_of(m, out) && bias_of(m, t))
                out = t;
            continue;
        }
        if (out)
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: a second readout candidate of shape [%d, %d] besides %s",
                           m->path, t->name, m->vocab, width, out->name);
        out = t;
    }
    if (!out)
        return m->proj ? unprojected_readout(m, emb, e) : GT_OK;
    m->has_readout = 1;
    int rc;
    if (!(m->readout_name = strdup(out->name)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    if ((rc = model_weights(m, out, &m->out_w, e)))
        return rc;
    /* a projected LSTM's layers are all H_max wide */
    if (m->proj && (uint64_t)m->vocab * (uint64_t)m->hidden_max > MAX_FOLDED_WEIGHTS)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: a readout of %d tokens folded with the "
                       "projection into %d cells makes more weights than gatetui holds (%llu)",
                       m->path, out->name, m->vocab, m->hidden_max,
                       (unsigned long long)MAX_FOLDED_WEIGHTS);
    if (m->proj && !(m->out_w = model_fold_projection(m, m->out_w, (size_t)m->vocab,
                                                      m->layer[m->layers - 1].w_hr)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    const gt_tensor *b = bias_of(m, out);
    if (!b) {
        m->out_b = model_zeros(m, (size_t)m->vocab);
        return m->out_b ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    if (b->ndim != 1 || b->shape[0] != (uint64_t)m->vocab) {
        char want[64];
        snprintf(want, sizeof want, "[%d] (the readout's vocabulary)", m->vocab);
        return model_bad_shape(m, b, want, e);
    }
    return model_weights(m, b, &m->out_b, e);
}

int model_load_io(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    const gt_tensor *emb = NULL;
    int rc = load_embedding(m, opt, &emb, e);
    return rc ? rc : load_readout(m, emb, e);
}
