/* Matching the vocabularies of several models (vocabmap.h); word models by their words. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/vocabmap.h"

/* Appends one to buf while it fits, else ", ..." once. */
static void append_name(char *buf, size_t n, const char *one)
{
    size_t len = strlen(buf);
    if (len + strlen(one) + 5 < n)
        memcpy(buf + len, one, strlen(one) + 1);
    else if (len + 5 < n && !strstr(buf, "..."))
        memcpy(buf + len, ", ...", 6);
}

/* Appends cp to buf as 'c' (printable ASCII) or U+XXXX, while it fits. */
static void name_cp(char *buf, size_t n, uint32_t cp)
{
    char one[16];
    const char *sep = buf[0] ? ", " : "";
    if (cp > 0x20 && cp < 0x7F && cp != '\'')
        snprintf(one, sizeof one, "%s'%c'", sep, (char)cp);
    else
        snprintf(one, sizeof one, "%sU+%04X", sep, (unsigned)cp);
    append_name(buf, n, one);
}

/* The characters of a's look-up that b lacks, into buf (empty when none). */
static int missing(const gt_model *a, const gt_model *b, char *buf, size_t n)
{
    int count = 0;
    buf[0] = 0;
    for (int i = 0; i < a->lookup_n; i++)
        if (model_token(b, a->lookup_cp[i]) < 0) {
            name_cp(buf, n, a->lookup_cp[i]);
            count++;
        }
    return count;
}

/* Appends "'word'" to buf, while it fits. */
static void name_word(char *buf, size_t n, const char *w)
{
    char one[64];
    snprintf(one, sizeof one, "%s'%.40s'", buf[0] ? ", " : "", w);
    append_name(buf, n, one);
}

/* The words of a that b lacks, into buf (empty when none). */
static int missing_words(const gt_model *a, const gt_model *b, char *buf, size_t n)
{
    int count = 0;
    buf[0] = 0;
    for (int i = 0; i < a->vocab; i++)
        if (model_word_token(b, a->vocab_word[i], a->vocab_len[i]) < 0) {
            name_word(buf, n, a->vocab_word[i]);
            count++;
        }
    return count;
}

/* The message when the two hold different tokens: a of ref's that m lacks, b the other
 * way, named in the lists. */
static int differ(const gt_model *ref, const gt_model *m, int a, const char *only_ref, int b,
                  const char *only_m, gt_error *e)
{
    char what[560];
    snprintf(what, sizeof what, "%s%s%s%s%s%s", a ? "only the first has " : "",
             a ? only_ref : "", a && b ? "; " : "", b ? "only " : "", b ? m->path : "",
             b ? " has " : "");
    return gt_fail(e, GT_EINPUT, "%s and %s: the vocabularies differ: %s%s", ref->path,
                   m->path, what, b ? only_m : "");
}

/* Two word models: the same words, in any order. */
static int map_words(const gt_model *ref, const gt_model *m, uint16_t **map, gt_error *e)
{
    char only_ref[240], only_m[240];
    int a = missing_words(ref, m, only_ref, sizeof only_ref);
    int b = missing_words(m, ref, only_m, sizeof only_m);
    if (a || b)
        return differ(ref, m, a, only_ref, b, only_m, e);
    uint16_t *t = malloc((size_t)ref->vocab * sizeof *t);
    if (!t)
        return gt_fail(e, GT_EFAIL, "out of memory");
    int identity = 1;
    for (int v = 0; v < ref->vocab; v++) {
        t[v] = (uint16_t)model_word_token(m, ref->vocab_word[v], ref->vocab_len[v]);
        identity &= t[v] == v;
    }
    if (identity)
        free(t);
    else
        *map = t;
    return GT_OK;
}

int vocab_map(const gt_model *ref, const gt_model *m, uint16_t **map, gt_error *e)
{
    *map = NULL;
    if (ref->words != m->words)
        return gt_fail(e, GT_EINPUT, "%s and %s: the vocabularies differ: %s steps words, %s "
                                     "characters",
                       ref->path, m->path, ref->words ? ref->path : m->path,
                       ref->words ? m->path : ref->path);
    if (ref->words)
        return map_words(ref, m, map, e);
    char only_ref[240], only_m[240];
    int a = missing(ref, m, only_ref, sizeof only_ref), b = missing(m, ref, only_m, sizeof only_m);
    if (a || b)
        return differ(ref, m, a, only_ref, b, only_m, e);
    /* the same characters: the tokens no character maps to (<pad>, <unk>, ...) may differ
     * in number, since no text holds them; ref's are matched to m's in order while m has
     * some, the rest to m's token 0 (never looked up) */
    uint16_t *t = malloc((size_t)ref->vocab * sizeof *t);
    if (!t)
        return gt_fail(e, GT_EFAIL, "out of memory");
    int identity = 1, next_special = 0;
    for (int v = 0; v < ref->vocab; v++) {
        int w = -1;
        if (ref->vocab_cp[v] != GT_NOCHAR_CP || model_token(ref, GT_NOCHAR_CP) == v) {
            w = model_token(m, ref->vocab_cp[v]);
        } else { /* the next token of m no character maps to */
            while (next_special < m->vocab && (m->vocab_cp[next_special] != GT_NOCHAR_CP ||
                                               model_token(m, GT_NOCHAR_CP) == next_special))
                next_special++;
            w = next_special < m->vocab ? next_special++ : 0;
        }
        t[v] = (uint16_t)w;
        identity &= w == v;
    }
    if (identity)
        free(t);
    else
        *map = t;
    return GT_OK;
}

void vocab_map_tokens(uint16_t *tok, size_t n, const uint16_t *map)
{
    for (size_t s = 0; s < n; s++)
        tok[s] = map[tok[s]];
}
