/* Turning a model file's tensors into an LSTM or GRU (doc/model-files.md): find the
 * recurrent layers (nn.LSTM / nn.GRU names under one prefix, or nn.LSTMCell / nn.GRUCell
 * names, several of them stacked in the order of their numbers), check every shape
 * against the others, and convert the weights to float32 (used in place when the file
 * already holds them); then the embedding, the readout (model_io.c) and the vocabulary
 * (vocab.c). */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_impl.h"

#define MAX_LAYERS 64
#define MAX_GROUPS MAX_LAYERS
#define MAX_HIDDEN (1 << 20)
#define MAX_PROJECTED_HIDDEN 8192
#define MAX_INPUT_DIM (1 << 24)
#define NAME_MAX_LEN 1100
#define RAW "_raw" /* WeightDrop's trained copy of a weight (find_rec) */

void model_options_init(gt_model_options *o)
{
    o->vocab_from = NULL;
    o->vocab_file = NULL;
    o->tokens = 0;
    o->embedding = NULL;
    o->gru_reset = -1;
    o->nonlinearity = -1;
}

/* ---- finding the layers ---- */

/* A set of recurrent tensors under one prefix: an nn.LSTM / nn.GRU (layers _l0, _l1, ...)
 * or one nn.LSTMCell / nn.GRUCell. */
typedef struct group {
    char prefix[NAME_MAX_LEN];
    int cell;
    int layers;
    long number;     /* the prefix's last number ("cells.1.": 1; "rnns.2.module.": 2), -1
                        if none */
    size_t baselen;  /* the prefix's length before that number */
    size_t sufat;    /* where the rest after it starts ("module." in "rnns.2.module.") */
} group;

/* Splits name into prefix and layer for "<prefix><stem><k>" with nothing after the digits.
 * Returns the layer, or -1 when the name does not have that form. */
static int layer_of(const char *name, const char *stem, size_t *prefix_len)
{
    const char *s = strstr(name, stem);
    while (s) {
        const char *d = s + strlen(stem);
        if (isdigit((unsigned char)*d)) {
            char *end;
            long k = strtol(d, &end, 10);
            if (*end == 0 && k >= 0 && k < INT_MAX) {
                *prefix_len = (size_t)(s - name);
                return (int)k;
            }
        }
        s = strstr(s + 1, stem);
    }
    return -1;
}

/* The group name belongs to (nn.LSTM layer k, or a cell: k = 0), or -1. */
static int recurrent_name(const char *name, size_t *plen, int *cell)
{
    int k = layer_of(name, "weight_ih_l", plen);
    *cell = 0;
    if (k >= 0)
        return k;
    size_t n = strlen(name);
    if (n >= 9 && strcmp(name + n - 9, "weight_ih") == 0 &&
        (n == 9 || name[n - 10] == '.' || name[n - 10] == '_')) {
        *plen = n - 9;
        *cell = 1;
        return 0;
    }
    return -1;
}

/* The prefix's last run of digits: "cells.1.", "lstm2.", or AWD-LSTM's "rnns.2.module."
 * (each layer an nn.LSTM inside a WeightDrop). */
static void number_of(group *g)
{
    size_t n = strlen(g->prefix);
    while (n > 0 && !isdigit((unsigned char)g->prefix[n - 1]))
        n--;
    size_t d = n;
    while (d > 0 && isdigit((unsigned char)g->prefix[d - 1]))
        d--;
    g->number = d < n && n - d < 9 ? strtol(g->prefix + d, NULL, 10) : -1;
    g->baselen = d;
    g->sufat = n;
}

static int refuse_odd(const gt_model *m, const char *name, gt_error *e)
{
    if (strstr(name, "_reverse") && (strstr(name, "weight_ih_l") || strstr(name, "weight_hh_l")))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: bidirectional networks are not supported",
                       m->path, name);
    return GT_OK;
}

