/* Finding units on a model built by hand whose unit 0 provably tracks "inside parentheses":
 * its h is +tanh(1) from an opening parenthesis through the closing one and -tanh(1)
 * everywhere else, so that --units '\([^)]*\)' must rank it first with r = 1, --select of
 * a parenthetical must choose it alone and match every parenthetical, and its profile's
 * top steps are the first inside a parenthesis. Then the regular expression's mask on small
 * texts: empty matches, leftmost-longest, non-overlapping, \n, multi-byte characters, and
 * the expressions refused.
 * (The model: tests/lib/parenmodel.c.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute/kernels.h"
#include "compute/moments.h"
#include "gatetui/mask.h"
#include "gatetui/model.h"
#include "gatetui/profile.h"
#include "gatetui/select.h"
#include "gatetui/text.h"
#include "gatetui/units.h"
#include "../lib/parenmodel.h"
#include "../lib/tap.h"

enum { OPEN = PAREN_OPEN, CLOSE = PAREN_CLOSE };

/* inside[t]: step t lies in a parenthetical, '(' and ')' included (from the text itself). */
static void parentheticals(const char *s, size_t n, unsigned char *inside, size_t *from,
                           size_t *to, size_t *count)
{
    int depth = 0;
    *count = 0;
    for (size_t t = 0; t < n; t++) {
        if (s[t] == '(') {
            depth = 1;
            from[*count] = t;
        }
        inside[t] = (unsigned char)depth;
        if (s[t] == ')' && depth) {
            depth = 0;
            to[(*count)++] = t;
        }
    }
}

static const char *gatetui_bin(void)
{
    static char path[600];
    const char *b = getenv("top_builddir");
    snprintf(path, sizeof path, "%s/gatetui", b ? b : ".");
    return path;
}

static void test_units(const gt_model *m, const gt_text *t, const char *model_path,
                       const char *text_path)
{
    const gt_pass_options o = {0, 1, NULL, NULL};
    gt_units u;
    gt_error e = {0};
    int rc = units_compute(&u, m, t->tok, t->steps, "\\([^)]*\\)", MASK_SECONDS, &o, &e);
    tap_ok(rc == GT_OK, "--units on the parentheses model: %s", rc ? e.msg : "computed");
    if (rc)
        return;
    const gt_unit_r *h = u.by_signal[5], *c = u.by_signal[4];
    tap_ok(h[0].unit == 0 && h[0].r > 0.9999, "h: unit 0 first, r = %.6f (unit %d)", h[0].r,
           h[0].unit);
    tap_near(h[0].mean_inside, tanh(1.0), 1e-4, "unit 0: mean h inside");
    tap_near(h[0].mean_outside, -tanh(1.0), 1e-4, "unit 0: mean h outside");
    tap_ok(c[0].unit == 0 && c[0].r > 0.9999, "c: unit 0 first, r = %.6f", c[0].r);
    tap_ok(fabs(h[1].r) < 0.9, "h: the next unit (%d) far behind: r = %.4f", h[1].unit, h[1].r);
    units_free(&u);

    /* the same from the command line: the first row of the h table is unit 0 */
    char cmd[2000], line[256];
    snprintf(cmd, sizeof cmd, "'%s' --units '\\([^)]*\\)' --signal h '%s' '%s'", gatetui_bin(),
             model_path, text_path);
    FILE *p = popen(cmd, "r");
    int first = -1, rows = 0;
    double r = 0;
    while (p && fgets(line, sizeof line, p))
        if (sscanf(line, " %d %lf", &first, &r) == 2 && rows++ == 0)
            break;
    if (p)
        pclose(p);
    tap_ok(first == 0 && r > 0.9999, "gatetui --units ranks unit 0 first (r = %+.4f)", r);
}

/* The selection of a parenthetical with none right before or after it: unit 0 alone, and
 * the matches every run of steps inside parentheses ("(a)(b)" is one). */
