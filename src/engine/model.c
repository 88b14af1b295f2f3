/* Turning a checked safetensors file into an LSTM or GRU: find the recurrent tensors under
 * one prefix, the optional embedding and readout, check every shape against the others,
 * and convert the weights to float32 (used in place when the file already holds them). */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/model.h"
#include "gatetui/utf8.h"

#define MAX_LAYERS 64
#define MAX_HIDDEN (1 << 20)
#define MAX_INPUT_DIM (1 << 24)
/* Layer 0's input table (V x G*H floats) is kept only up to this many elements. */
#define MAX_TABLE (32u << 20)

void model_options_init(gt_model_options *o)
{
    o->vocab_from = NULL;
    o->gru_reset = -1;
}

static void *own(gt_model *m, void *p)
{
    if (!p)
        return NULL;
    void **n = realloc(m->owned, (m->nowned + 1) * sizeof *n);
    if (!n) {
        free(p);
        return NULL;
    }
    m->owned = n;
    m->owned[m->nowned++] = p;
    return p;
}

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

static int is_2d(const st_tensor *t, uint64_t rows, uint64_t cols)
{
    return t->ndim == 2 && t->shape[0] == rows && t->shape[1] == cols;
}

static void shape_str(const st_tensor *t, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "",
                              (unsigned long long)t->shape[i]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

static int bad_shape(const gt_model *m, const st_tensor *t, const char *want, gt_error *e)
{
    char got[128];
    shape_str(t, got, sizeof got);
    return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape %s, expected %s", m->path, t->name, got,
                   want);
}

/* t's values as float32, in place or converted; NaN and infinities refused. */
static int weights(gt_model *m, const st_tensor *t, const float **out, gt_error *e)
{
    const float *direct = st_direct_f32(t);
    if (direct) {
        for (uint64_t i = 0; i < t->nelem; i++)
            if (!(direct[i] - direct[i] == 0.0f))
                return gt_fail(e, GT_EINPUT, "%s: tensor %s: %s at index %llu", m->path, t->name,
                               direct[i] != direct[i] ? "NaN" : "infinite value",
                               (unsigned long long)i);
        *out = direct;
        return GT_OK;
    }
    float *buf = own(m, malloc((t->nelem ? t->nelem : 1) * sizeof *buf));
    if (!buf)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for tensor %s", m->path, t->name);
    *out = buf;
    return st_read_f32(&m->file, t, buf, e);
}

