/* A word model's vocabulary (doc/model-files.md, "Word models"): its tokens'
 * texts kept with the model, the look-up of a word, and the tokens "<eos>" and "<unk>". */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_impl.h"

/* The order of two byte strings: memcmp, a prefix first. */
static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

static int by_text(const void *pa, const void *pb, void *model)
{
    const gt_model *m = model;
    const uint16_t a = *(const uint16_t *)pa, b = *(const uint16_t *)pb;
    return bytes_cmp(m->vocab_word[a], m->vocab_len[a], m->vocab_word[b], m->vocab_len[b]);
}

int model_word_token(const gt_model *m, const char *w, size_t len)
{
    if (!m->words)
        return -1;
    int lo = 0, hi = m->vocab - 1;
    while (lo <= hi) {
        const int mid = (lo + hi) / 2, t = m->word_sorted[mid];
        const int c = bytes_cmp(m->vocab_word[t], m->vocab_len[t], w, len);
        if (c == 0)
            return t;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Whether word_sorted[i]'s text comes before p[0..len) (upto 0), or before every text
 * after those beginning with it (upto 1). */
static int before(const gt_model *m, int i, const char *p, size_t len, int upto)
{
    const int t = m->word_sorted[i];
    const size_t n = m->vocab_len[t];
    if (upto && n >= len && memcmp(m->vocab_word[t], p, len) == 0)
        return 1;
    return bytes_cmp(m->vocab_word[t], n, p, len) < 0;
}

/* The first place in word_sorted for which before() is 0. */
static int bound(const gt_model *m, const char *p, size_t len, int upto)
{
    int lo = 0, hi = m->vocab;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (before(m, mid, p, len, upto))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int model_word_prefix(const gt_model *m, const char *p, size_t len, int *first)
{
    *first = 0;
    if (!m->words)
        return 0;
    *first = bound(m, p, len, 0);
    return bound(m, p, len, 1) - *first;
}

/* The tokens' texts copied into one block the model owns. */
static int copy_words(gt_model *m, const gt_vocab_found *v, gt_error *e)
{
    const size_t V = (size_t)m->vocab;
    size_t total = 0;
    for (size_t i = 0; i < V; i++)
        total += (v->tok[i] ? strlen(v->tok[i]) : 0) + 1;
    char *block = model_own(m, malloc(total));
    m->vocab_word = model_own(m, malloc(V * sizeof *m->vocab_word));
    m->vocab_len = model_own(m, malloc(V * sizeof *m->vocab_len));
    m->word_sorted = model_own(m, malloc(V * sizeof *m->word_sorted));
    m->vocab_cp = model_own(m, malloc(V * sizeof *m->vocab_cp));
    if (!block || !m->vocab_word || !m->vocab_len || !m->word_sorted || !m->vocab_cp)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    for (size_t i = 0; i < V; i++) {
        const size_t n = v->tok[i] ? strlen(v->tok[i]) : 0;
        memcpy(block, n ? v->tok[i] : "", n + 1);
        m->vocab_word[i] = block;
        m->vocab_len[i] = (uint32_t)n;
        m->word_sorted[i] = (uint16_t)i;
        m->vocab_cp[i] = GT_NOCHAR_CP;
        block += n + 1;
    }
    return GT_OK;
}

int vocab_set_words(gt_model *m, const gt_vocab_found *v, gt_error *e)
{
    int rc = copy_words(m, v, e);
    if (rc)
        return rc;
    m->words = 1;
    m->vocab_where = v->where;
    m->vocab_special = m->vocab;
    m->lookup_n = 0;
    qsort_r(m->word_sorted, (size_t)m->vocab, sizeof *m->word_sorted, by_text, m);
    for (int i = 1; i < m->vocab; i++) {
        const int a = m->word_sorted[i - 1], b = m->word_sorted[i];
        if (by_text(&m->word_sorted[i - 1], &m->word_sorted[i], m) == 0)
            return gt_fail(e, GT_EINPUT, "%s: %s lists the token \"%.60s\" twice (%d and %d)",
                           m->path, v->where, m->vocab_word[a], a < b ? a : b, a < b ? b : a);
    }
    m->tok_eos = model_word_token(m, "<eos>", 5);
    m->tok_unk = model_word_token(m, "<unk>", 5);
    return GT_OK;
}