static void test_select(const gt_model *m, const gt_text *t, const unsigned char *inside,
                        const size_t *from, const size_t *to, size_t count)
{
    const gt_pass_options o = {0, 1, NULL, NULL};
    gt_selection s;
    gt_error e = {0};
    size_t k = count / 2, n = t->steps;
    while (k + 1 < count && (inside[from[k] - 1] || inside[to[k] + 1]))
        k++;
    size_t *rf = malloc(n * sizeof *rf), *rt = malloc(n * sizeof *rt), runs = 0;
    for (size_t i = 0; i < n; i++) {
        if (inside[i] && (i == 0 || !inside[i - 1]))
            rf[runs] = i;
        if (inside[i] && (i + 1 == n || !inside[i + 1]))
            rt[runs++] = i;
    }
    int rc = select_compute(&s, m, t->tok, n, from[k], to[k], 5, 0.3, &o, &e);
    tap_ok(rc == GT_OK, "select %zu:%zu: %s", from[k], to[k], rc ? e.msg : "computed");
    if (rc == GT_OK) {
        tap_ok(s.nunits == 1 && s.units[0] == 0, "select: unit 0 alone (%d units)", s.nunits);
        int same = s.nmatches == runs;
        for (size_t i = 0; same && i < runs; i++)
            same = s.from[i] == rf[i] && s.to[i] == rt[i];
        tap_ok(same, "select: the matches are the %zu runs inside parentheses (%zu matches)",
               runs, s.nmatches);
        select_free(&s);
    }
    free(rf);
    free(rt);
}

static void test_profile(const gt_model *m, const gt_text *t, const unsigned char *inside)
{
    const gt_pass_options o = {0, 1, NULL, NULL};
    gt_profile p;
    gt_error e = {0};
    int rc = profile_compute(&p, m, t->tok, t->steps, 0, 5, &o, &e);
    tap_ok(rc == GT_OK && p.ntop == 10 && p.nbottom == 10, "profile of unit 0: %s",
           rc ? e.msg : "computed");
    if (rc)
        return;
    int ok = 1;
    size_t s = 0;
    for (int i = 0; i < 10 && ok; i++) { /* equal values: the first ten inside, in order */
        while (!inside[s])
            s++;
        ok = p.top[i].step == s++ && fabs(p.top[i].value - tanh(1.0)) < 1e-5;
    }
    tap_ok(ok, "profile: the top ten are the first ten steps inside, at tanh(1)");
    ok = 1;
    for (int i = 0; i < 10; i++)
        ok &= !inside[p.bottom[i].step] && p.bottom[i].value < -0.76;
    tap_ok(ok, "profile: the bottom ten are outside, below -0.76");
    int open = 0;
    for (int i = 0; i < p.nchars; i++)
        if (p.by_char[i].tok == OPEN || p.by_char[i].tok == CLOSE)
            open += i < 2 && fabs(p.by_char[i].mean - tanh(1.0)) < 1e-5;
    tap_ok(open == 2, "profile: '(' and ')' have the highest means, tanh(1)");
    profile_free(&p);
}

/* ---- the mask ---- */

static gt_model tiny; /* a vocabulary only: "\n ab" and é */
static uint32_t tiny_cp[] = {'\n', ' ', 'a', 'b', 0xE9};

static void mask_is(const char *text, const char *regex, const char *want, size_t matches)
{
    uint16_t tok[64] = {0};
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; n++) {
        uint32_t cp = *s < 0x80 ? *s : 0xE9;
        s += *s < 0x80 ? 1 : 2;
        for (int v = 0; v < tiny.vocab; v++)
            if (tiny_cp[v] == cp)
                tok[n] = (uint16_t)v;
    }
    gt_mask k;
    gt_error e = {0};
    char got[64] = "";
    int rc = mask_from_regex(&k, &tiny, tok, n, regex, MASK_SECONDS, &e);
    for (size_t i = 0; rc == GT_OK && i < n; i++)
        got[i] = (char)('0' + k.m[i]);
    tap_ok(rc == GT_OK && strcmp(got, want) == 0 && k.matches == matches,
           "mask of \"%s\" on \"%s\": %s, %zu matches (want %s, %zu)%s%s", regex, text, got,
           rc ? 0 : k.matches, want, matches, rc ? ": " : "", rc ? e.msg : "");
    if (rc == GT_OK)
        mask_free(&k);
}

