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

/* "S:C": a step and one character of m's vocabulary. */
static int editarg_parse(const gt_model *m, const char *arg, size_t steps, size_t *step, int *tok,
                  gt_error *e)
{
    char *colon, last[32], shown[16];
    errno = 0;
    const unsigned long long s = strtoull(arg, &colon, 10);
    if (colon == arg || *colon != ':' || errno || arg[0] == '-' || arg[0] == '+')
        return gt_fail(e, GT_EINPUT, "--edit wants S:C (a step and a character), not \"%s\"",
                       arg);
    const unsigned char *ch = (const unsigned char *)colon + 1;
    const size_t len = strlen((const char *)ch);
    uint32_t cp = UTF8_INVALID;
    if (!len || (size_t)utf8_decode(ch, len, &cp) != len || cp == UTF8_INVALID)
        return gt_fail(e, GT_EINPUT, "--edit %s: one character after the colon", arg);
    if (s >= steps)
        return gt_fail(e, GT_EINPUT, "--edit %s: the text has steps 0-%s", arg,
                       report_commas(steps - 1, last, sizeof last));
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

/* A character of the list, as w writes it (export_file.c, put_token): itself in UTF-8, or
 * \n \t \\, or \xNN (a control character, or a byte of a byte model). Its code point, or
 * UTF8_INVALID. */
static uint32_t field_char(const char *f)
{
    const size_t n = strlen(f);
    uint32_t cp = UTF8_INVALID;
    if (n == 2 && f[0] == '\\')
        return f[1] == 'n' ? '\n' : f[1] == 't' ? '\t' : f[1] == '\\' ? '\\' : UTF8_INVALID;
    if (n == 4 && f[0] == '\\' && f[1] == 'x') {
        char *end;
        unsigned long v = strtoul(f + 2, &end, 16);
        return *end || f[2] == '-' || f[2] == '+' || f[2] == ' ' ? UTF8_INVALID : (uint32_t)v;
    }
    if (n && (size_t)utf8_decode((const unsigned char *)f, n, &cp) != n)
        return UTF8_INVALID;
    return cp;
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
                         size_t off, uint32_t before, uint32_t after, const char *where,
                         gt_error *e)
{
    char what[400], a[32], b[32], shown[16], said[16];
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
    char have[8] = "?", was[8] = "?";
    int k = utf8_encode(m->vocab_cp[now], have);
    have[k > 0 ? k : 1] = 0;
    if (model_token(m, before) != now) {
        k = utf8_encode(before, was);
        was[k > 0 ? k : 1] = 0;
        snprintf(what, sizeof what, "step %s holds '%s', not '%s'",
                 report_commas(step, a, sizeof a), utf8_printable(shown, sizeof shown, have),
                 utf8_printable(said, sizeof said, was));
        return misfit(e, where, what);
    }
    const int tok = model_token(m, after);
    if (tok < 0) {
        k = utf8_encode(after, was);
        was[k > 0 ? k : 1] = 0;
        return gt_fail(e, GT_EINPUT, "%s: '%s' is not in the model's vocabulary", where,
                       utf8_printable(said, sizeof said, was));
    }
    return add(l, step, tok, e);
}

/* One line's four fields: the edit it makes, checked against the text as the edits before
 * it leave it. */
static int take_line(gt_editlist *l, const gt_model *m, const gt_text *t, const char *where,
                     char **fld, gt_error *e)
{
    const long long step = field_count(fld[0]), off = field_count(fld[1]);
    const uint32_t before = field_char(fld[2]), after = field_char(fld[3]);
    if (step < 0 || off < 0 || before == UTF8_INVALID || after == UTF8_INVALID)
        return gt_fail(e, GT_EINPUT, "%s: not a line of an edits' list (the step, the byte "
                       "offset, the character before and after, tab-separated)", where);
    return editlist_add_checked(l, m, t, (size_t)step, (size_t)off, before, after, where, e);
}

/* The lines of the file at path: '#' lines and blank lines skipped. */
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
        rc = k == 4 ? take_line(l, m, t, where, fld, e)
                    : gt_fail(e, GT_EINPUT, "%s: not a line of an edits' list (the step, the "
                              "byte offset, the character before and after, tab-separated)",
                              where);
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