static int collect_groups(const gt_model *m, group *g, int *ng, gt_error *e)
{
    const gt_modelfile *f = m->file;
    *ng = 0;
    for (size_t i = 0; i < f->ntensor; i++) {
        char name[NAME_MAX_LEN];
        size_t plen, n = strlen(f->tensor[i].name);
        int cell, k, rc;
        if (n >= sizeof name)
            continue;
        memcpy(name, f->tensor[i].name, n + 1);
        if (n > strlen(RAW) && strcmp(name + n - strlen(RAW), RAW) == 0)
            name[n - strlen(RAW)] = 0; /* WeightDrop's weight_ih_l0_raw (find_rec) */
        if ((rc = refuse_odd(m, name, e)))
            return rc;
        if ((k = recurrent_name(name, &plen, &cell)) < 0 || plen >= NAME_MAX_LEN)
            continue;
        int j = 0;
        while (j < *ng && !(g[j].cell == cell && strlen(g[j].prefix) == plen &&
                            strncmp(g[j].prefix, name, plen) == 0))
            j++;
        if (j == *ng) {
            if (*ng == MAX_GROUPS)
                return gt_fail(e, GT_EINPUT, "%s: more than %d recurrent networks", m->path,
                               MAX_GROUPS);
            memset(&g[j], 0, sizeof g[j]);
            memcpy(g[j].prefix, name, plen);
            g[j].cell = cell;
            number_of(&g[j]);
            (*ng)++;
        }
        if (k >= MAX_LAYERS)
            return gt_fail(e, GT_EINPUT, "%s: %d layers is more than %d", m->path, k + 1,
                           MAX_LAYERS);
        if (k + 1 > g[j].layers)
            g[j].layers = k + 1;
    }
    return GT_OK;
}

/* ---- tensors of the cell that a stock cell does not have ---- */

/* A name part that is a LayerNorm ("layernorm_i", "ln_c", "norm_h", "ln1"). */
static int norm_part(const char *s)
{
    return strstr(s, "norm") || (s[0] == 'l' && s[1] == 'n' && !isalpha((unsigned char)s[2]));
}

/* A peephole's name ("w_ci", "weight_cf", "peephole_o"). */
static int peep_part(const char *s)
{
    return strstr(s, "peep") || strncmp(s, "w_c", 3) == 0 || strncmp(s, "weight_c", 8) == 0;
}

/* Whether name lies under the group's prefix. With no prefix, the module is the file's
 * whole state_dict and an embedding or a readout may stand beside it unprefixed ("emb",
 * "out"): then only names of a cell's parts count (weight_*, bias_*, a peephole, a
 * LayerNorm: "layernorm_i.weight"). */
static int under_prefix(const group *g, const char *name)
{
    size_t n = strlen(g->prefix);
    if (n)
        return strncmp(name, g->prefix, n) == 0;
    const char *dot = strchr(name, '.');
    if (dot)
        return norm_part(name) && dot == strrchr(name, '.');
    return strncmp(name, "weight_", 7) == 0 || strncmp(name, "bias_", 5) == 0 ||
           peep_part(name) || norm_part(name);
}

/* rest (the name after the prefix) is one of the group's own: weight_ih, weight_hh,
 * bias_ih, bias_hh, with _l<k> for an nn.LSTM / nn.GRU (and weight_hr_l<k>, an
 * nn.LSTM(proj_size)'s projection). */
static int stock_part(const group *g, const char *rest)
{
    static const char *const stems[5] = {"weight_ih", "weight_hh", "bias_ih", "bias_hh",
                                         "weight_hr"};
    for (int s = 0; s < (g->cell ? 4 : 5); s++) {
        size_t n = strlen(stems[s]);
        if (strncmp(rest, stems[s], n) != 0)
            continue;
        const char *d = rest + n;
        if (!g->cell) {
            if (d[0] != '_' || d[1] != 'l' || !isdigit((unsigned char)d[2]))
                return 0;
            for (d += 2; isdigit((unsigned char)*d); d++)
                ;
        }
        return *d == 0 || strcmp(d, RAW) == 0;
    }
    return 0;
}

/* The cells gatetui computes (gatetui/cell.h), told apart by their gate blocks: a new cell
 * is a row here and its own file. */
static const gt_celltype *const cells[] = {&gt_cell_lstm, &gt_cell_gru, &gt_cell_rnn};
#define NCELLS (sizeof cells / sizeof cells[0])

