/* Edits as the command line gives them (editarg.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "gatetui/editarg.h"
#include "gatetui/fileio.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"

/* A word model's S:W: the token spelled as after the colon. */
static int word_token(const gt_model *m, const char *arg, const char *w, int *tok,
                      gt_error *e)
{
    char shown[80];
    *tok = model_word_token(m, w, strlen(w));
    if (*tok < 0)
        return gt_fail(e, GT_EINPUT, "--edit %s: \"%s\" is not in the model's vocabulary",
                       arg, utf8_printable(shown, sizeof shown, w));
    return GT_OK;
}

/* "S:C": a step and one character of m's vocabulary; a word model's "S:W", a step and a
 * token of its vocabulary (doc/usage.md, "Word models"). */
static int editarg_parse(const gt_model *m, const char *arg, size_t steps, size_t *step,
                         int *tok, gt_error *e)
{
    char *colon, last[32], shown[16];
    const char *what = m->words ? "S:W (a step and a token)" : "S:C (a step and a character)";
    errno = 0;
    const unsigned long long s = strtoull(arg, &colon, 10);
    if (colon == arg || *colon != ':' || errno || arg[0] == '-' || arg[0] == '+')
        return gt_fail(e, GT_EINPUT, "--edit wants %s, not \"%s\"", what, arg);
    const unsigned char *ch = (const unsigned char *)colon + 1;
    const size_t len = strlen((const char *)ch);
    uint32_t cp = UTF8_INVALID;
    if (!m->words &&
        (!len || (size_t)utf8_decode(ch, len, &cp) != len || cp == UTF8_INVALID))
        return gt_fail(e, GT_EINPUT, "--edit %s: one character after the colon", arg);
    if (s >= steps)
        return gt_fail(e, GT_EINPUT, "--edit %s: the text has steps 0-%s", arg,
                       report_commas(steps - 1, last, sizeof last));
    if (m->words) {
        int rc = word_token(m, arg, (const char *)ch, tok, e);
        if (rc == GT_OK)
            *step = (size_t)s;
        return rc;
    }
    const int t = model_token(m, cp);
    if (t < 0)
        return gt_fail(e, GT_EINPUT, "--edit %s: '%s' is not in the model's vocabulary",
                       arg,
                       utf8_printable(shown, sizeof shown, (const char *)ch));
    *step = (size_t)s;
    *tok = t;
    return GT_OK;
}

void editlist_free(gt_editlist *l)
{
    free(l->at);
    memset(l, 0, sizeof *l);
}

static int add(gt_editlist *l, size_t step, int tok, gt_error *e)
{
    if (grow_array(&l->at, &l->cap, l->n, sizeof *l->at, 16))
        return gt_fail(e, GT_EFAIL, "out of memory for the edits");
    l->at[l->n++] = (gt_editreq){step, tok};
    return GT_OK;
}

/* The token at step s once the first k edits of l are made (the text's own before any). */
static int editlist_token_at(const gt_editlist *l, size_t k, const gt_text *t, size_t s)
{
    for (size_t i = k; i-- > 0;)
        if (l->at[i].step == s)
            return l->at[i].tok;
    return t->tok[s];
}

/* A token of the list, as w writes it (export_file.c, put_token), as its text (the
 * character in UTF-8 into buf, of at least 8 bytes), or NULL: a word model's word itself;
 * another model's character itself in UTF-8, or \n \t \\, or \xNN (a control character,
 * or a byte of a byte model). */
static const char *field_token(const gt_model *m, const char *f, char *buf)
{
    const size_t n = strlen(f);
    uint32_t cp = UTF8_INVALID;
    if (m->words)
        return n ? f : NULL;
    if (n == 2 && f[0] == '\\')
        cp = f[1] == 'n' ? '\n' : f[1] == 't' ? '\t' : f[1] == '\\' ? '\\' : UTF8_INVALID;
    else if (n == 4 && f[0] == '\\' && f[1] == 'x') {
        char *end;
        unsigned long v = strtoul(f + 2, &end, 16);
        cp = *end || f[2] == '-' || f[2] == '+' || f[2] == ' ' ? UTF8_INVALID : (uint32_t)v;
    } else if (n && (size_t)utf8_decode((const unsigned char *)f, n, &cp) != n)
        cp = UTF8_INVALID;
    const int k = cp == UTF8_INVALID ? 0 : utf8_encode(cp, buf);
    buf[k > 0 ? k : 0] = 0;
    return k > 0 ? buf : NULL;
}

/* A number of the list, or -1. */
static long long field_count(const char *f)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(f, &end, 10);
    return *f < '0' || *f > '9' || *end || errno || v > (unsigned long long)INT64_MAX
               ? -1
               : (long long)v;
}

static int misfit(gt_error *e, const char *where, const char *what)
{
    return gt_fail(e, GT_EINPUT, "%s: %s: the list was made for another text (or model)",
                   where, what);
}