static const float *zeros(gt_model *m, size_t n)
{
    return own(m, calloc(n ? n : 1, sizeof(float)));
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Takes the n code points of the vocabulary, in token order, and builds the look-up. */
static int set_vocab(gt_model *m, const uint32_t *cp, int n, const char *what, gt_error *e)
{
    if (n != m->vocab)
        return gt_fail(e, GT_EINPUT, "%s: %s has %d characters but the model has %d tokens",
                       m->path, what, n, m->vocab);
    m->vocab_cp = own(m, malloc((size_t)n * sizeof *m->vocab_cp));
    m->lookup_cp = own(m, malloc((size_t)n * sizeof *m->lookup_cp));
    m->lookup_tok = own(m, malloc((size_t)n * sizeof *m->lookup_tok));
    uint64_t *pairs = malloc((size_t)n * sizeof *pairs);
    if (!m->vocab_cp || !m->lookup_cp || !m->lookup_tok || !pairs) {
        free(pairs);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    memcpy(m->vocab_cp, cp, (size_t)n * sizeof *cp);
    for (int i = 0; i < n; i++)
        pairs[i] = (uint64_t)cp[i] << 16 | (uint64_t)i;
    qsort(pairs, (size_t)n, sizeof *pairs, u64_cmp);
    int rc = GT_OK;
    for (int i = 0; i < n; i++) {
        m->lookup_cp[i] = (uint32_t)(pairs[i] >> 16);
        m->lookup_tok[i] = (uint16_t)(pairs[i] & 0xFFFF);
        if (i && m->lookup_cp[i] == m->lookup_cp[i - 1] && rc == GT_OK)
            rc = gt_fail(e, GT_EINPUT, "%s: %s lists the character U+%04X twice", m->path, what,
                         (unsigned)m->lookup_cp[i]);
    }
    free(pairs);
    return rc;
}

int model_token(const gt_model *m, uint32_t cp)
{
    if (m->vocab_bytes)
        return cp < 256 ? (int)cp : -1;
    int lo = 0, hi = m->vocab - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->lookup_cp[mid] == cp)
            return m->lookup_tok[mid];
        if (m->lookup_cp[mid] < cp)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int load_vocab(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    if (m->vocab > GT_MAX_VOCAB)
        return gt_fail(e, GT_EINPUT, "%s: vocabulary of %d tokens is larger than %d", m->path,
                       m->vocab, GT_MAX_VOCAB);
    if (opt && opt->vocab_from) {
        uint32_t *cp;
        int n;
        int rc = vocab_from_file(opt->vocab_from, &cp, &n, e);
        if (rc)
            return rc;
        char what[300];
        snprintf(what, sizeof what, "--vocab-from %.200s", opt->vocab_from);
        rc = set_vocab(m, cp, n, what, e);
        free(cp);
        return rc;
    }
    size_t len;
    const char *v = st_meta(&m->file, "vocab", &len);
    if (!v) {
        if (m->vocab == 256) {
            m->vocab_bytes = 1;
            m->vocab_cp = own(m, malloc(256 * sizeof *m->vocab_cp));
            if (!m->vocab_cp)
                return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
            for (int i = 0; i < 256; i++)
                m->vocab_cp[i] = (uint32_t)i;
            return GT_OK;
        }
        return gt_fail(e, GT_EINPUT,
                       "%s: no vocabulary (metadata \"vocab\" is missing): pass --vocab-from FILE "
                       "with the training text",
                       m->path);
    }
    uint32_t *cp = malloc((len ? len : 1) * sizeof *cp);
    if (!cp)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    int n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t c;
        i += (size_t)utf8_decode((const unsigned char *)v + i, len - i, &c);
        if (c == UTF8_INVALID) {
            free(cp);
            return gt_fail(e, GT_EINPUT, "%s: metadata vocab is not valid UTF-8", m->path);
        }
        cp[n++] = c;
    }
    int rc = set_vocab(m, cp, n, "metadata vocab", e);
    free(cp);
    return rc;
}

/* Finds the recurrent tensors' prefix and the number of layers. */
static int find_layers(gt_model *m, gt_error *e)
{
    const st_file *f = &m->file;
    int maxk = -1;
    for (size_t i = 0; i < f->ntensor; i++) {
        const char *name = f->tensor[i].name;
        size_t plen;
        if (strstr(name, "_reverse") && (strstr(name, "weight_ih_l") || strstr(name, "weight_hh_l")))
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: bidirectional networks are not supported", m->path,
                           name);
        if (layer_of(name, "weight_hr_l", &plen) >= 0)
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: projected LSTMs (proj_size) are not supported", m->path,
                           name);
        int k = layer_of(name, "weight_ih_l", &plen);
        if (k < 0)
            continue;
        if (!m->prefix) {
            m->prefix = strndup(name, plen);
            if (!m->prefix)
                return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
        } else if (strlen(m->prefix) != plen || strncmp(m->prefix, name, plen) != 0) {
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: a second recurrent network (prefix \"%.*s\" besides "
                           "\"%s\"); the file must hold one",
                           m->path, name, (int)plen, name, m->prefix);
        }
        if (k > maxk)
            maxk = k;
    }
    if (maxk < 0)
        return gt_fail(e, GT_EINPUT,
                       "%s: no recurrent layer: no tensor named <prefix>weight_ih_l0 (nn.LSTM or "
                       "nn.GRU state_dict names expected)",
                       m->path);
    if (maxk >= MAX_LAYERS)
        return gt_fail(e, GT_EINPUT, "%s: %d layers is more than %d", m->path, maxk + 1,
                       MAX_LAYERS);
    m->layers = maxk + 1;
    return GT_OK;
}

