/* Splitting a text into time steps with a model's vocabulary. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/textwords.h"
#include "gatetui/fileio.h"
#include "gatetui/text.h"
#include "gatetui/utf8.h"

int text_char_at(const gt_text *t, size_t off, uint32_t *cp)
{
    if (t->bytes_mode) {
        *cp = t->bytes[off];
        return 1;
    }
    return utf8_decode(t->bytes + off, t->nbytes - off, cp);
}

static void note_skip(gt_text *t, uint32_t cp)
{
    t->skipped++;
    if (cp == UTF8_INVALID)
        t->invalid++;
    if (cp == 0)
        t->nul++;
    for (int i = 0; i < t->skip_kinds; i++)
        if (t->skip_cp[i] == cp) {
            t->skip_count[i]++;
            return;
        }
    if (t->skip_kinds < TEXT_SKIP_KINDS) {
        t->skip_cp[t->skip_kinds] = cp;
        t->skip_count[t->skip_kinds++] = 1;
    }
}

static int is_step(const gt_text *t, uint32_t cp);

/* "UTF-32" or "UTF-16" where the bytes start with that encoding's byte-order mark (UTF-32's
 * little-endian one starts with UTF-16's), else NULL. */
static const char *wide_encoding(const unsigned char *b, size_t n)
{
    if (n >= 4 && ((b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) ||
                   (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF)))
        return "UTF-32";
    if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return "UTF-16";
    return NULL;
}

static int split(gt_text *t, const gt_model *m, gt_error *e)
{
    const char *p = t->path;
    if (t->nbytes == 0)
        return gt_fail(e, GT_EINPUT, "%s: the text is empty", p);
    t->bytes_mode = m->vocab_bytes;
    t->model = m;
    const char *wide = t->bytes_mode ? NULL : wide_encoding(t->bytes, t->nbytes);
    if (wide)
        return gt_fail(e, GT_EINPUT,
                       "%s: the text is %s (it starts with its byte-order mark); convert it to "
                       "UTF-8, e.g. iconv -f %s -t UTF-8",
                       p, wide, wide);
    if (m->words)
        return textwords_split(t, m, e);
    /* one pass to count, one to fill: no step array larger than needed */
    size_t steps = 0;
    for (size_t off = 0; off < t->nbytes;) {
        uint32_t cp;
        off += (size_t)text_char_at(t, off, &cp);
        if (is_step(t, cp))
            steps++;
    }
    if (steps == 0)
        return gt_fail(e, GT_EINPUT, "%s: no character of the text is in the model's vocabulary",
                       p);
    t->tok = malloc(steps * sizeof *t->tok);
    t->mark = malloc((steps / TEXT_MARK + 1) * sizeof *t->mark);
    if (!t->tok || !t->mark)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for %zu steps", p, steps);
    size_t s = 0;
    for (size_t off = 0; off < t->nbytes;) {
        uint32_t cp;
        int len = text_char_at(t, off, &cp);
        int tok = is_step(t, cp) ? model_token(m, cp) : -1;
        if (tok >= 0) {
            if (s % TEXT_MARK == 0)
                t->mark[s / TEXT_MARK] = off;
            t->tok[s++] = (uint16_t)tok;
        } else {
            note_skip(t, cp);
        }
        off += (size_t)len;
    }
    t->steps = steps;
    return GT_OK;
}

int text_from_memory(gt_text *t, const char *name, const void *data, size_t n,
                     const gt_model *m, gt_error *e)
{
    memset(t, 0, sizeof *t);
    t->path = strdup(name);
    t->bytes = malloc(n + 1);
    if (!t->path || !t->bytes) {
        text_free(t);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", name);
    }
    memcpy(t->bytes, data, n);
    t->bytes[n] = 0;
    t->nbytes = n;
    int rc = split(t, m, e);
    if (rc)
        text_free(t);
    return rc;
}

int text_load(gt_text *t, const char *path, const gt_model *m, gt_error *e)
{
    memset(t, 0, sizeof *t);
    t->path = strdup(path);
    if (!t->path)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    int rc = read_whole_file(path, 0, &t->bytes, &t->nbytes, e);
    if (rc == GT_OK)
        rc = split(t, m, e);
    if (rc)
        text_free(t);
    return rc;
}