/* The cell of g gate blocks, or NULL. */
static const gt_celltype *cell_of(uint64_t g)
{
    for (size_t i = 0; i < NCELLS; i++)
        if ((uint64_t)cells[i]->gates == g)
            return cells[i];
    return NULL;
}

/* "4 (LSTM), 3 (GRU) or 1 (RNN)": the cells' gate blocks, for messages. */
static void cell_counts(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NCELLS && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d (%s)",
                                i == 0 ? "" : i + 1 == NCELLS ? " or " : ", ", cells[i]->gates,
                                cells[i]->kind);
}

/* The module a group's tensors look like, for messages: by its gate blocks, an nn.LSTM when
 * they say nothing. */
static const char *cell_kind(const gt_modelfile *f, const group *g)
{
    char hh[NAME_MAX_LEN + 16];
    snprintf(hh, sizeof hh, "%.1000s%s", g->prefix, g->cell ? "weight_hh" : "weight_hh_l0");
    const gt_tensor *t = modelfile_find(f, hh);
    const gt_celltype *c = t && t->ndim == 2 && t->shape[1] && t->shape[0] % t->shape[1] == 0
                               ? cell_of(t->shape[0] / t->shape[1])
                               : NULL;
    return c ? c->module : gt_cell_lstm.module;
}

/* Every tensor under a recurrent group's prefix must be one the stock cell has: a
 * LayerNorm, peepholes or a third bias there are refused, named. */
static int refuse_foreign(const gt_model *m, const group *g, int ng, gt_error *e)
{
    const gt_modelfile *f = m->file;
    char names[400] = "";
    size_t len = 0, count = 0;
    int norm = 0, peep = 0, j = 0;
    for (size_t i = 0; i < f->ntensor; i++) {
        const char *name = f->tensor[i].name;
        int k = 0;
        while (k < ng && !under_prefix(&g[k], name))
            k++;
        if (k == ng || stock_part(&g[k], name + strlen(g[k].prefix)))
            continue;
        const char *rest = name + strlen(g[k].prefix);
        norm |= norm_part(rest);
        peep |= peep_part(rest);
        if (count++ == 0)
            j = k;
        if (count <= 3 && len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%.100s",
                                    count > 1 ? ", " : "", name);
    }
    if (!count)
        return GT_OK;
    const char *cls = cell_kind(f, &g[j]), *more = count > 3 ? ", ..." : "";
    if (norm || peep)
        return gt_fail(e, GT_EINPUT,
                       "%s: %s%s: %s is not an %s; gatetui computes the stock cells only",
                       m->path, names, more,
                       norm ? "a layer-normalised cell" : "a cell with peepholes", cls);
    return gt_fail(e, GT_EINPUT,
                   "%s: %s%s: tensors an %s does not have%s%s%s; gatetui computes the stock "
                   "cells only",
                   m->path, names, more, cls,
                   *g[j].prefix ? " under its prefix \"" : ", beside its own at the top level",
                   g[j].prefix, *g[j].prefix ? "\"" : "");
}

static int group_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    return x->number < y->number ? -1 : x->number > y->number;
}

/* Several groups are the layers of one network when their prefixes differ only in a
 * number ("cells.0.", "cells.1."; "lstm1.", "lstm2."): ordered by it. */
static int order_groups(const gt_model *m, group *g, int ng, gt_error *e)
{
    for (int j = 1; j < ng; j++)
        if (g[j].number < 0 || g[0].number < 0 || g[j].baselen != g[0].baselen ||
            strncmp(g[j].prefix, g[0].prefix, g[0].baselen) != 0 ||
            strcmp(g[j].prefix + g[j].sufat, g[0].prefix + g[0].sufat) != 0)
            return gt_fail(e, GT_EINPUT,
                           "%s: a second recurrent network (prefix \"%s\" besides \"%s\"); the "
                           "file must hold one, or layers numbered in order",
                           m->path, g[j].prefix, g[0].prefix);
    qsort(g, (size_t)ng, sizeof *g, group_cmp);
    for (int j = 1; j < ng; j++)
        if (g[j].number == g[j - 1].number)
            return gt_fail(e, GT_EINPUT, "%s: two recurrent networks numbered %ld (\"%s\", \"%s\")",
                           m->path, g[j].number, g[j - 1].prefix, g[j].prefix);
    return GT_OK;
}

