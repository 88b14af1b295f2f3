/* The text as edited, in bytes (see edtext.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gatetui/utf8.h"
#include "screen/edtext.h"

#define NOWHERE ((size_t)-1)

int edtext_open(gt_edtext *x, const gt_trace *tr, gt_error *e)
{
    const gt_text *t = trace_text(tr);
    size_t T = trace_steps(tr), n = 0;
    memset(x, 0, sizeof *x);
    x->t = t;
    for (size_t s = trace_next_edited(tr, 0); s < T; s = trace_next_edited(tr, s + 1))
        n++;
    if (!n)
        return GT_OK;
    x->p = calloc(n, sizeof *x->p);
    if (!x->p)
        return gt_fail(e, GT_EFAIL, "out of memory for the edited text");
    const gt_model *m = trace_model(tr);
    for (size_t s = trace_next_edited(tr, 0); s < T; s = trace_next_edited(tr, s + 1)) {
        gt_patch *p = &x->p[x->n++];
        const int tok = trace_token(tr, s);
        uint32_t now = m->vocab_cp[tok];
        p->off = text_step_offset(t, s);
        p->len = text_step_len(t, s);
        p->text = p->rep;
        if (m->words) { /* the new token, as the text joins tokens */
            p->text = tok == m->tok_eos ? "\n" : m->vocab_word[tok];
            p->nrep = tok == m->tok_eos ? 1 : m->vocab_len[tok];
            if (tok != m->tok_eos && trace_original_at(tr, s) == m->tok_eos) {
                /* a word where the text has a newline: apart from its neighbours */
                if (!(p->own = malloc(p->nrep + 3))) {
                    edtext_close(x);
                    return gt_fail(e, GT_EFAIL, "out of memory for the edited text");
                }
                snprintf(p->own, p->nrep + 3, " %s ", p->text);
                p->text = p->own;
                p->nrep += 2;
            }
        } else if (t->bytes_mode) {
            p->rep[0] = (char)now;
            p->nrep = 1;
        } else {
            p->nrep = (size_t)utf8_encode(now, p->rep);
        }
    }
    return GT_OK;
}

void edtext_close(gt_edtext *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->p[i].own);
    free(x->p);
    memset(x, 0, sizeof *x);
}

int edtext_write(const gt_edtext *x, FILE *f)
{
    const unsigned char *b = x->t->bytes;
    size_t o = 0;
    for (size_t i = 0; i < x->n; i++) {
        fwrite(b + o, 1, x->p[i].off - o, f);
        fwrite(x->p[i].text, 1, x->p[i].nrep, f);
        o = x->p[i].off + x->p[i].len;
    }
    fwrite(b + o, 1, x->t->nbytes - o, f);
    return ferror(f);
}

/* The first edited character at or after position o (n when none is): a search is one key
 * press, and the edited characters are the user's, few. */
static size_t patch_at_or_after(const gt_edtext *x, size_t o)
{
    size_t i = 0;
    while (i < x->n && x->p[i].off < o)
        i++;
    return i;
}

/* 1 when the edited text from position o reads nd[0..len); i is the first edited character
 * at or after o. */
static int match_at(const gt_edtext *x, size_t o, size_t i, const unsigned char *nd, size_t len)
{
    const unsigned char *b = x->t->bytes;
    size_t n = x->t->nbytes;
    if (!x->fold && (i == x->n || x->p[i].off >= o + len)) /* loaded bytes only */
        return o + len <= n && memcmp(b + o, nd, len) == 0;
    for (size_t j = 0, k = 0; j < len; j++) {
        unsigned char c;
        if (i < x->n && o == x->p[i].off) {
            c = (unsigned char)x->p[i].text[k++];
            if (k == x->p[i].nrep) {
                o += x->p[i].len;
                i++;
                k = 0;
            }
        } else if (o < n) {
            c = b[o++];
        } else {
            return 0;
        }
        if (c != nd[j] && !(x->fold && c >= 'A' && c <= 'Z' && c + 32 == nd[j]))
            return 0;
    }
    return 1;
}

/* The first match starting at a position in [from, to). */
static size_t find_forward(const gt_edtext *x, const unsigned char *nd, size_t len, size_t from,
                           size_t to)
{
    const unsigned char *b = x->t->bytes;
    size_t i = patch_at_or_after(x, from);
    if (i > 0 && from < x->p[i - 1].off + x->p[i - 1].len) /* inside a replaced character */
        from = x->p[i - 1].off + x->p[i - 1].len;
    for (size_t o = from; o < to;) {
        size_t seg = i < x->n && x->p[i].off < to ? x->p[i].off : to; /* loaded bytes to seg */
        while (o < seg) {
            const unsigned char *q = memchr(b + o, nd[0], seg - o);
            if (x->fold && nd[0] >= 'a' && nd[0] <= 'z') { /* the upper case one, if earlier */
                const unsigned char *u = memchr(b + o, nd[0] - 32, (q ? (size_t)(q - b) : seg) - o);
                q = u ? u : q;
            }
            if (!q)
                break;
            o = (size_t)(q - b);
            if (match_at(x, o, i, nd, len))
                return o;
            o++;
        }
        if (seg == to)
            break;
        if (match_at(x, seg, i, nd, len))
            return seg;
        o = seg + x->p[i].len;
        i++;
    }
    return NOWHERE;
}

/* The last match starting at a position in [lo, hi). */
static size_t find_backward(const gt_edtext *x, const unsigned char *nd, size_t len, size_t lo,
                            size_t hi)
{
    size_t i = patch_at_or_after(x, hi); /* the edited characters before i start before hi */
    for (size_t o = hi; o-- > lo;) {
        while (i > 0 && x->p[i - 1].off > o)
            i--;
        const gt_patch *p = i > 0 ? &x->p[i - 1] : NULL;
        if (p && o > p->off && o < p->off + p->len) { /* inside it: its start comes next */
            o = p->off + 1;
            continue;
        }
        if (match_at(x, o, p && o == p->off ? i - 1 : i, nd, len))
            return o;
    }
    return NOWHERE;
}

size_t edtext_find(const gt_edtext *x, const char *needle, size_t len, size_t cur, int dir,
                   int *wrapped)
{
    const unsigned char *nd = (const unsigned char *)needle;
    size_t n = x->t->nbytes, found = NOWHERE;
    *wrapped = 0;
    for (int pass = 0; pass < 2 && found == NOWHERE; pass++) {
        *wrapped = pass;
        if (dir > 0)
            found = find_forward(x, nd, len, pass ? 0 : cur + 1, pass ? cur + 1 : n);
        else
            found = find_backward(x, nd, len, pass ? cur : 0, pass ? n : cur);
    }
    return found;
}

size_t edtext_count(const gt_edtext *x, const char *needle, size_t len, size_t upto,
                    size_t *before)
{
    const unsigned char *nd = (const unsigned char *)needle;
    size_t n = x->t->nbytes, count = 0;
    *before = 0;
    for (size_t o = find_forward(x, nd, len, 0, n); o != NOWHERE;
         o = o + 1 < n ? find_forward(x, nd, len, o + 1, n) : NOWHERE) {
        count++;
        *before += o <= upto;
    }
    return count;
}

size_t edtext_find_range(const gt_edtext *x, const char *needle, size_t len, size_t from,
                         size_t to)
{
    return from < to ? find_forward(x, (const unsigned char *)needle, len, from, to) : NOWHERE;
}

int edtext_smart_fold(const char *needle)
{
    for (; *needle; needle++)
        if (*needle >= 'A' && *needle <= 'Z')
            return 0;
    return 1;
}