static const st_tensor *layer_tensor(const gt_model *m, const char *stem, int k, char *name,
                                     size_t n)
{
    snprintf(name, n, "%s%s%d", m->prefix, stem, k);
    return st_find(&m->file, name);
}

static int load_layers(gt_model *m, gt_error *e)
{
    char name[512];
    const st_tensor *hh0 = layer_tensor(m, "weight_hh_l", 0, name, sizeof name);
    if (!hh0)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing", m->path, name);
    if (hh0->ndim != 2 || hh0->shape[1] == 0 || hh0->shape[1] > MAX_HIDDEN ||
        hh0->shape[0] % hh0->shape[1] != 0)
        return bad_shape(m, hh0, "[G*H, H] with G = 4 (LSTM) or 3 (GRU)", e);
    uint64_t g = hh0->shape[0] / hh0->shape[1];
    if (g == 4)
        m->arch = GT_LSTM;
    else if (g == 3)
        m->arch = GT_GRU;
    else
        return gt_fail(e, GT_EINPUT,
                       "%s: tensor %s: %llu gate blocks; an LSTM has 4 and a GRU 3 (plain RNNs are "
                       "not supported)",
                       m->path, hh0->name, (unsigned long long)g);
    m->gates = (int)g;
    m->hidden = (int)hh0->shape[1];
    const uint64_t H = (uint64_t)m->hidden, GH = g * H;
    char want[128];

    m->layer = own(m, calloc((size_t)m->layers, sizeof *m->layer));
    if (!m->layer)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    int biases = -1;
    for (int k = 0; k < m->layers; k++) {
        gt_layer *ly = &m->layer[k];
        const st_tensor *ih = layer_tensor(m, "weight_ih_l", k, name, sizeof name);
        if (!ih)
            return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing (the model has layer %d)",
                           m->path, name, m->layers - 1);
        const st_tensor *hh = layer_tensor(m, "weight_hh_l", k, name, sizeof name);
        if (!hh)
            return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing", m->path, name);
        snprintf(want, sizeof want, "[%llu, %llu]", (unsigned long long)GH,
                 (unsigned long long)H);
        if (!is_2d(hh, GH, H))
            return bad_shape(m, hh, want, e);
        if (k == 0) {
            if (ih->ndim != 2 || ih->shape[0] != GH || ih->shape[1] == 0 ||
                ih->shape[1] > MAX_INPUT_DIM) {
                snprintf(want, sizeof want, "[%llu, D] (the input width D at least 1)",
                         (unsigned long long)GH);
                return bad_shape(m, ih, want, e);
            }
            m->input_dim = (int)ih->shape[1];
        } else if (!is_2d(ih, GH, H)) {
            return bad_shape(m, ih, want, e);
        }
        ly->in_dim = (int)ih->shape[1];
        const st_tensor *bi = layer_tensor(m, "bias_ih_l", k, name, sizeof name);
        char name2[512];
        const st_tensor *bh = layer_tensor(m, "bias_hh_l", k, name2, sizeof name2);
        if (!bi != !bh)
            return gt_fail(e, GT_EINPUT, "%s: tensor %s is missing (%s is present)", m->path,
                           bi ? name2 : name, bi ? name : name2);
        if (biases >= 0 && biases != !!bi)
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: some layers have biases and others do not", m->path,
                           name);
        biases = !!bi;
        snprintf(want, sizeof want, "[%llu]", (unsigned long long)GH);
        int rc;
        if (bi) {
            if (bi->ndim != 1 || bi->shape[0] != GH)
                return bad_shape(m, bi, want, e);
            if (bh->ndim != 1 || bh->shape[0] != GH)
                return bad_shape(m, bh, want, e);
            if ((rc = weights(m, bi, &ly->b_ih, e)) || (rc = weights(m, bh, &ly->b_hh, e)))
                return rc;
        } else {
            ly->b_ih = zeros(m, GH);
            ly->b_hh = zeros(m, GH);
            if (!ly->b_ih || !ly->b_hh)
                return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
        }
        if ((rc = weights(m, ih, &ly->w_ih, e)) || (rc = weights(m, hh, &ly->w_hh, e)))
            return rc;
    }
    m->has_bias = biases;
    return GT_OK;
}