/* The names of layer k's tensors (ih, hh, bias ih, bias hh, the projection hr: "" for a
 * cell, which has none). */
typedef struct layer_names {
    char n[5][NAME_MAX_LEN + 16];
} layer_names;

static int find_layers(gt_model *m, layer_names **out, gt_error *e)
{
    group g[MAX_GROUPS];
    int ng, rc;
    if ((rc = collect_groups(m, g, &ng, e)) || (rc = refuse_foreign(m, g, ng, e)))
        return rc;
    if (ng == 0 && m->file->quantized)
        return gt_fail(e, GT_EINPUT,
                       "%s: int8 %squantization (\"%.100s\" is quantized): gatetui computes "
                       "float models; save the float model's state_dict (before "
                       "torch.ao.quantization.%s)",
                       m->path, m->file->quant_dynamic ? "dynamic " : "", m->file->quantized,
                       m->file->quant_dynamic ? "quantize_dynamic" : "convert");
    if (ng == 0) {
        char some[200];
        const gt_modelfile *f = m->file;
        tensor_names(f->tensor, f->ntensor, some, sizeof some);
        return gt_fail(e, GT_EINPUT,
                       "%s: no recurrent layer: no tensor named <prefix>weight_ih_l0 (nn.LSTM or "
                       "nn.GRU state_dict names expected) or <prefix>weight_ih (nn.LSTMCell, "
                       "nn.GRUCell); %s%s",
                       m->path, f->ntensor ? "the file's tensors: " : "the file has no tensors",
                       some);
    }
    if (ng > 1 && (rc = order_groups(m, g, ng, e)))
        return rc;
    int total = 0;
    for (int j = 0; j < ng; j++)
        total += g[j].layers;
    if (total > MAX_LAYERS)
        return gt_fail(e, GT_EINPUT, "%s: %d layers is more than %d", m->path, total, MAX_LAYERS);
    layer_names *ln = malloc((size_t)total * sizeof *ln);
    if (!ln || !(m->prefix = strdup(g[0].prefix))) {
        free(ln);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    static const char *const stems[5] = {"weight_ih", "weight_hh", "bias_ih", "bias_hh",
                                         "weight_hr"};
    int l = 0;
    for (int j = 0; j < ng; j++)
        for (int k = 0; k < g[j].layers; k++, l++)
            for (int s = 0; s < 5; s++) {
                if (g[j].cell)
                    snprintf(ln[l].n[s], sizeof ln[l].n[s], "%.1000s%s", g[j].prefix,
                             s < 4 ? stems[s] : "weight_hr");
                else
                    snprintf(ln[l].n[s], sizeof ln[l].n[s], "%.1000s%s_l%d", g[j].prefix, stems[s], k);
            }
    m->layers = total;
    *out = ln;
    return GT_OK;
}

/* ---- loading the layers ---- */

/* A layer's tensor: name, or name_raw, the trained weights awd-lstm-lm's WeightDrop keeps
 * (rnns.0.module.weight_hh_l0_raw), or fastai's WeightDropout beside the module it wraps
 * (rnns.0.weight_hh_l0_raw for rnns.0.module.weight_hh_l0), from which each forward pass
 * sets name (dropped out in training, as when a model is saved mid-training; the same in
 * evaluation): the raw one when there is one. */
static const gt_tensor *find_rec(gt_model *m, const char *name)
{
    char raw[NAME_MAX_LEN + 32];
    snprintf(raw, sizeof raw, "%s%s", name, RAW);
    const gt_tensor *t = modelfile_find(m->file, raw);
    const char *stem = strrchr(name, '.');
    size_t at = stem ? (size_t)(stem - name) + 1 : 0;
    if (!t && at >= 7 && strncmp(name + at - 7, "module.", 7) == 0) {
        snprintf(raw, sizeof raw, "%.*s%s%s", (int)(at - 7), name, name + at, RAW);
        t = modelfile_find(m->file, raw);
    }
    if (!t)
        t = modelfile_find(m->file, name);
    if (t)
        m->recurrent[t - m->file->tensor] = 1;
    return t;
}

/* nn.LSTM(proj_size=P): layer 0's weight_hr_l0 [P, H] says H and P; weight_hh_l0 is
 * [4H, P]. The folded recurrence (4H, H) is bounded so that a small hostile file cannot ask
 * for a huge one. */
static int projected_shape(gt_model *m, const gt_tensor *hh0, const gt_tensor *hr0, gt_error *e)
{
    if (hr0->ndim != 2 || hr0->shape[0] == 0 || hr0->shape[1] > MAX_PROJECTED_HIDDEN ||
        hr0->shape[0] >= hr0->shape[1]) {
        char want[128];
        snprintf(want, sizeof want, "[P, H] with 1 <= P < H <= %d (nn.LSTM(proj_size=P)'s projection)",
                 MAX_PROJECTED_HIDDEN);
        return model_bad_shape(m, hr0, want, e);
    }
    const uint64_t P = hr0->shape[0], H = hr0->shape[1];
    /* the folded weights: every layer's recurrence and, above layer 0, its input */
    const uint64_t folded = 4 * H * H * (2 * (uint64_t)m->layers - 1);
    if (folded > MAX_FOLDED_WEIGHTS)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: a projected LSTM of %d layer%s of %llu "
                       "cells folds into %llu weights, more than gatetui holds (%llu)", m->path,
                       hr0->name, m->layers, m->layers == 1 ? "" : "s", (unsigned long long)H,
                       (unsigned long long)folded, (unsigned long long)MAX_FOLDED_WEIGHTS);
    if (!model_is_2d(hh0, 4 * H, P)) {
        char want[160];
        snprintf(want, sizeof want, "[%llu, %llu] (an LSTM's 4H by the projection's P: %s is [P, H])",
                 (unsigned long long)(4 * H), (unsigned long long)P, hr0->name);
        return model_bad_shape(m, hh0, want, e);
    }
    m->cell = &gt_cell_lstm; /* nn.LSTM(proj_size) */
    m->gates = 4;
    m->hidden_max = (int)H; /* every layer's */
    m->proj = (int)P;
    snprintf(m->kind_text, sizeof m->kind_text, "LSTM (proj %d)", m->proj);
    return GT_OK;
}

