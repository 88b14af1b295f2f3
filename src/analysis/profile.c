/* A unit's profile (see profile.h). */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gatetui/profile.h"
#include "gatetui/text.h"
#include "analysis/steptext.h"

typedef struct acc {
    gt_profile *p;
    double *sum;        /* [V] */
    size_t *count;      /* [V] */
    const uint16_t *tok;
} acc;

/* Puts (t, v) in the list of at most PROFILE_TOP kept in order: highest first when hi,
 * lowest first otherwise; an equal value keeps the earlier step first. */
static void keep(gt_profile_hit *list, int *n, size_t t, double v, int hi)
{
    int i = *n < PROFILE_TOP ? (*n)++ : PROFILE_TOP;
    if (i == PROFILE_TOP) {
        double last = list[PROFILE_TOP - 1].value;
        if (hi ? v <= last : v >= last)
            return;
        i = PROFILE_TOP - 1;
    }
    while (i > 0 && (hi ? list[i - 1].value < v : list[i - 1].value > v)) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = (gt_profile_hit){t, v};
}

static int profile_step(void *ctx, size_t t, const gt_run *r)
{
    acc *a = ctx;
    gt_profile *p = a->p;
    double v = signals_of(r, p->layer, p->signal)[p->unit];
    keep(p->top, &p->ntop, t, v, 1);
    keep(p->bottom, &p->nbottom, t, v, 0);
    a->sum[a->tok[t]] += v;
    a->count[a->tok[t]]++;
    return 0;
}

static int by_mean(const void *pa, const void *pb, void *model)
{
    const gt_profile_char *a = pa, *b = pb;
    const gt_model *cmp_model = model;
    if (a->mean != b->mean)
        return a->mean > b->mean ? -1 : 1;
    if (cmp_model->words)
        return (a->tok > b->tok) - (a->tok < b->tok);
    uint32_t x = cmp_model->vocab_cp[a->tok], y = cmp_model->vocab_cp[b->tok];
    return x < y ? -1 : x > y;
}

/* The most frequent first, ties by token. */
static int by_count(const void *pa, const void *pb)
{
    const gt_profile_char *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->tok > b->tok) - (a->tok < b->tok);
}

int profile_compute(gt_profile *p, const gt_model *m, const uint16_t *tok, size_t n, int unit,
                    int signal, const gt_pass_options *o, gt_error *e)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->layer = o->layer;
    p->unit = unit;
    p->signal = signal;
    p->steps = n;
    const size_t V = (size_t)m->vocab;
    acc a = {p, calloc(V, sizeof(double)), calloc(V, sizeof(size_t)), tok};
    p->by_char = malloc(V * sizeof *p->by_char);
    int rc = a.sum && a.count && p->by_char
                 ? signals_pass(m, tok, n, o, profile_step, &a, e)
                 : gt_fail(e, GT_EFAIL, "out of memory for the profile");
    if (rc == GT_OK) {
        for (size_t v = 0; v < V; v++)
            if (a.count[v])
                p->by_char[p->nchars++] =
                    (gt_profile_char){(int)v, a.sum[v] / (double)a.count[v], a.count[v]};
        if (m->words && p->nchars > PROFILE_TOKENS) {
            qsort(p->by_char, (size_t)p->nchars, sizeof *p->by_char, by_count);
            p->nchars = PROFILE_TOKENS;
        }
        qsort_r(p->by_char, (size_t)p->nchars, sizeof *p->by_char, by_mean, (void *)m);
    }
    free(a.sum);
    free(a.count);
    if (rc)
        profile_free(p);
    return rc;
}

void profile_free(gt_profile *p)
{
    free(p->by_char);
    memset(p, 0, sizeof *p);
}

/* Appends token tok (and the gap before it when k > 0) to buf at k, cut to at most max
 * bytes at a character's start; returns the new end. */
static size_t put_token(const gt_model *m, const uint16_t *tok, size_t t, size_t first,
                        char *buf, size_t k, size_t max)
{
    char u[4];
    int l;
    if (t > first && text_token_gap(m, tok[t - 1], tok[t]))
        buf[k++] = ' ';
    const char *w = steptext_token(m, tok[t], u, &l);
    size_t n = (size_t)l;
    if (n > max)
        for (n = max; n > 0 && ((unsigned char)w[n] & 0xC0) == 0x80; n--)
            ;
    memcpy(buf + k, w, n);
    return k + n;
}

/* The first token of a word model's context before step s: as many whole tokens as fit
 * `before` bytes. */
static size_t words_before(const gt_model *m, const uint16_t *tok, size_t s, size_t before)
{
    size_t a = s, bytes = 0;
    while (a > 0) {
        size_t l = steptext_len(m, tok[a - 1]) + text_token_gap(m, tok[a - 1], tok[a]);
        if (bytes + l > before)
            break;
        bytes += l;
        a--;
    }
    return a;
}

size_t profile_context(const gt_model *m, const uint16_t *tok, size_t n, size_t s, char *buf,
                     size_t *at, size_t *len)
{
    return profile_context_within(m, tok, n, s, PROFILE_WORDS_BEFORE, PROFILE_WORDS_AFTER, buf,
                                  at, len);
}

size_t profile_context_within(const gt_model *m, const uint16_t *tok, size_t n, size_t s,
                              size_t before, size_t after, char *buf, size_t *at, size_t *len)
{
    size_t a = s > PROFILE_BEFORE ? s - PROFILE_BEFORE : 0;
    size_t b = s + 1 + PROFILE_AFTER < n ? s + 1 + PROFILE_AFTER : n;
    before = before < PROFILE_WORDS_BEFORE ? before : PROFILE_WORDS_BEFORE;
    after = after < PROFILE_WORDS_AFTER ? after : PROFILE_WORDS_AFTER;
    if (m->words)
        a = words_before(m, tok, s, before);
    size_t k = 0;
    for (size_t t = a; t < b; t++) {
        const size_t k0 = k + (t > a && text_token_gap(m, tok[t - 1], tok[t]));
        if (m->words && t > s && k0 + steptext_len(m, tok[t]) > *at + *len + after)
            break;
        k = put_token(m, tok, t, a, buf, k, t == s ? PROFILE_WORD_MAX : PROFILE_WORDS_BEFORE);
        if (t == s) {
            *at = k0;
            *len = k - k0;
        }
    }
    buf[k] = 0;
    return k;
}