static int is_recurrent(const gt_model *m, const char *name)
{
    size_t plen = strlen(m->prefix);
    return strncmp(name, m->prefix, plen) == 0 &&
           (strncmp(name + plen, "weight_", 7) == 0 || strncmp(name + plen, "bias_", 5) == 0);
}

static int load_embedding_and_readout(gt_model *m, gt_error *e)
{
    const st_file *f = &m->file;
    const st_tensor *emb = NULL;
    for (size_t i = 0; i < f->ntensor; i++) {
        const st_tensor *t = &f->tensor[i];
        size_t n = strlen(t->name);
        if (t->ndim != 2 || is_recurrent(m, t->name))
            continue;
        if (strstr(t->name, "emb") ||
            (n >= 14 && strcmp(t->name + n - 14, "encoder.weight") == 0)) {
            if (emb)
                return gt_fail(e, GT_EINPUT, "%s: tensor %s: a second embedding besides %s",
                               m->path, t->name, emb->name);
            emb = t;
        }
    }
    int rc;
    if (emb) {
        char want[128];
        snprintf(want, sizeof want, "[V, %d] (the input width of %sweight_ih_l0)", m->input_dim,
                 m->prefix);
        if (emb->shape[1] != (uint64_t)m->input_dim || emb->shape[0] == 0)
            return bad_shape(m, emb, want, e);
        if (emb->shape[0] > GT_MAX_VOCAB)
            return gt_fail(e, GT_EINPUT, "%s: tensor %s: vocabulary of %llu tokens is larger than %d",
                           m->path, emb->name, (unsigned long long)emb->shape[0], GT_MAX_VOCAB);
        m->vocab = (int)emb->shape[0];
        m->has_embedding = 1;
        if ((rc = weights(m, emb, &m->emb, e)))
            return rc;
    } else {
        if (m->input_dim > GT_MAX_VOCAB)
            return gt_fail(e, GT_EINPUT,
                           "%s: one-hot input of width %d is larger than the largest vocabulary (%d)",
                           m->path, m->input_dim, GT_MAX_VOCAB);
        m->vocab = m->input_dim;
    }

    const st_tensor *out = NULL;
    for (size_t i = 0; i < f->ntensor; i++) {
        const st_tensor *t = &f->tensor[i];
        if (t == emb || is_recurrent(m, t->name) ||
            !is_2d(t, (uint64_t)m->vocab, (uint64_t)m->hidden))
            continue;
        if (out)
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: a second readout candidate of shape [%d, %d] besides %s",
                           m->path, t->name, m->vocab, m->hidden, out->name);
        out = t;
    }
    if (!out)
        return GT_OK;
    m->has_readout = 1;
    m->readout_name = strdup(out->name);
    if (!m->readout_name)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    if ((rc = weights(m, out, &m->out_w, e)))
        return rc;
    /* the bias: the same name with its last "weight" replaced by "bias" */
    char bname[600];
    const char *w = NULL;
    for (const char *s = strstr(out->name, "weight"); s; s = strstr(s + 1, "weight"))
        w = s;
    const st_tensor *b = NULL;
    if (w) {
        snprintf(bname, sizeof bname, "%.*sbias%s", (int)(w - out->name), out->name, w + 6);
        b = st_find(f, bname);
    }
    if (!b) {
        m->out_b = zeros(m, (size_t)m->vocab);
        return m->out_b ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    if (b->ndim != 1 || b->shape[0] != (uint64_t)m->vocab) {
        char want[64];
        snprintf(want, sizeof want, "[%d] (the readout's vocabulary)", m->vocab);
        return bad_shape(m, b, want, e);
    }
    return weights(m, b, &m->out_b, e);
}