void text_free(gt_text *t)
{
    free(t->path);
    free(t->bytes);
    free(t->tok);
    free(t->mark);
    for (int i = 0; i < t->unk_kinds; i++)
        free(t->unk_word[i]);
    memset(t, 0, sizeof *t);
}

static int is_step(const gt_text *t, uint32_t cp)
{
    return cp != UTF8_INVALID && model_token(t->model, cp) >= 0;
}

size_t text_step_offset(const gt_text *t, size_t s)
{
    if (s >= t->steps)
        return t->nbytes;
    if (t->words)
        return textwords_step_offset(t, s);
    size_t off = t->mark[s / TEXT_MARK];
    for (size_t k = s / TEXT_MARK * TEXT_MARK;;) {
        uint32_t cp;
        int len = text_char_at(t, off, &cp);
        if (is_step(t, cp)) {
            if (k == s)
                return off;
            k++;
        }
        off += (size_t)len;
    }
}

size_t text_step_at_offset(const gt_text *t, size_t off)
{
    if (off >= t->nbytes)
        return t->steps;
    if (t->words)
        return textwords_step_at_offset(t, off);
    const size_t lo = textwords_mark_before(t, off); /* the last mark at or before off */
    size_t s = lo * TEXT_MARK, o = t->mark[lo];
    if (o > off) /* off is before step 0 */
        o = 0;
    while (o < t->nbytes) {
        uint32_t cp;
        int len = text_char_at(t, o, &cp);
        if (is_step(t, cp)) {
            if (o >= off)
                return s;
            s++;
        }
        o += (size_t)len;
    }
    return t->steps;
}

size_t text_step_len(const gt_text *t, size_t s)
{
    if (t->words)
        return textwords_step_len(t, s);
    uint32_t cp;
    return (size_t)text_char_at(t, text_step_offset(t, s), &cp);
}

/* Whether cp shows as a visible glyph of its own, so that a message may quote it as it is. */
static int visible(uint32_t cp)
{
    if (cp < 0x21 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD || cp == UTF8_INVALID)
        return 0;
    if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
        (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF ||
        (cp >= 0xFFF0 && cp <= 0xFFFF) || (cp >= 0xE000 && cp <= 0xF8FF))
        return 0;
    /* combining marks would join the quote before them */
    if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
        (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
        (cp >= 0xFE20 && cp <= 0xFE2F))
        return 0;
    return 1;
}

void text_skip_summary(const gt_text *t, char *buf, size_t n)
{
    buf[0] = 0;
    if (t->unknown && n)
        textwords_summary(t, buf, n);
    if (!t->skipped || n == 0)
        return;
    size_t k = (size_t)snprintf(buf, n, "%zu character%s not in the vocabulary skipped:",
                                t->skipped, t->skipped == 1 ? "" : "s");
    for (int i = 0; i < t->skip_kinds && k < n; i++) {
        uint32_t cp = t->skip_cp[i];
        char u[8];
        int len = visible(cp) ? utf8_encode(cp, u) : 0;
        if (cp == UTF8_INVALID)
            k += (size_t)snprintf(buf + k, n - k, "%s invalid UTF-8 x%zu", i ? "," : "",
                                  t->skip_count[i]);
        else if (len)
            k += (size_t)snprintf(buf + k, n - k, "%s '%.*s' x%zu", i ? "," : "", len, u,
                                  t->skip_count[i]);
        else
            k += (size_t)snprintf(buf + k, n - k, "%s U+%04X x%zu", i ? "," : "", (unsigned)cp,
                                  t->skip_count[i]);
    }
    if (t->skip_kinds == TEXT_SKIP_KINDS && k < n)
        k += (size_t)snprintf(buf + k, n - k, ", ...");
    if (t->nul && k < n) /* a text has none: a binary file given as the text? */
        snprintf(buf + k, n - k, " (NUL characters: is it a text?)");
}