static int first_layer_shape(gt_model *m, const layer_names *ln, gt_error *e)
{
    const gt_tensor *hh0 = find_rec(m, ln[0].n[1]);
    if (!hh0)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing", m->path, ln[0].n[1]);
    const gt_tensor *hr0 = modelfile_find(m->file, ln[0].n[4]);
    if (hr0)
        return projected_shape(m, hh0, hr0, e);
    char counts[128];
    cell_counts(counts, sizeof counts);
    if (hh0->ndim != 2 || hh0->shape[1] == 0 || hh0->shape[1] > MAX_HIDDEN ||
        hh0->shape[0] % hh0->shape[1] != 0) {
        char want[160];
        snprintf(want, sizeof want, "[G*H, H] with G = %s", counts);
        return model_bad_shape(m, hh0, want, e);
    }
    uint64_t g = hh0->shape[0] / hh0->shape[1];
    if (!(m->cell = cell_of(g)))
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: %llu gate blocks; a cell has %s", m->path,
                       hh0->name, (unsigned long long)g, counts);
    m->gates = (int)g;
    m->hidden_max = (int)hh0->shape[1]; /* layer 0's, until the others are read */
    return GT_OK;
}

static int layer_biases(gt_model *m, gt_layer *ly, const layer_names *n, int *biases,
                        gt_error *e)
{
    const uint64_t GH = (uint64_t)m->gates * (uint64_t)ly->hidden;
    const gt_tensor *bi = find_rec(m, n->n[2]), *bh = find_rec(m, n->n[3]);
    if (!bi != !bh)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing (%s is present)", m->path,
                       bi ? n->n[3] : n->n[2], bi ? n->n[2] : n->n[3]);
    if (*biases >= 0 && *biases != !!bi)
        return gt_fail(e, GT_EINPUT,
                       "%s: tensor %s: some layers have biases and others do not", m->path,
                       n->n[2]);
    *biases = !!bi;
    char want[64];
    snprintf(want, sizeof want, "[%llu]", (unsigned long long)GH);
    int rc;
    if (bi) {
        if (bi->ndim != 1 || bi->shape[0] != GH)
            return model_bad_shape(m, bi, want, e);
        if (bh->ndim != 1 || bh->shape[0] != GH)
            return model_bad_shape(m, bh, want, e);
        if ((rc = model_weights(m, bi, &ly->b_ih, e)) || (rc = model_weights(m, bh, &ly->b_hh, e)))
            return rc;
        return GT_OK;
    }
    ly->b_ih = model_zeros(m, GH);
    ly->b_hh = model_zeros(m, GH);
    return ly->b_ih && ly->b_hh ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
}

