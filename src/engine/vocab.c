/* The model's vocabulary (doc/model-files.md): built from a text (--vocab-from: the sorted
 * set of its distinct code points), or the one the file keeps (safetensors metadata, or a
 * vocabulary found in a torch.save file) with as many tokens as the model has; a model of
 * 256 tokens and no vocabulary reads bytes. Tokens longer than one character ("<pad>") are
 * tokens no character of a text maps to. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/model_impl.h"
#include "format/vocabfile.h"
#include "gatetui/commas.h"
#include "gatetui/fileio.h"
#include "gatetui/sha256.h"
#include "gatetui/utf8.h"

/* Builds the sorted set of distinct code points of a UTF-8 file (invalid bytes ignored).
 * *out is malloc'ed. */
static int vocab_from_file(const char *path, uint32_t **out, int *n, gt_error *e)
{
    unsigned char *buf;
    size_t len;
    int rc = read_whole_file(path, 0, &buf, &len, e);
    if (rc)
        return rc;
    /* a bitmap of the code points seen: 0x110000 bits */
    uint8_t *seen = calloc(0x110000 / 8, 1);
    if (!seen) {
        free(buf);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    int count = 0;
    for (size_t off = 0; off < len;) {
        uint32_t cp;
        off += (size_t)utf8_decode(buf + off, len - off, &cp);
        if (cp == UTF8_INVALID || (seen[cp >> 3] & (1u << (cp & 7))))
            continue;
        seen[cp >> 3] |= (uint8_t)(1u << (cp & 7));
        count++;
    }
    free(buf);
    if (count == 0 || count > GT_MAX_VOCAB) {
        free(seen);
        return gt_fail(e, GT_EINPUT, "%s: %d distinct characters cannot make a vocabulary", path,
                       count);
    }
    uint32_t *cp = malloc((size_t)count * sizeof *cp);
    if (!cp) {
        free(seen);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    int k = 0;
    for (uint32_t c = 0; c < 0x110000; c++)
        if (seen[c >> 3] & (1u << (c & 7)))
            cp[k++] = c;
    free(seen);
    *out = cp;
    *n = count;
    return GT_OK;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Takes the code point of each of the V tokens, in token order (GT_NOCHAR_CP with
 * special[i] set for a token no character maps to), and builds the look-up. */
static int set_vocab(gt_model *m, const uint32_t *cp, const unsigned char *special,
                     const char *what, gt_error *e)
{
    int n = m->vocab;
    memset(m->lookup_ascii, 0, sizeof m->lookup_ascii);
    m->vocab_cp = model_own(m, malloc((size_t)n * sizeof *m->vocab_cp));
    m->lookup_cp = model_own(m, malloc((size_t)n * sizeof *m->lookup_cp));
    m->lookup_tok = model_own(m, malloc((size_t)n * sizeof *m->lookup_tok));
    uint64_t *pairs = malloc((size_t)n * sizeof *pairs);
    if (!m->vocab_cp || !m->lookup_cp || !m->lookup_tok || !pairs) {
        free(pairs);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    memcpy(m->vocab_cp, cp, (size_t)n * sizeof *cp);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!special || !special[i])
            pairs[k++] = (uint64_t)cp[i] << 16 | (uint64_t)i;
    m->vocab_special = n - k;
    qsort(pairs, (size_t)k, sizeof *pairs, u64_cmp);
    int rc = GT_OK;
    for (int i = 0; i < k; i++) {
        m->lookup_cp[i] = (uint32_t)(pairs[i] >> 16);
        m->lookup_tok[i] = (uint16_t)(pairs[i] & 0xFFFF);
        if (m->lookup_cp[i] < 128 && !m->lookup_ascii[m->lookup_cp[i]])
            m->lookup_ascii[m->lookup_cp[i]] = (uint16_t)(m->lookup_tok[i] + 1);
        if (i && m->lookup_cp[i] == m->lookup_cp[i - 1] && rc == GT_OK)
            rc = gt_fail(e, GT_EINPUT, "%s: %s lists the character U+%04X twice", m->path, what,
                         (unsigned)m->lookup_cp[i]);
    }
    m->lookup_n = k;
    free(pairs);
    return rc;
}

int model_token(const gt_model *m, uint32_t cp)
{
    if (m->vocab_bytes)
        return cp < 256 ? (int)cp : -1;
    if (cp < 128 && m->lookup_ascii[cp]) /* a text's characters, most of them */
        return m->lookup_ascii[cp] - 1;
    int lo = 0, hi = m->lookup_n - 1;
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

static int from_text(gt_model *m, const char *file, gt_error *e)
{
    uint32_t *cp = NULL;
    int n = 0;
    int rc = vocab_from_file(file, &cp, &n, e);
    if (rc)
        return rc;
    char *what = model_own(m, malloc(strlen(file) + 16));
    if (!what) {
        free(cp);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    sprintf(what, "--vocab-from %s", file);
    m->vocab_where = what;
    if (n != m->vocab)
        rc = gt_fail(e, GT_EINPUT, "%s: --vocab-from %.200s has %d characters but the model has "
                                   "%d tokens",
                     m->path, file, n, m->vocab);
    else
        rc = set_vocab(m, cp, NULL, what, e);
    free(cp);
    return rc;
}

/* A special token: "<pad>", "[MASK]". */
static int special_token(const char *t, size_t len)
{
    return len >= 3 && ((t[0] == '<' && t[len - 1] == '>') || (t[0] == '[' && t[len - 1] == ']'));
}

/* n with thousands separators (5,000) into buf[32]. */
static const char *commas(size_t n, char *buf)
{
    return gt_commas(n, buf, 32);
}

/* Appends ", 'tok'" to the list, the token cut at a character's start after 20 bytes. */
static size_t add_example(char *list, size_t at, size_t cap, const char *t, size_t len)
{
    size_t n = len;
    if (n > 20)
        for (n = 20; n > 0 && ((unsigned char)t[n] & 0xC0) == 0x80; n--)
            ;
    int w = snprintf(list + at, cap - at, "%s'%.*s%s'", at ? ", " : "", (int)n, t,
                     n < len ? "..." : "");
    return w > 0 && at + (size_t)w < cap ? at + (size_t)w : at;
}

/* A piece of a word as sub-word vocabularies mark them: BPE's "Ġthe", WordPiece's "##ing",
 * sentencepiece's "▁the", subword-nmt's "th@@". */
static int piece_mark(const char *t, size_t len)
{
    return (len > 2 && (unsigned char)t[0] == 0xC4 && (unsigned char)t[1] == 0xA0) ||
           (len > 3 && (unsigned char)t[0] == 0xE2 && (unsigned char)t[1] == 0x96 &&
            (unsigned char)t[2] == 0x81) ||
           (len > 2 && t[0] == '#' && t[1] == '#') ||
           (len > 2 && t[len - 1] == '@' && t[len - 2] == '@');
}

/* The tokens longer than one character but for the special ones (words), of them those
 * marked as pieces of words, and the tokens of one character; a few of the first two into
 * the lists. */
static void count_long(const gt_vocab_found *v, size_t *longer, size_t *pieces, size_t *single,
                       char *list, char *plist, size_t cap)
{
    size_t at = 0, pat = 0;
    *longer = *pieces = *single = 0;
    for (size_t i = 0; i < v->ntok; i++) {
        const char *t = v->tok[i];
        size_t len = t ? strlen(t) : 0;
        uint32_t c;
        if (!len || special_token(t, len))
            continue;
        if ((size_t)utf8_decode((const unsigned char *)t, len, &c) == len) {
            ++*single;
            continue;
        }
        if (++*longer <= 2)
            at = add_example(list, at, cap, t, len);
        if (piece_mark(t, len) && ++*pieces <= 2)
            pat = add_example(plist, pat, cap, t, len);
    }
}

#define SUBWORD_TAIL "; gatetui steps characters or whole words"

/* "PATH: LEAD 26 of the 282 tokens are WHAT ('th', 'he', ...)TAIL", refused. */
static int refuse_count(const gt_model *m, const char *lead, size_t count, size_t ntok,
                        const char *what, const char *list, const char *tail, gt_error *e)
{
    char a[32], b[32];
    return gt_fail(e, GT_EINPUT, "%s: %s%s of the %s tokens are %s (%s%s)%s", m->path, lead,
                   commas(count, a), commas(ntok, b), what, list, count > 2 ? ", ..." : "",
                   tail);
}

/* Whether v's tokens are words (doc/usage.md): more than the special tokens are longer
 * than one character. A sub-word vocabulary (2% or more of its tokens marked as pieces, or
 * more tokens of one character than longer ones: a character vocabulary with merged
 * pieces), and words with --tokens chars, are refused: stepping them so would compute
 * wrongly. */
static int is_words(const gt_model *m, const gt_vocab_found *v, int tokens, int *words,
                    gt_error *e)
{
    size_t longer, pieces, single;
    char list[160] = "", plist[160] = "", c[32];
    count_long(v, &longer, &pieces, &single, list, plist, sizeof list);
    *words = longer > 0 || tokens == GT_TOKENS_WORDS;
    char tail[96];
    snprintf(tail, sizeof tail, " and %s are one character: pieces of words%s",
             commas(single, c), SUBWORD_TAIL);
    if (longer && single > longer && tokens != GT_TOKENS_WORDS)
        return refuse_count(m, "a sub-word model: ", longer, v->ntok,
                            "longer than one character", list, tail, e);
    if (pieces && pieces * 50 >= v->ntok)
        return refuse_count(m, "a sub-word model: ", pieces, v->ntok,
                            "pieces of words, marked as BPE, WordPiece or sentencepiece mark "
                            "them", plist, SUBWORD_TAIL, e);
    if (longer && tokens == GT_TOKENS_CHARS)
        return refuse_count(m, "--tokens chars, but ", longer, v->ntok,
                            "longer than one character", list,
                            ": a word model, stepped a word at a time (--tokens words)", e);
    return GT_OK;
}

/* The tokens of a vocabulary found in the file: words, or code points. */
static int from_found(gt_model *m, const gt_vocab_found *v, const gt_model_options *opt,
                      gt_error *e)
{
    int words;
    int rc = is_words(m, v, opt ? opt->tokens : 0, &words, e);
    if (rc)
        return rc;
    if (words)
        return vocab_set_words(m, v, e);
    uint32_t *cp = malloc((size_t)m->vocab * sizeof *cp);
    unsigned char *special = calloc((size_t)m->vocab, 1);
    if (!cp || !special) {
        free(cp);
        free(special);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    }
    for (int i = 0; i < m->vocab; i++) {
        const char *t = v->tok[i];
        size_t len = t ? strlen(t) : 0;
        uint32_t c = UTF8_INVALID;
        int used = len ? utf8_decode((const unsigned char *)t, len, &c) : 0;
        if (len && (size_t)used == len && c != UTF8_INVALID) {
            cp[i] = c;
        } else {
            cp[i] = GT_NOCHAR_CP;
            special[i] = 1;
        }
    }
    m->vocab_where = v->where;
    rc = set_vocab(m, cp, special, v->where, e);
    free(cp);
    free(special);
    return rc;
}

static int same_tokens(const gt_vocab_found *a, const gt_vocab_found *b)
{
    for (size_t i = 0; i < a->ntok; i++)
        if (!a->tok[i] != !b->tok[i] || (a->tok[i] && strcmp(a->tok[i], b->tok[i]) != 0))
            return 0;
    return 1;
}

/* The vocabulary of a file of its own: given (--vocab FILE), or found beside the model. */
static int from_vocab_file(gt_model *m, const char *path, const char *where,
                           const gt_model_options *opt, gt_error *e)
{
    gt_vocab_found v;
    int rc = vocabfile_read(&v, path, where, (size_t)m->vocab, e);
    if (rc)
        return rc;
    if (v.ntok != (size_t)m->vocab)
        rc = gt_fail(e, GT_EINPUT, "%s: %s has %zu tokens but the model has %d%s", m->path,
                     where, v.ntok, m->vocab,
                     v.ntok == (size_t)m->vocab + 1 ? " (a final newline counts as one)" : "");
    char *kept = rc ? NULL : model_own(m, strdup(where));
    if (rc == GT_OK && !kept)
        rc = gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    if (rc == GT_OK) {
        free(v.where);
        v.where = kept;
        rc = from_found(m, &v, opt, e);
        v.where = NULL;
    }
    vocabfile_free(&v);
    return rc;
}

/* MODEL.vocab.json (the model's name without its extension, or with it) or vocab.json in
 * the model's folder, then the same with .txt (one token per line): the first that exists,
 * into path[cap]; 0 when none does. */
static int beside(const char *model, char *path, size_t cap)
{
    const char *slash = strrchr(model, '/'), *dot = strrchr(model, '.');
    size_t dir = slash ? (size_t)(slash - model) + 1 : 0;
    size_t stem = dot && dot > model + dir ? (size_t)(dot - model) : strlen(model);
    char c[6][4200];
    struct stat sb;
    for (int k = 0; k < 2; k++) {
        const char *ext = k ? "txt" : "json";
        snprintf(c[3 * k], sizeof c[0], "%.*s.vocab.%s", (int)stem, model, ext);
        snprintf(c[3 * k + 1], sizeof c[0], "%s.vocab.%s", model, ext);
        snprintf(c[3 * k + 2], sizeof c[0], "%.*svocab.%s", (int)dir, model, ext);
    }
    for (int i = 0; i < 6; i++)
        if (strlen(c[i]) < cap && stat(c[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
            strcpy(path, c[i]);
            return 1;
        }
    return 0;
}

static int bytes_vocab(gt_model *m, gt_error *e)
{
    m->vocab_bytes = 1;
    m->vocab_where = "bytes (256 tokens)";
    m->vocab_cp = model_own(m, malloc(256 * sizeof *m->vocab_cp));
    if (!m->vocab_cp)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    for (int i = 0; i < 256; i++)
        m->vocab_cp[i] = (uint32_t)i;
    return GT_OK;
}

#define VOCAB_HINT                                                                         \
    "pass --vocab FILE (the tokens in index order: a JSON list or object, one token per line, " \
    "or the characters), or --vocab-from TEXT, which rebuilds sorted(set(TEXT)): right only "  \
    "for a model trained so"

static int none_found(gt_model *m, gt_error *e)
{
    const gt_modelfile *f = m->file;
    if (f->nvocab) { /* found, but of another size */
        const gt_vocab_found *v = &f->vocab[0];
        return gt_fail(e, GT_EINPUT, "%s: %s has %zu %s but the model has %d tokens", m->path,
                       v->where, v->ntok, f->format == GT_SAFETENSORS ? "characters" : "entries",
                       m->vocab);
    }
    if (f->format == GT_SAFETENSORS)
        return gt_fail(e, GT_EINPUT,
                       "%s: no vocabulary (metadata \"vocab\" is missing): " VOCAB_HINT,
                       m->path);
    return gt_fail(e, GT_EINPUT,
                   "%s: no vocabulary of %d tokens in the file (looked at any depth for a string "
                   "or list under vocab, chars, itos, idx2char, int2char, alphabet, ... and a "
                   "dict char -> index such as char2idx or stoi): " VOCAB_HINT,
                   m->path, m->vocab);
}

static int find_vocab(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    if (m->vocab > GT_MAX_VOCAB)
        return gt_fail(e, GT_EINPUT, "%s: vocabulary of %d tokens is larger than %d", m->path,
                       m->vocab, GT_MAX_VOCAB);
    const gt_modelfile *f = m->file;
    if (f->tokenizer)
        return gt_fail(e, GT_EINPUT,
                       "%s: a sub-word model: the file holds a tokenizer (%.200s); gatetui "
                       "steps characters or whole words (a vocabulary of words, no merges)",
                       m->path, f->tokenizer);
    if (opt && opt->vocab_from)
        return from_text(m, opt->vocab_from, e);
    char where[4300];
    if (opt && opt->vocab_file) {
        snprintf(where, sizeof where, "--vocab %s", opt->vocab_file);
        return from_vocab_file(m, opt->vocab_file, where, opt, e);
    }
    const gt_vocab_found *pick = NULL;
    for (size_t i = 0; i < f->nvocab; i++) {
        const gt_vocab_found *v = &f->vocab[i];
        if (v->ntok != (size_t)m->vocab)
            continue;
        if (pick && !same_tokens(pick, v))
            return gt_fail(e, GT_EINPUT,
                           "%s: two different vocabularies of %d tokens in the file, %.100s and "
                           "%.100s: " VOCAB_HINT,
                           m->path, m->vocab, pick->where, v->where);
        if (!pick)
            pick = v;
    }
    if (pick)
        return from_found(m, pick, opt, e);
    char path[4200];
    if (beside(m->path, path, sizeof path)) {
        snprintf(where, sizeof where, "%s, beside the model", path);
        m->vocab_beside = 1;
        if (!(m->vocab_beside_path = strdup(path)))
            return gt_fail(e, GT_EFAIL, "out of memory for the vocabulary");
        unsigned long long size; /* its digest as read: a session names it (sessionfile.h) */
        int rc = sha256_file(path, m->vocab_beside_sha, &size, e);
        return rc ? rc : from_vocab_file(m, path, where, opt, e);
    }
    if (m->vocab == 256 && (!f->nvocab || f->format != GT_SAFETENSORS))
        return bytes_vocab(m, e);
    return none_found(m, e);
}

int model_load_vocab(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    m->tok_eos = m->tok_unk = -1;
    int rc = find_vocab(m, opt, e);
    if (rc == GT_OK && opt && opt->tokens == GT_TOKENS_WORDS && !m->words)
        rc = gt_fail(e, GT_EINPUT,
                     "%s: --tokens words, but the vocabulary (%s) is %s: words need a "
                     "vocabulary of them (--vocab FILE, one token per line)",
                     m->path, m->vocab_where, m->vocab_bytes ? "bytes" : "characters");
    return rc;
}
