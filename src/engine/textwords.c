/* A word model's text (doc/model-files.md, "Word models"), split as the
 * word_language_model example's data.py splits it: line by line (a line ends at "\n",
 * "\r\n" or "\r", as Python reads a text file), each line on white space (str.split()),
 * then "<eos>" when the vocabulary has it; a word not in the vocabulary is "<unk>" when it
 * has that, else the text is refused naming the word and its line. The steps are the
 * tokens, and the text kept (t->bytes) is the tokens joined by single spaces, "<eos>" as a
 * newline (text_token_gap): what the strip shows and the regular expressions search. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/textwords.h"
#include "gatetui/commas.h"
#include "gatetui/sha256.h"
#include "gatetui/utf8.h"

/* Python's str.isspace(): what str.split() splits on. */
static int py_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

size_t text_token_gap(const gt_model *m, int a, int b)
{
    return m->words && a != m->tok_eos && b != m->tok_eos;
}

/* The length in the joined text of token tok: its text, or the newline of "<eos>". */
static size_t shown_len(const gt_model *m, int tok)
{
    return tok == m->tok_eos ? 1 : m->vocab_len[tok];
}

/* Notes a word read as <unk>: its count, and its text among the first distinct ones. */
static int note_unknown(gt_text *t, const unsigned char *w, size_t len)
{
    t->unknown++;
    for (int i = 0; i < t->unk_kinds; i++)
        if (strlen(t->unk_word[i]) == len && memcmp(t->unk_word[i], w, len) == 0) {
            t->skip_count[i]++;
            return GT_OK;
        }
    if (t->unk_kinds < TEXT_SKIP_KINDS) {
        if (!(t->unk_word[t->unk_kinds] = strndup((const char *)w, len)))
            return -1;
        t->skip_count[t->unk_kinds++] = 1;
    }
    return GT_OK;
}

/* One walk over the file: the tokens into tok (NULL: only counted, and the unknown words
 * noted) and their number into *n. */
typedef struct walk {
    gt_text *t;
    const gt_model *m;
    uint16_t *tok;
    size_t n, line;
} walk;

static int put(walk *w, int tok)
{
    if (w->tok)
        w->tok[w->n] = (uint16_t)tok;
    w->n++;
    return GT_OK;
}

/* The word b[0..len) of line w->line. */
static int word(walk *w, const unsigned char *b, size_t len, gt_error *e)
{
    const gt_model *m = w->m;
    int tok = model_word_token(m, (const char *)b, len);
    if (tok >= 0)
        return put(w, tok);
    if (m->tok_unk < 0) {
        char shown[80];
        char *cut = strndup((const char *)b, len < 60 ? len : 60);
        if (!cut)
            return gt_fail(e, GT_EFAIL, "%s: out of memory", w->t->path);
        utf8_printable(shown, sizeof shown, cut);
        free(cut);
        int chars = 0; /* tokens of one character: a character model read as words */
        for (int v = 0; v < m->vocab; v++) {
            const unsigned char c0 = (unsigned char)m->vocab_word[v][0];
            const uint32_t one = c0 < 0x80 ? 1 : c0 >= 0xF0 ? 4 : c0 >= 0xE0 ? 3 : 2;
            chars += m->vocab_len[v] == one;
        }
        return gt_fail(e, GT_EINPUT,
                       "%s: line %zu: \"%s\" is not in the vocabulary, which has no <unk> to "
                       "read it as%s",
                       w->t->path, w->line, shown,
                       m->vocab > 4 && chars >= m->vocab - 2 /* <eos>, <unk> or the like */
                           ? " (its tokens are characters: read the text by characters, "
                             "without --tokens words)"
                           : "");
    }
    if (!w->tok && note_unknown(w->t, b, len))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", w->t->path);
    return put(w, m->tok_unk);
}

/* The words of the line b[0..n), then <eos>. */
static int line(walk *w, const unsigned char *b, size_t n, gt_error *e)
{
    size_t start = 0;
    int in = 0;
    for (size_t off = 0; off <= n;) {
        uint32_t cp = ' ';
        int len = 1;
        if (off < n && (len = utf8_decode(b + off, n - off, &cp), cp == UTF8_INVALID))
            return gt_fail(e, GT_EINPUT,
                           "%s: line %zu: not UTF-8 (byte 0x%02X); a word model's text is read "
                           "as UTF-8, as its training read it",
                           w->t->path, w->line, b[off]);
        if (py_space(cp) && in) {
            int rc = word(w, b + start, off - start, e);
            if (rc)
                return rc;
        }
        if (!py_space(cp) && !in)
            start = off;
        in = !py_space(cp);
        off += (size_t)len;
    }
    return w->m->tok_eos >= 0 ? put(w, w->m->tok_eos) : GT_OK;
}