/* Layer 0's input part for every token, computed in double: W_ih x_v + b_ih. */
static int build_input_table(gt_model *m, gt_error *e)
{
    const size_t V = (size_t)m->vocab, GH = (size_t)m->gates * (size_t)m->hidden;
    const size_t D = (size_t)m->input_dim;
    if (V * GH > MAX_TABLE)
        return GT_OK; /* computed at each step instead */
    float *tab = own(m, malloc(V * GH * sizeof *tab));
    if (!tab)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    const gt_layer *l0 = &m->layer[0];
    for (size_t v = 0; v < V; v++)
        for (size_t r = 0; r < GH; r++) {
            double s = l0->b_ih[r];
            if (m->has_embedding) {
                const float *w = l0->w_ih + r * D, *x = m->emb + v * D;
                for (size_t j = 0; j < D; j++)
                    s += (double)w[j] * x[j];
            } else {
                s += l0->w_ih[r * D + v];
            }
            tab[v * GH + r] = (float)s;
        }
    m->x_table = tab;
    return GT_OK;
}

static int load_options(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    const char *r = st_meta(&m->file, "gru_reset", NULL);
    if (r && strcmp(r, "before") != 0 && strcmp(r, "after") != 0)
        return gt_fail(e, GT_EINPUT,
                       "%s: metadata gru_reset is \"%.40s\"; expected \"before\" or \"after\"",
                       m->path, r);
    m->gru_reset_before = r && strcmp(r, "before") == 0;
    if (opt && opt->gru_reset >= 0)
        m->gru_reset_before = opt->gru_reset;
    return GT_OK;
}

int model_load(gt_model *m, const char *path, const gt_model_options *opt, gt_error *e)
{
    memset(m, 0, sizeof *m);
    m->path = strdup(path);
    if (!m->path)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    int rc = st_open(&m->file, path, e);
    if (rc == GT_OK)
        rc = find_layers(m, e);
    if (rc == GT_OK)
        rc = load_layers(m, e);
    if (rc == GT_OK)
        rc = load_embedding_and_readout(m, e);
    if (rc == GT_OK)
        rc = load_vocab(m, opt, e);
    if (rc == GT_OK)
        rc = load_options(m, opt, e);
    if (rc == GT_OK)
        rc = build_input_table(m, e);
    if (rc) {
        model_free(m);
        return rc;
    }
    for (size_t i = 0; i < m->file.ntensor; i++)
        m->params += (long long)m->file.tensor[i].nelem;
    return GT_OK;
}

void model_free(gt_model *m)
{
    for (size_t i = 0; i < m->nowned; i++)
        free(m->owned[i]);
    free(m->owned);
    free(m->path);
    free(m->prefix);
    free(m->readout_name);
    if (m->file.path)
        st_close(&m->file);
    memset(m, 0, sizeof *m);
}

const char *model_arch_name(const gt_model *m)
{
    return m->arch == GT_LSTM ? "lstm" : "gru";
}

const char *model_gate_name(const gt_model *m, int b)
{
    static const char *lstm[] = {"i", "f", "g", "o"}, *gru[] = {"r", "z", "n"};
    if (b < 0 || b >= m->gates)
        return "?";
    return m->arch == GT_LSTM ? lstm[b] : gru[b];
}

int model_carry_gate(const gt_model *m)
{
    return m->arch == GT_LSTM ? GT_F : GT_Z;
}

int model_sigmoid_gates(const gt_model *m, int *blocks)
{
    if (m->arch == GT_LSTM) {
        blocks[0] = GT_I;
        blocks[1] = GT_F;
        blocks[2] = GT_O;
        return 3;
    }
    blocks[0] = GT_R;
    blocks[1] = GT_Z;
    return 2;
}
