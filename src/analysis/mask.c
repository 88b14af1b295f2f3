/* The mask of a regular expression over the steps' characters (see mask.h). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "gatetui/fileio.h"
#include "gatetui/mask.h"
#include "gatetui/report.h"
#include "gatetui/text.h"
#include "analysis/regexsize.h"
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
    double size = regex_expanded_size(regex);
    if (size > REGEX_SIZE_MAX)
        return gt_fail(e, GT_EINPUT,
                       "\"%s\" expands to %.0f atoms, over %d: its bounded repetitions "
                       "({m,n}, nested ones multiplying) are written out as copies",
                       regex, size, REGEX_SIZE_MAX);
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
    const size_t *len; /* [V] each token's length in bytes */
    const uint16_t *tok;
    size_t n;
    const gt_model *m; /* its words' gaps (text_token_gap) */
} cursor;

/* The start of the step after the cursor's. */
static size_t next_off(const cursor *c)
{
    const size_t end = c->off + c->len[c->tok[c->s]];
    return c->s + 1 < c->n ? end + text_token_gap(c->m, c->tok[c->s], c->tok[c->s + 1]) : end;
}

/* Moves to the step whose character holds byte b (or the first after b). */
static void seek(cursor *c, size_t b)
{
    while (c->s < c->n && c->off + c->len[c->tok[c->s]] <= b) {
        c->off = next_off(c);
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
            pos = so < c->off ? c->off : c->off + c->len[c->tok[c->s]];
            continue;
        }
        size_t first = c->s;
        while (c->s < c->n && c->off < eo) {
            if (!k->m[c->s]) {
                k->m[c->s] = 1;
                k->inside++;
            }
            c->off = next_off(c);
            c->s++;
        }
        if (add_match(k, first, c->s - 1, &cap))
            return gt_fail(e, GT_EFAIL, "out of memory for the matches");
        pos = eo;
    }
    return GT_OK;
}

/* What the child that searches sends back before the mask and the matches. */
typedef struct found {
    int rc;
    size_t inside, matches;
    gt_error e;
} found;

/* In the child: the search, its result down fd, and the end (an alarm ends it too should
 * the parent be gone: it never outlives its budget by more than a second). */
static void search_child(int fd, gt_mask *k, const regex_t *rx, const char *buf, size_t len,
                         cursor *c, double seconds, pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* not to outlive gatetui, however it ends */
    if (getppid() != parent)
        _exit(1);
#else
    (void)parent;
#endif
    alarm((unsigned)seconds + 2);
    found f = {0};
    f.rc = search(k, rx, buf, len, c, &f.e);
    f.inside = k->inside;
    f.matches = k->matches;
    int bad = write_all(fd, &f, sizeof f) ||
              (f.rc == GT_OK && (write_all(fd, k->m, k->n) ||
                                 write_all(fd, k->from, f.matches * sizeof *k->from) ||
                                 write_all(fd, k->to, f.matches * sizeof *k->to)));
    _exit(bad);
}

/* In the parent: the child's result into k, or the reason there is none. */
static int search_receive(int fd, gt_mask *k, const char *regex, double seconds, gt_error *e)
{
    struct timespec by;
    clock_gettime(CLOCK_MONOTONIC, &by);
    by.tv_sec += (time_t)seconds;
    by.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (by.tv_nsec >= 1000000000L) {
        by.tv_sec++;
        by.tv_nsec -= 1000000000L;
    }
    found f;
    int r = read_by(fd, &f, sizeof f, &by);
    if (r == 0 && f.rc) {
        *e = f.e;
        return f.rc;
    }
    if (r == 0) {
        k->from = malloc((f.matches ? f.matches : 1) * sizeof *k->from);
        k->to = malloc((f.matches ? f.matches : 1) * sizeof *k->to);
        if (!k->from || !k->to)
            return gt_fail(e, GT_EFAIL, "out of memory for the matches");
        k->inside = f.inside;
        k->matches = f.matches;
        r = read_by(fd, k->m, k->n, &by);
        if (r == 0)
            r = read_by(fd, k->from, f.matches * sizeof *k->from, &by);
        if (r == 0)
            r = read_by(fd, k->to, f.matches * sizeof *k->to, &by);
    }
    if (r == 1)
        return gt_fail(e, GT_EINPUT,
                       "\"%s\" was still searching the text after %g s and was stopped (a "
                       "repeated group such as (.*){1,5} tries each start against the rest "
                       "of the text): narrow it",
                       regex, seconds);
    return r ? gt_fail(e, GT_EFAIL, "the search for \"%s\" ended without its result", regex)
             : GT_OK;
}

/* The search, in a child process stopped after seconds: the C library's matcher cannot be
 * interrupted, and some expressions take it hours over a long text. */
static int search_within(gt_mask *k, const regex_t *rx, const char *buf, size_t len,
                         cursor *c, const char *regex, double seconds, gt_error *e)
{
    int fd[2];
    if (pipe(fd) < 0)
        return gt_fail(e, GT_EFAIL, "cannot start the search: %s", strerror(errno));
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        search_child(fd[1], k, rx, buf, len, c, seconds, parent);
    }
    close(fd[1]);
    int rc = pid < 0 ? gt_fail(e, GT_EFAIL, "cannot start the search: %s", strerror(errno))
                     : search_receive(fd[0], k, regex, seconds, e);
    close(fd[0]);
    if (pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    return rc;
}

int mask_from_regex(gt_mask *k, const gt_model *m, const uint16_t *tok, size_t n,
                    const char *regex, double seconds, gt_error *e)
{
    memset(k, 0, sizeof *k);
    regex_t rx;
    int rc = compile(&rx, regex, e);
    if (rc)
        return rc;
    char *buf = NULL;
    size_t len = 0;
    size_t *tlen = malloc((size_t)m->vocab * sizeof *tlen);
    k->m = calloc(n ? n : 1, 1);
    k->n = n;
    rc = tlen && k->m ? steptext_join(m, tok, 0, n, &buf, &len, e)
                      : gt_fail(e, GT_EFAIL, "out of memory for the mask");
    if (rc == GT_OK) {
        for (int v = 0; v < m->vocab; v++)
            tlen[v] = steptext_len(m, v);
        cursor c = {0, 0, tlen, tok, n, m};
        rc = search_within(k, &rx, buf, len, &c, regex, seconds, e);
    }
    regfree(&rx);
    free(buf);
    free(tlen);
    char count[32];
    report_commas(n, count, sizeof count);
    if (rc == GT_OK && k->inside == 0)
        rc = gt_fail(e, GT_EINPUT, "\"%s\" matches no %s of the %s steps searched%s%s", regex,
                     model_step_noun(m), count,
                     m->words ? " (the tokens joined by spaces, <eos> as \\n)" : "",
                     regex[0] == '^' ? ("; ^ is the start of the text alone: a line's start "
                                        "is \\n before it")
                                     : "");
    else if (rc == GT_OK && k->inside == n)
        rc = gt_fail(e, GT_EINPUT,
                     "\"%s\" matches every one of the %s steps searched: nothing to compare with",
                     regex, count);
    if (rc)
        mask_free(k);
    return rc;
}

int mask_regex_check(const char *regex, gt_error *e)
{
    regex_t rx;
    int rc = compile(&rx, regex, e);
    if (rc == GT_OK)
        regfree(&rx);
    return rc;
}

void mask_free(gt_mask *k)
{
    free(k->m);
    free(k->from);
    free(k->to);
    memset(k, 0, sizeof *k);
}