/* Layer k's projection (P, H), when the model has them: read, and folded into the layer's
 * recurrence and the next layer's input (model_fold_projection). Every layer has one or
 * none does. */
static int layer_projection(gt_model *m, int k, const layer_names *n, gt_error *e)
{
    const gt_tensor *hr = find_rec(m, n->n[4]);
    if (!m->proj)
        return hr ? gt_fail(e, GT_EINPUT,
                            "%s: tensor %s: a projection for layer %d, but layer 0 has none",
                            m->path, n->n[4], k)
                  : GT_OK;
    if (!hr)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing (layer 0 has a projection)",
                       m->path, n->n[4]);
    gt_layer *ly = &m->layer[k];
    if (!model_is_2d(hr, (uint64_t)m->proj, (uint64_t)ly->hidden)) {
        char want[64];
        snprintf(want, sizeof want, "[%d, %d] (as layer 0's projection)", m->proj, ly->hidden);
        return model_bad_shape(m, hr, want, e);
    }
    int rc = model_weights(m, hr, &ly->w_hr, e);
    const size_t GH = (size_t)m->gates * (size_t)ly->hidden;
    if (rc == GT_OK && !(ly->w_hh = model_fold_projection(m, ly->w_hh, GH, ly->w_hr)))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    if (rc == GT_OK && k > 0 &&
        !(ly->w_ih = model_fold_projection(m, ly->w_ih, GH, m->layer[k - 1].w_hr)))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    return rc;
}

/* Layer k's width H_k from its W_hh [G H_k, H_k]: layer 0's, or every layer's with a
 * projection (nn.LSTM(proj_size)); above layer 0 of stacked cells, its own. */
static int layer_width(gt_model *m, int k, const gt_tensor *hh, gt_error *e)
{
    gt_layer *ly = &m->layer[k];
    ly->hidden = m->hidden_max;
    if (k > 0)
        ly->off = m->layer[k - 1].off + (size_t)m->layer[k - 1].hidden;
    if (k == 0 || m->proj)
        return GT_OK;
    if (hh->ndim != 2 || hh->shape[1] == 0 || hh->shape[1] > MAX_HIDDEN ||
        hh->shape[0] != (uint64_t)m->gates * hh->shape[1]) {
        char want[96];
        snprintf(want, sizeof want, "[%d*H, H] (the %d gate blocks of layer 0's %s)", m->gates,
                 m->gates, m->cell->kind);
        return model_bad_shape(m, hh, want, e);
    }
    ly->hidden = (int)hh->shape[1];
    return GT_OK;
}

