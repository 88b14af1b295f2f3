/* A vocabulary kept in a file of its own (doc/model-files.md, "The vocabulary"): a JSON
 * list (index -> token), a JSON object token -> index or index -> token, {"itos": [...]} or
 * {"stoi": {...}}, a text file of one token per line (a word model's vocab.txt), or a text
 * file of the characters in index order (every character a token, a final newline too). */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "format/vocabfile.h"
#include "gatetui/fileio.h"
#include "gatetui/utf8.h"

/* Every index 0..n-1 given once: the tokens in order. */
static int set_token(gt_vocab_found *v, const char *path, size_t i, const char *tok,
                     gt_error *e)
{
    if (i >= v->ntok)
        return gt_fail(e, GT_EINPUT, "%s: index %zu of a vocabulary of %zu tokens", path, i,
                       v->ntok);
    if (v->tok[i])
        return gt_fail(e, GT_EINPUT, "%s: index %zu given twice", path, i);
    if (!(v->tok[i] = strdup(tok)))
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    return GT_OK;
}

static int alloc_tokens(gt_vocab_found *v, const char *path, size_t n, gt_error *e)
{
    if (n == 0 || n > 65536)
        return gt_fail(e, GT_EINPUT, "%s: %zu tokens cannot make a vocabulary", path, n);
    v->ntok = n;
    v->tok = calloc(n, sizeof *v->tok);
    return v->tok ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", path);
}

static int from_list(gt_vocab_found *v, const char *path, json_t *a, gt_error *e)
{
    int rc = alloc_tokens(v, path, json_array_size(a), e);
    for (size_t i = 0; rc == GT_OK && i < v->ntok; i++) {
        json_t *t = json_array_get(a, i);
        rc = json_is_string(t) ? set_token(v, path, i, json_string_value(t), e)
                               : gt_fail(e, GT_EINPUT, "%s: entry %zu is not a string", path, i);
    }
    return rc;
}

/* An index written as a JSON key: digits only. */
static int key_index(const char *k, size_t *i)
{
    char *end;
    if (k[0] < '0' || k[0] > '9')
        return 0;
    errno = 0;
    unsigned long long x = strtoull(k, &end, 10);
    *i = (size_t)x;
    return !*end && !errno;
}

/* token -> index (every value an integer) or index -> token (every value a string). */
static int from_object(gt_vocab_found *v, const char *path, json_t *o, gt_error *e)
{
    const char *k;
    json_t *val;
    int ints = 1, strs = 1;
    json_object_foreach(o, k, val)
    {
        ints &= json_is_integer(val);
        strs &= json_is_string(val);
    }
    if (!ints && !strs)
        return gt_fail(e, GT_EINPUT, "%s: a JSON object neither token -> index nor index -> "
                                     "token",
                       path);
    int rc = alloc_tokens(v, path, json_object_size(o), e);
    json_object_foreach(o, k, val)
    {
        size_t i;
        if (rc)
            break;
        if (ints) {
            json_int_t x = json_integer_value(val);
            rc = x < 0 ? gt_fail(e, GT_EINPUT, "%s: a negative index for \"%.40s\"", path, k)
                       : set_token(v, path, (size_t)x, k, e);
        } else if (!key_index(k, &i)) {
            rc = gt_fail(e, GT_EINPUT, "%s: key \"%.40s\" is not an index", path, k);
        } else {
            rc = set_token(v, path, i, json_string_value(val), e);
        }
    }
    return rc;
}