static int walk_text(walk *w, const unsigned char *b, size_t n, gt_error *e)
{
    w->n = 0;
    w->line = 1;
    for (size_t off = 0; off < n; w->line++) {
        size_t end = off;
        while (end < n && b[end] != '\n' && b[end] != '\r')
            end++;
        int rc = line(w, b + off, end - off, e);
        if (rc)
            return rc;
        off = end + (end < n) + (end + 1 < n && b[end] == '\r' && b[end + 1] == '\n');
    }
    return GT_OK;
}

/* The tokens joined, into t->bytes (the file's bytes freed), and the marks. */
static int join(gt_text *t, const gt_model *m, gt_error *e)
{
    size_t len = 0;
    for (size_t s = 0; s < t->steps; s++)
        len += shown_len(m, t->tok[s]) + (s ? text_token_gap(m, t->tok[s - 1], t->tok[s]) : 0);
    unsigned char *j = malloc(len + 1);
    t->mark = malloc((t->steps / TEXT_MARK + 1) * sizeof *t->mark);
    if (!j || !t->mark) {
        free(j);
        return gt_fail(e, GT_EFAIL, "%s: out of memory for %zu steps", t->path, t->steps);
    }
    size_t off = 0;
    for (size_t s = 0; s < t->steps; s++) {
        const int k = t->tok[s];
        if (s && text_token_gap(m, t->tok[s - 1], k))
            j[off++] = ' ';
        if (s % TEXT_MARK == 0)
            t->mark[s / TEXT_MARK] = off;
        if (k == m->tok_eos)
            j[off++] = '\n';
        else
            memcpy(j + off, m->vocab_word[k], m->vocab_len[k]);
        off += k == m->tok_eos ? 0 : m->vocab_len[k];
    }
    j[off] = 0;
    free(t->bytes);
    t->bytes = j;
    t->nbytes = off;
    return GT_OK;
}

int textwords_split(gt_text *t, const gt_model *m, gt_error *e)
{
    walk w = {t, m, NULL, 0, 0};
    sha256_of(t->bytes, t->nbytes, t->file_sha256);
    t->file_size = t->nbytes;
    int rc = walk_text(&w, t->bytes, t->nbytes, e);
    if (rc)
        return rc;
    if (w.n == 0)
        return gt_fail(e, GT_EINPUT, "%s: the text holds no word", t->path);
    t->tok = malloc(w.n * sizeof *t->tok);
    if (!t->tok)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for %zu steps", t->path, w.n);
    w.tok = t->tok;
    rc = walk_text(&w, t->bytes, t->nbytes, e);
    t->steps = w.n;
    t->words = 1;
    return rc ? rc : join(t, m, e);
}

size_t textwords_step_offset(const gt_text *t, size_t s)
{
    const gt_model *m = t->model;
    size_t off = t->mark[s / TEXT_MARK];
    for (size_t k = s / TEXT_MARK * TEXT_MARK; k < s; k++)
        off += shown_len(m, t->tok[k]) + text_token_gap(m, t->tok[k], t->tok[k + 1]);
    return off;
}

size_t textwords_mark_before(const gt_text *t, size_t off)
{
    size_t lo = 0, hi = (t->steps - 1) / TEXT_MARK;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (t->mark[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

size_t textwords_step_at_offset(const gt_text *t, size_t off)
{
    const gt_model *m = t->model;
    const size_t lo = textwords_mark_before(t, off);
    size_t o = t->mark[lo];
    for (size_t s = lo * TEXT_MARK; s < t->steps; s++) {
        const size_t end = o + shown_len(m, t->tok[s]);
        if (off < end)
            return s;
        o = end + (s + 1 < t->steps ? text_token_gap(m, t->tok[s], t->tok[s + 1]) : 0);
    }
    return t->steps;
}

size_t textwords_step_len(const gt_text *t, size_t s)
{
    return shown_len(t->model, t->tok[s]);
}

void textwords_summary(const gt_text *t, char *buf, size_t n)
{
    char count[32];
    size_t k = (size_t)snprintf(buf, n, "%s word%s not in the vocabulary read as <unk>:",
                                gt_commas(t->unknown, count, sizeof count),
                                t->unknown == 1 ? "" : "s");
    for (int i = 0; i < t->unk_kinds && k < n; i++) {
        char shown[64];
        utf8_printable(shown, sizeof shown, t->unk_word[i]);
        k += (size_t)snprintf(buf + k, n - k, "%s '%s' x%zu", i ? "," : "", shown,
                              t->skip_count[i]);
    }
    if (t->unk_kinds == TEXT_SKIP_KINDS && k < n)
        snprintf(buf + k, n - k, ", ...");
}