static int load_layer(gt_model *m, int k, const layer_names *n, int *biases, gt_error *e)
{
    gt_layer *ly = &m->layer[k];
    char want[128];
    const gt_tensor *ih = find_rec(m, n->n[0]), *hh = find_rec(m, n->n[1]);
    if (!ih)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing (the model has layer %d)",
                       m->path, n->n[0], m->layers - 1);
    if (!hh)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing", m->path, n->n[1]);
    int rc = layer_width(m, k, hh, e);
    if (rc)
        return rc;
    /* R: the width of h, which the recurrence reads; below: the layer below's */
    const uint64_t H = (uint64_t)ly->hidden, GH = (uint64_t)m->gates * H,
                   R = m->proj ? (uint64_t)m->proj : H;
    const uint64_t below = k == 0 ? 0 : m->proj ? R : (uint64_t)m->layer[k - 1].hidden;
    snprintf(want, sizeof want, "[%llu, %llu]", (unsigned long long)GH, (unsigned long long)R);
    if (!model_is_2d(hh, GH, R))
        return model_bad_shape(m, hh, want, e);
    if (k == 0) {
        if (ih->ndim != 2 || ih->shape[0] != GH || ih->shape[1] == 0 ||
            ih->shape[1] > MAX_INPUT_DIM) {
            snprintf(want, sizeof want, "[%llu, D] (the input width D at least 1)",
                     (unsigned long long)GH);
            return model_bad_shape(m, ih, want, e);
        }
        m->input_dim = (int)ih->shape[1];
    } else if (!model_is_2d(ih, GH, below)) {
        snprintf(want, sizeof want, "[%llu, %llu] (the layer below's h)",
                 (unsigned long long)GH, (unsigned long long)below);
        return model_bad_shape(m, ih, want, e);
    }
    /* above layer 0, the layer below's h (a projection's folded into it: model_fold_projection) */
    ly->in_dim = k == 0 ? (int)ih->shape[1] : m->layer[k - 1].hidden;
    rc = layer_biases(m, ly, n, biases, e);
    if (rc == GT_OK && (rc = model_weights(m, ih, &ly->w_ih, e)) == GT_OK &&
        (rc = model_weights(m, hh, &ly->w_hh, e)) == GT_OK)
        rc = layer_projection(m, k, n, e);
    return rc;
}

/* A projection numbered past the last layer (weight_hr_l<k>, k >= L) is not silently left
 * unused. */
static int stray_projection(gt_model *m, gt_error *e)
{
    const gt_modelfile *f = m->file;
    for (size_t i = 0; i < f->ntensor; i++) {
        size_t plen;
        const char *name = f->tensor[i].name;
        int k = layer_of(name, "weight_hr_l", &plen);
        if (k >= m->layers && plen == strlen(m->prefix) && strncmp(name, m->prefix, plen) == 0)
            return gt_fail(e, GT_EINPUT, "%s: tensor %s: a projection for layer %d, but the "
                           "model has %d layer%s", m->path, name, k, m->layers,
                           m->layers == 1 ? "" : "s");
    }
    return GT_OK;
}

static int load_layers(gt_model *m, gt_error *e)
{
    layer_names *ln = NULL;
    int rc = find_layers(m, &ln, e);
    if (rc == GT_OK)
        rc = first_layer_shape(m, ln, e);
    if (rc == GT_OK && !(m->layer = model_own(m, calloc((size_t)m->layers, sizeof *m->layer))))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    int biases = -1;
    for (int k = 0; rc == GT_OK && k < m->layers; k++)
        rc = load_layer(m, k, &ln[k], &biases, e);
    if (rc == GT_OK)
        rc = stray_projection(m, e);
    for (int k = 0; rc == GT_OK && k < m->layers; k++) {
        if (m->layer[k].hidden > m->hidden_max)
            m->hidden_max = m->layer[k].hidden;
        m->hidden_total += m->layer[k].hidden;
    }
    m->has_bias = biases;
    free(ln);
    return rc;
}

static int load_options(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    const char *r = m->file->gru_reset;
    if (r && strcmp(r, "before") != 0 && strcmp(r, "after") != 0)
        return gt_fail(e, GT_EINPUT,
                       "%s: metadata gru_reset is \"%.40s\"; expected \"before\" or \"after\"",
                       m->path, r);
    m->gru_reset_before = r && strcmp(r, "before") == 0;
    if (opt && opt->gru_reset >= 0)
        m->gru_reset_before = opt->gru_reset;
    return m->cell->options ? m->cell->options(m, opt, e) : GT_OK;
}

/* The parameters as PyTorch's model.parameters() counts them: a tensor saved under two
 * names (a tied readout: the same elements, dtype, shape and strides) once. */