static int from_json(gt_vocab_found *v, const char *path, const unsigned char *b, size_t n,
                     gt_error *e)
{
    json_error_t je;
    json_t *j = json_loadb((const char *)b, n, JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return gt_fail(e, GT_EINPUT, "%s: not valid JSON (line %d: %.100s)", path, je.line,
                       je.text);
    json_t *itos = json_is_object(j) ? json_object_get(j, "itos") : NULL;
    json_t *stoi = json_is_object(j) ? json_object_get(j, "stoi") : NULL;
    int rc;
    if (json_is_array(j) || json_is_array(itos))
        rc = from_list(v, path, json_is_array(j) ? j : itos, e);
    else if (json_is_object(stoi))
        rc = from_object(v, path, stoi, e);
    else if (json_is_object(j))
        rc = from_object(v, path, j, e);
    else
        rc = gt_fail(e, GT_EINPUT, "%s: JSON that is neither a list nor an object", path);
    json_decref(j);
    return rc;
}

static int from_characters(gt_vocab_found *v, const char *path, const unsigned char *b,
                           size_t n, gt_error *e)
{
    size_t count = 0;
    for (size_t off = 0; off < n; count++) {
        uint32_t cp;
        int len = utf8_decode(b + off, n - off, &cp);
        if (cp == UTF8_INVALID)
            return gt_fail(e, GT_EINPUT, "%s: not UTF-8 (byte %zu)", path, off);
        off += (size_t)len;
    }
    int rc = alloc_tokens(v, path, count, e);
    size_t off = 0;
    for (size_t i = 0; rc == GT_OK && i < count; i++) {
        uint32_t cp;
        int len = utf8_decode(b + off, n - off, &cp);
        char one[8] = {0};
        memcpy(one, b + off, (size_t)len);
        rc = set_token(v, path, i, one, e);
        off += (size_t)len;
    }
    return rc;
}

/* The lines of b: each ends at a newline ("\r\n" too), the last also at the end. */
static size_t count_lines(const unsigned char *b, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += b[i] == '\n';
    return k + (n > 0 && b[n - 1] != '\n');
}

static size_t count_chars(const unsigned char *b, size_t n)
{
    size_t count = 0;
    for (size_t off = 0; off < n; count++) {
        uint32_t cp;
        off += (size_t)utf8_decode(b + off, n - off, &cp);
    }
    return count;
}

/* One token per line, in index order; an empty line is refused (no word is empty). */
static int from_lines(gt_vocab_found *v, const char *path, const unsigned char *b, size_t n,
                      gt_error *e)
{
    int rc = alloc_tokens(v, path, count_lines(b, n), e);
    size_t off = 0;
    for (size_t i = 0; rc == GT_OK && i < v->ntok; i++) {
        const unsigned char *nl = memchr(b + off, '\n', n - off);
        size_t end = nl ? (size_t)(nl - b) : n, len = end - off;
        if (len && b[off + len - 1] == '\r')
            len--;
        char *t = strndup((const char *)b + off, len);
        if (!t)
            return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
        size_t used = 0;
        for (uint32_t cp = 0; used < len && cp != UTF8_INVALID;)
            used += (size_t)utf8_decode(b + off + used, len - used, &cp);
        if (!len || used < len || memchr(t, 0, len))
            rc = gt_fail(e, GT_EINPUT, "%s: line %zu is %s", path, i + 1,
                         !len ? "empty (one token per line)" : "not UTF-8 text");
        else
            rc = set_token(v, path, i, t, e);
        free(t);
        off = end + 1;
    }
    return rc;
}

/* A text file: its characters, or one token per line when it has want lines and not want
 * characters. */
static int from_text(gt_vocab_found *v, const char *path, const unsigned char *b, size_t n,
                     size_t want, gt_error *e)
{
    if (!want)
        return from_characters(v, path, b, n, e);
    const size_t chars = count_chars(b, n), lines = count_lines(b, n);
    if (chars != want && lines == want)
        return from_lines(v, path, b, n, e);
    if (chars == want || chars == want + 1) /* (a final newline: said by the caller) */
        return from_characters(v, path, b, n, e);
    return gt_fail(e, GT_EINPUT, "%s: %zu line%s and %zu characters, but the model has %zu "
                   "tokens (a vocabulary file holds one token a line, or one a character)",
                   path, lines, lines == 1 ? "" : "s", chars, want);
}

static size_t skip_space(const unsigned char *b, size_t n)
{
    size_t i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    return i;
}

int vocabfile_read(gt_vocab_found *v, const char *path, const char *where, size_t want,
                   gt_error *e)
{
    memset(v, 0, sizeof *v);
    unsigned char *b;
    size_t n;
    int rc = read_whole_file(path, 1, &b, &n, e);
    if (rc)
        return rc;
    /* a byte-order mark (an editor's) is no token, unless the characters with it are the
       model's count: a vocabulary whose first character is U+FEFF */
    if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF && count_chars(b, n) != want) {
        memmove(b, b + 3, n - 3);
        n -= 3;
    }
    /* a name ending in .json is JSON; another file is JSON when it parses as JSON, else
     * its characters (a character vocabulary may well start with '[') */
    size_t s = skip_space(b, n), len = strlen(path);
    int named = len >= 5 && strcmp(path + len - 5, ".json") == 0;
    int json = named || (s < n && (b[s] == '[' || b[s] == '{'));
    rc = json ? from_json(v, path, b, n, e) : from_text(v, path, b, n, want, e);
    if (rc == GT_EINPUT && json && !named && strstr(e->msg, "not valid JSON")) {
        vocabfile_free(v);
        rc = from_text(v, path, b, n, want, e);
    }
    free(b);
    if (rc == GT_OK && !(v->where = strdup(where)))
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    for (size_t i = 0; rc == GT_OK && i < v->ntok; i++)
        if (!v->tok[i])
            rc = gt_fail(e, GT_EINPUT, "%s: no token at index %zu (of %zu)", path, i, v->ntok);
    if (rc)
        vocabfile_free(v);
    return rc;
}

void vocabfile_free(gt_vocab_found *v)
{
    for (size_t i = 0; v->tok && i < v->ntok; i++)
        free(v->tok[i]);
    free(v->tok);
    free(v->where);
    memset(v, 0, sizeof *v);
}
