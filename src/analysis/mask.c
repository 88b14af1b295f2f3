/* The mask of a regular expression over the steps' characters (see mask.h). */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/mask.h"
#include "analysis/steptext.h"

/* The expression with \n and \t turned into the characters (a doubled backslash is kept). */
static char *translate(const char *re)
{
    size_t n = strlen(re);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (re[i] == '\\' && (re[i + 1] == 'n' || re[i + 1] == 't')) {
            *o++ = re[i + 1] == 'n' ? '\n' : '\t';
            i++;
        } else if (re[i] == '\\' && re[i + 1]) {
            *o++ = re[i++];
            *o++ = re[i];
        } else {
            *o++ = re[i];
        }
    }
    *o = 0;
    return out;
}

static int compile(regex_t *rx, const char *regex, gt_error *e)
{
    char *tr = translate(regex);
    if (!tr)
        return gt_fail(e, GT_EFAIL, "out of memory for the regular expression");
    int rc = regcomp(rx, tr, REG_EXTENDED);
    free(tr);
    if (rc) {
        char why[200];
        regerror(rc, rx, why, sizeof why);
        return gt_fail(e, GT_EINPUT, "\"%s\" is not a valid regular expression: %s", regex, why);
    }
    return GT_OK;
}

/* Walks the steps along the joined text: step s starts at byte off. */
typedef struct cursor {
    size_t s, off;
    const unsigned char *len; /* [V] each token's length in bytes */
    const uint16_t *tok;
    size_t n;
} cursor;

/* Moves to the step whose character holds byte b. */
static void seek(cursor *c, size_t b)
{
    while (c->s < c->n && c->off + c->len[c->tok[c->s]] <= b) {
        c->off += c->len[c->tok[c->s]];
        c->s++;
    }
}

static int add_match(gt_mask *k, size_t from, size_t to, size_t *cap)
{
    if (k->matches == *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        size_t *nf = realloc(k->from, nc * sizeof *nf);
        if (!nf)
            return -1;
        k->from = nf;
        size_t *nt = realloc(k->to, nc * sizeof *nt);
        if (!nt)
            return -1;
        k->to = nt;
        *cap = nc;
    }
    k->from[k->matches] = from;
    k->to[k->matches++] = to;
    return 0;
}

/* Every non-overlapping match, left to right, into k. */
static int search(gt_mask *k, const regex_t *rx, const char *buf, size_t len, cursor *c,
                  gt_error *e)
{
    size_t pos = 0, cap = 0;
    while (pos <= len && c->s < c->n) {
        regmatch_t pm[1];
        pm[0].rm_so = (regoff_t)pos;
        pm[0].rm_eo = (regoff_t)len;
#ifdef REG_STARTEND
        if (regexec(rx, buf, 1, pm, REG_STARTEND) != 0)
            break;
#else
        if (regexec(rx, buf + pos, 1, pm, pos ? REG_NOTBOL : 0) != 0)
            break;
        pm[0].rm_so += (regoff_t)pos;
        pm[0].rm_eo += (regoff_t)pos;
#endif
        size_t so = (size_t)pm[0].rm_so, eo = (size_t)pm[0].rm_eo;
        seek(c, so);
        if (c->s >= c->n)
            break;
        if (eo == so) { /* an empty match: on from the next step */
            pos = c->off + c->len[c->tok[c->s]];
            continue;
        }
        size_t first = c->s;
        while (c->s < c->n && c->off < eo) {
            if (!k->m[c->s]) {
                k->m[c->s] = 1;
                k->inside++;
            }
            c->off += c->len[c->tok[c->s]];
            c->s++;
        }
        if (add_match(k, first, c->s - 1, &cap))
            return gt_fail(e, GT_EFAIL, "out of memory for the matches");
        pos = eo;
    }
    return GT_OK;
}

int mask_from_regex(gt_mask *k, const gt_model *m, const uint16_t *tok, size_t n,
                    const char *regex, gt_error *e)
{
    memset(k, 0, sizeof *k);
    regex_t rx;
    int rc = compile(&rx, regex, e);
    if (rc)
        return rc;
    char *buf = NULL;
    size_t len = 0;
    unsigned char *tlen = malloc((size_t)m->vocab);
    k->m = calloc(n ? n : 1, 1);
    k->n = n;
    rc = tlen && k->m ? steptext_join(m, tok, 0, n, &buf, &len, e)
                      : gt_fail(e, GT_EFAIL, "out of memory for the mask");
    if (rc == GT_OK) {
        char u[4];
        for (int v = 0; v < m->vocab; v++)
            tlen[v] = (unsigned char)steptext_raw_char(m, v, u);
        cursor c = {0, 0, tlen, tok, n};
        rc = search(k, &rx, buf, len, &c, e);
    }
    regfree(&rx);
    free(buf);
    free(tlen);
    if (rc == GT_OK && k->inside == 0)
        rc = gt_fail(e, GT_EINPUT, "\"%s\" matches no character of the %zu steps searched",
                     regex, n);
    else if (rc == GT_OK && k->inside == n)
        rc = gt_fail(e, GT_EINPUT,
                     "\"%s\" matches every one of the %zu steps searched: nothing to compare with",
                     regex, n);
    if (rc)
        mask_free(k);
    return rc;
}

void mask_free(gt_mask *k)
{
    free(k->m);
    free(k->from);
    free(k->to);
    memset(k, 0, sizeof *k);
}