static int count_params(gt_model *m, gt_error *e)
{
    const gt_modelfile *f = m->file;
    const gt_tensor **t = malloc((f->ntensor ? f->ntensor : 1) * sizeof *t);
    if (!t)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    for (size_t i = 0; i < f->ntensor; i++)
        t[i] = &f->tensor[i];
    qsort(t, f->ntensor, sizeof *t, model_view_cmp);
    for (size_t i = 0; i < f->ntensor; i++) /* not the values the file does not hold */
        if ((i == 0 || model_view_cmp(&t[i - 1], &t[i]) != 0) && t[i]->storage != f->synthetic)
            m->params += (long long)t[i]->nelem;
    free(t);
    return GT_OK;
}

int model_load(gt_model *m, const char *path, const gt_model_options *opt, gt_error *e)
{
    memset(m, 0, sizeof *m);
    m->path = strdup(path);
    if (!m->path)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    m->file = calloc(1, sizeof *m->file);
    if (!m->file) {
        free(m->path);
        m->path = NULL;
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    int rc = modelfile_open(m->file, path, e);
    if (rc == GT_OK &&
        !(m->recurrent = calloc(m->file->ntensor ? m->file->ntensor : 1, 1)))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    if (rc == GT_OK)
        rc = load_layers(m, e);
    if (rc == GT_OK)
        rc = model_load_io(m, opt, e);
    if (rc == GT_OK && m->file->quantized) /* float recurrent layers, a quantized part */
        snprintf(m->left_out, sizeof m->left_out,
                 "\"%.100s\" is int8-quantized: left out%s", m->file->quantized,
                 m->has_readout ? " (gatetui computes float models)"
                                : ", so there is no readout: no predictions, no loss");
    if (rc == GT_OK)
        rc = model_load_vocab(m, opt, e);
    if (rc == GT_OK)
        rc = model_check_readout(m, e);
    if (rc == GT_OK)
        rc = load_options(m, opt, e);
    if (rc == GT_OK)
        rc = model_input_table(m, e);
    if (rc == GT_OK)
        rc = count_params(m, e);
    if (rc)
        model_free(m);
    return rc;
}

int model_file_changed(const gt_model *m)
{
    return m->file && m->file->path && file_changed(m->file->copy, m->file->path);
}

void model_free(gt_model *m)
{
    for (size_t i = 0; i < m->nowned; i++)
        free(m->owned[i]);
    free(m->owned);
    free(m->path);
    free(m->vocab_beside_path);
    free(m->prefix);
    free(m->embedding_name);
    free(m->readout_name);
    free(m->recurrent);
    if (m->file)
        modelfile_close(m->file);
    free(m->file);
    memset(m, 0, sizeof *m);
}

int model_widths_differ(const gt_model *m)
{
    for (int q = 1; q < m->layers; q++)
        if (m->layer[q].hidden != m->layer[0].hidden)
            return 1;
    return 0;
}

const char *model_units_of(const gt_model *m, int k, char *buf, size_t n)
{
    if (!model_widths_differ(m))
        return "the model";
    snprintf(buf, n, "layer %d", k);
    return buf;
}

const char *model_widths(const gt_model *m, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < (model_widths_differ(m) ? m->layers : 1) && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d", k ? ", " : "", m->layer[k].hidden);
    return buf;
}

const char *model_arch_name(const gt_model *m)
{
    return m->cell->name;
}

const char *model_kind(const gt_model *m)
{
    if (m->proj)
        return m->kind_text;
    return m->cell->kind_of ? m->cell->kind_of(m) : m->cell->kind;
}

const char *model_gate_name(const gt_model *m, int b)
{
    return b < 0 || b >= m->gates ? "?" : m->cell->signal[b].name;
}

int model_carry_gate(const gt_model *m)
{
    return m->cell->carry;
}

int model_sigmoid_gates(const gt_model *m, int *blocks)
{
    for (int i = 0; i < m->cell->nsigmoid; i++)
        blocks[i] = m->cell->sigmoid[i];
    return m->cell->nsigmoid;
}