static void mask_refused(const char *text, const char *regex, const char *why)
{
    uint16_t tok[64];
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i++)
        tok[i] = text[i] == 'a' ? 2 : 3;
    gt_mask k;
    gt_error e = {0};
    int rc = mask_from_regex(&k, &tiny, tok, n, regex, MASK_SECONDS, &e);
    tap_ok(rc == GT_EINPUT && strstr(e.msg, why) && !k.m, "\"%s\" refused: %s", regex, e.msg);
}

static void test_mask(void)
{
    tiny.vocab = 5;
    tiny.vocab_cp = tiny_cp;
    mask_is("baab", "a*", "0110", 1);         /* empty matches advance one step */
    mask_is("bab", "a|ab", "011", 1);         /* the longest at the leftmost place */
    mask_is("aaa", "aa", "110", 1);           /* non-overlapping */
    mask_is("aaaab", "aa", "11110", 2);
    mask_is("a\nb", "\\n", "010", 1);         /* \n is a newline */
    mask_is("ab\nb", "b[^\\n]*", "0101", 2);  /* inside brackets too */
    mask_is("a\xc3\xa9\xc3\xa9" "b", "(\xc3\xa9)+", "0110", 1); /* two bytes a character */
    mask_is("ab ab", "^a", "10000", 1);       /* ^ is the start of the text only */
    mask_is("ab ab", "b$", "00001", 1);
    mask_refused("ab", "(", "is not a valid regular expression");
    mask_refused("ab", "x", "matches no character");
    mask_refused("ab", "c*", "matches no character"); /* only empty matches */
    mask_refused("ab", "[ab]", "matches every one");
}

/* The running sums of every kernel set the processor runs against the plain loop, bit for
 * bit, on lengths that leave every kind of tail. */
static void test_moments(void)
{
    enum { N = 77 };
    float x[N];
    double base[N], s0[N], q0[N], s1[N], q1[N];
    for (int j = 0; j < N; j++) {
        x[j] = 3 * paren_rand();
        base[j] = paren_rand();
    }
    const kern_set *sets[8];
    size_t nsets = kern_sets(sets, 8);
    for (size_t k = 0; k < nsets; k++) {
        int same = 1;
        for (int n = 0; n <= N; n += 7) {
            for (int j = 0; j < N; j++)
                s0[j] = s1[j] = q0[j] = q1[j] = 0.25 * j;
            for (int rep = 0; rep < 3; rep++) {
                sets[k]->moments(n, x, base, s0, q0);
                kern_moments_ref(n, x, base, s1, q1);
            }
            same &= memcmp(s0, s1, sizeof s0) == 0 && memcmp(q0, q1, sizeof q0) == 0;
        }
        tap_ok(same, "running sums with the %s kernels: the plain loop's, bit for bit",
               sets[k]->name);
    }
}

int main(void)
{
    char dir[] = "/tmp/t_units.XXXXXX";
    if (!mkdtemp(dir)) {
        printf("Bail out! no temporary directory\n");
        return 1;
    }
    char mpath[64], tpath[64];
    snprintf(mpath, sizeof mpath, "%s/paren.safetensors", dir);
    snprintf(tpath, sizeof tpath, "%s/paren.txt", dir);
    paren_write_model(mpath);
    const size_t n = 3000;
    char *txt = paren_make_text(n);
    FILE *f = fopen(tpath, "w");
    if (f) {
        fputs(txt, f);
        fclose(f);
    }
    gt_model m;
    gt_text t;
    gt_error e = {0};
    if (model_load(&m, mpath, NULL, &e) || text_load(&t, tpath, &m, &e)) {
        tap_ok(0, "the parentheses model: %s", e.msg);
        return tap_done();
    }
    unsigned char *inside = malloc(n);
    size_t *from = malloc(n * sizeof *from), *to = malloc(n * sizeof *to), count;
    parentheticals(txt, n, inside, from, to, &count);
    tap_ok(count > 20 && t.steps == n, "%zu parentheticals in %zu steps", count, t.steps);
    test_units(&m, &t, mpath, tpath);
    test_select(&m, &t, inside, from, to, count);
    test_profile(&m, &t, inside);
    test_mask();
    test_moments();
    free(inside);
    free(from);
    free(to);
    free(txt);
    text_free(&t);
    model_free(&m);
    unlink(mpath);
    unlink(tpath);
    rmdir(dir);
    return tap_done();
}