int editlist_add_checked(gt_editlist *l, const gt_model *m, const gt_text *t, size_t step,
                         size_t off, const char *before, const char *after, const char *where,
                         gt_error *e)
{
    char what[400], a[32], b[32], shown[80], said[80], u[8];
    if (step >= t->steps) {
        snprintf(what, sizeof what, "step %s is past the text's %s steps",
                 report_commas(step, a, sizeof a), report_commas(t->steps, b, sizeof b));
        return misfit(e, where, what);
    }
    const size_t at = text_step_offset(t, step);
    if (off != at) {
        snprintf(what, sizeof what, "step %s is at byte %s of %s, not %zu",
                 report_commas(step, a, sizeof a), report_commas(at, b, sizeof b), t->path, off);
        return misfit(e, where, what);
    }
    const int now = editlist_token_at(l, l->n, t, step);
    if (model_token_named(m, before) != now) {
        snprintf(what, sizeof what, "step %s holds '%s', not '%s'",
                 report_commas(step, a, sizeof a),
                 utf8_printable(shown, sizeof shown, model_token_text(m, now, u)),
                 utf8_printable(said, sizeof said, before));
        return misfit(e, where, what);
    }
    const int tok = model_token_named(m, after);
    if (tok < 0)
        return gt_fail(e, GT_EINPUT, "%s: '%s' is not in the model's vocabulary", where,
                       utf8_printable(said, sizeof said, after));
    return add(l, step, tok, e);
}

static int not_a_line(const gt_model *m, const char *where, gt_error *e)
{
    return gt_fail(e, GT_EINPUT, "%s: not a line of an edits' list (the step, the byte offset, "
                   "the %s before and after, tab-separated)", where, model_step_noun(m));
}

/* A line whose fields are all there but whose tokens are more than a character for a
 * character model: a word model's list. */
static int words_for_chars(const char *word, const char *where, gt_error *e)
{
    char shown[80];
    return gt_fail(e, GT_EINPUT, "%s: '%s' is a word, and the model reads characters: a list "
                   "written for a word model?", where, utf8_printable(shown, sizeof shown, word));
}

/* One line's four fields: the edit it makes, checked against the text as the edits before
 * it leave it. */
static int take_line(gt_editlist *l, const gt_model *m, const gt_text *t, const char *where,
                     char **fld, gt_error *e)
{
    char bb[8], ab[8];
    const long long step = field_count(fld[0]), off = field_count(fld[1]);
    const char *before = field_token(m, fld[2], bb), *after = field_token(m, fld[3], ab);
    if (step >= 0 && off >= 0 && !m->words && (!before || !after) && fld[2][0] && fld[3][0] &&
        fld[2][0] != '\\' && fld[3][0] != '\\' && (strlen(fld[2]) > 1 || strlen(fld[3]) > 1))
        return words_for_chars(!before ? fld[2] : fld[3], where, e); /* the one not read */
    if (step < 0 || off < 0 || !before || !after)
        return not_a_line(m, where, e);
    return editlist_add_checked(l, m, t, (size_t)step, (size_t)off, before, after, where, e);
}

/* The lines of the file at path (ended LF or CR LF): '#' lines and blank lines skipped. */
static int read_list(gt_editlist *l, const gt_model *m, const gt_text *t, const char *path,
                     gt_error *e)
{
    unsigned char *buf;
    size_t n, line = 0;
    int rc = read_whole_file(path, 1, &buf, &n, e);
    if (rc == GT_EINPUT) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        return gt_fail(e, GT_EINPUT, "--edits %s", why);
    }
    if (rc)
        return rc;
    char *next = NULL, *p = (char *)buf, where[300];
    for (char *at = p; rc == GT_OK && at && at < p + n; at = next) {
        char *nl = memchr(at, '\n', (size_t)(p + n - at));
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = 0;
        const size_t len = strlen(at);
        if (len && at[len - 1] == '\r') /* a line ended CR LF: w writes a CR as \x0d */
            at[len - 1] = 0;
        line++;
        if (!at[0] || at[0] == '#')
            continue;
        char *fld[5] = {at};
        int k = 1;
        for (char *q = at; *q && k < 5; q++)
            if (*q == '\t') {
                *q = 0;
                fld[k++] = q + 1;
            }
        snprintf(where, sizeof where, "%s:%zu", path, line);
        rc = k == 4 ? take_line(l, m, t, where, fld, e) : not_a_line(m, where, e);
    }
    free(buf);
    return rc;
}

int editlist_parse(gt_editlist *l, const gt_model *m, const gt_text *t, const gt_editsrc *src,
                   int n, gt_error *e)
{
    memset(l, 0, sizeof *l);
    int rc = GT_OK;
    for (int i = 0; rc == GT_OK && i < n; i++) {
        if (src[i].kind == 'f') {
            rc = read_list(l, m, t, src[i].arg, e);
            continue;
        }
        size_t step = 0;
        int tok = 0;
        if ((rc = editarg_parse(m, src[i].arg, t->steps, &step, &tok, e)) == GT_OK)
            rc = add(l, step, tok, e);
    }
    if (rc)
        editlist_free(l);
    return rc;
}
