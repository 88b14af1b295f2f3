/* dumpcmp: compares two CSV files of the form `gatetui --dump` writes.
 *
 *     dumpcmp EXPECTED ACTUAL [TOL [FLOOR]]
 *
 * The headers must be identical, the files must have the same number of records, and
 * each record the same number of fields.  The key columns (step, char, layer, unit,
 * token) must be identical after RFC 4180 unquoting; every other column is numeric and
 * each value v must be within TOL * max(FLOOR, |e|) of the expected value e (TOL default
 * 1e-5, FLOOR default 1): relative to e where |e| is above FLOOR, absolute below it.
 * Records may span lines (a quoted line break).  Diagnostics are printed on standard
 * output as TAP comments ("# ..."): the first mismatches with the line of the record in
 * ACTUAL, the column, the expected and the actual value, then a summary line
 * "# max abs diff X at line L col C; largest |difference| / bound R" (below 1: all within).
 *
 * Exit status: 0 everything within tolerance; 1 any difference, or a file that cannot be
 * read or parsed; 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORT 10

typedef struct {
    char **field;   /* unquoted, NUL-terminated */
    size_t nfield;
    unsigned long line; /* physical line where the record starts (from 1) */
} record;

typedef struct {
    const char *path;
    char *buf;
    size_t len, pos;
    unsigned long line;
    char *tmp; /* a field being unquoted: as long as the file, allocated once */
} csv;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("# %s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f)) {
                printf("# %s: read error\n", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    *len = n;
    return buf;
}

static void free_record(record *r)
{
    for (size_t i = 0; i < r->nfield; i++)
        free(r->field[i]);
    free(r->field);
    r->field = NULL;
    r->nfield = 0;
}

static int add_field(record *r, const char *s, size_t n)
{
    char **nf = realloc(r->field, (r->nfield + 1) * sizeof *nf);
    if (!nf)
        return -1;
    r->field = nf;
    char *f = malloc(n + 1);
    if (!f)
        return -1;
    memcpy(f, s, n);
    f[n] = 0;
    r->field[r->nfield++] = f;
    return 0;
}

/* Reads the next record.  Returns 1 with a record, 0 at the end of the file, -1 on a
 * malformed file (reported). */
static int next_record(csv *c, record *r)
{
    r->field = NULL;
    r->nfield = 0;
    r->line = c->line;
    if (c->pos >= c->len)
        return 0;
    if (!c->tmp && !(c->tmp = malloc(c->len + 1))) {
        printf("# out of memory\n");
        return -1;
    }
    char *tmp = c->tmp;
    for (;;) {
        size_t n = 0;
        if (c->pos < c->len && c->buf[c->pos] == '"') {
            c->pos++;
            for (;;) {
                if (c->pos >= c->len) {
                    printf("# %s:%lu: unterminated quoted field\n", c->path, r->line);
                    goto bad;
                }
                char ch = c->buf[c->pos++];
                if (ch == '"') {
                    if (c->pos < c->len && c->buf[c->pos] == '"') {
                        tmp[n++] = '"';
                        c->pos++;
                        continue;
                    }
                    break;
                }
                if (ch == '\n')
                    c->line++;
                tmp[n++] = ch;
            }
            if (c->pos < c->len && c->buf[c->pos] != ',' && c->buf[c->pos] != '\n' &&
                !(c->buf[c->pos] == '\r' && c->pos + 1 < c->len && c->buf[c->pos + 1] == '\n')) {
                printf("# %s:%lu: text after a closing quote\n", c->path, c->line);
                goto bad;
            }
        } else {
            while (c->pos < c->len && c->buf[c->pos] != ',' && c->buf[c->pos] != '\n') {
                if (c->buf[c->pos] == '"') {
                    printf("# %s:%lu: a quote inside an unquoted field\n", c->path, c->line);
                    goto bad;
                }
                tmp[n++] = c->buf[c->pos++];
            }
            /* CR LF ends the record too */
            if (n && tmp[n - 1] == '\r' && c->pos < c->len && c->buf[c->pos] == '\n')
                n--;
        }
        if (c->pos < c->len && c->buf[c->pos] == '\r')
            c->pos++; /* the CR of a CR LF after a quoted field */
        if (add_field(r, tmp, n) < 0) {
            printf("# out of memory\n");
            goto bad;
        }
        if (c->pos >= c->len)
            break;
        if (c->buf[c->pos++] == '\n') {
            c->line++;
            break;
        }
        /* a comma: another field follows */
    }
    return 1;
bad:
    free_record(r);
    return -1;
}

static int is_key(const char *name)
{
    static const char *keys[] = {"step", "char", "layer", "unit", "token"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(name, keys[i]) == 0)
            return 1;
    return 0;
}

/* A field printable on one line: line breaks and other controls escaped. */
static const char *show(const char *s)
{
    static char out[2][256];
    static int which;
    char *o = out[which ^= 1];
    size_t n = 0;
    for (; *s && n + 5 < sizeof out[0]; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\n')
            n += (size_t)sprintf(o + n, "\\n");
        else if (ch == '\r')
            n += (size_t)sprintf(o + n, "\\r");
        else if (ch < 0x20 || ch == 0x7F)
            n += (size_t)sprintf(o + n, "\\x%02X", ch);
        else
            o[n++] = (char)ch;
    }
    o[n] = 0;
    return o;
}

static int parse_number(const char *s, double *v)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return *end == 0 ? 0 : -1;
}

/* What the comparison found so far. */
typedef struct tally {
    double tol, floor_;
    const record *header;
    const int *key;        /* [columns] 1 for the key columns */
    unsigned long reported, bad, compared;
    double maxdiff, maxshare;
    unsigned long max_line;
    const char *max_col;
} tally;

/* One difference more; said while there are at most MAX_REPORT. */
static int count_bad(tally *t)
{
    t->bad++;
    return t->reported++ < MAX_REPORT;
}

/* Column i of expected record x and actual record y. */
static void compare_field(tally *t, size_t i, const record *x, const record *y)
{
    const char *xs = x->field[i], *ys = y->field[i], *col = t->header->field[i];
    if (t->key[i]) {
        if (strcmp(xs, ys) != 0 && count_bad(t))
            printf("# line %lu col %s: expected \"%s\", actual \"%s\"\n", y->line, col, show(xs),
                   show(ys));
        return;
    }
    double xv, yv;
    if (parse_number(xs, &xv) < 0) {
        if (count_bad(t))
            printf("# line %lu col %s: expected value \"%s\" is not a number\n", y->line, col,
                   show(xs));
        return;
    }
    if (parse_number(ys, &yv) < 0) {
        if (count_bad(t))
            printf("# line %lu col %s: expected %s, actual \"%s\" is not a number\n", y->line,
                   col, xs, show(ys));
        return;
    }
    t->compared++;
    double d = fabs(xv - yv), bound = t->tol * fmax(t->floor_, fabs(xv));
    int ok = d <= bound;
    if (isnan(xv) || isnan(yv) || isinf(xv) || isinf(yv)) {
        ok = (isnan(xv) && isnan(yv)) || xv == yv;
        d = ok ? 0 : INFINITY;
    }
    if (d > 0 && !(d / bound <= t->maxshare))
        t->maxshare = d / bound; /* infinite when the bound is 0 */
    if (d > t->maxdiff || t->max_line == 0) {
        t->maxdiff = d;
        t->max_line = y->line;
        t->max_col = col;
    }
    if (!ok && count_bad(t))
        printf("# line %lu col %s: expected %s, actual %s (diff %.3g > %.3g)\n", y->line, col, xs,
               ys, d, bound);
}

static void compare_record(tally *t, const record *x, const record *y)
{
    const size_t ncol = t->header->nfield;
    if (x->nfield != ncol || y->nfield != ncol) {
        if (count_bad(t))
            printf("# line %lu: %zu fields expected, %zu in actual (expected file: %zu)\n",
                   y->line, ncol, y->nfield, x->nfield);
        return;
    }
    for (size_t i = 0; i < ncol; i++)
        compare_field(t, i, x, y);
}

/* Counts the records left in c into *n; -1 when one is malformed. */
static int count_rest(csv *c, unsigned long *n)
{
    record z;
    int rz;
    while ((rz = next_record(c, &z)) > 0) {
        (*n)++;
        free_record(&z);
    }
    return rz < 0 ? -1 : 0;
}

/* The records after the headers, pairwise; 1 when a file is malformed. */
static int compare_records(tally *t, csv *e, csv *a, unsigned long *nrec_e,
                           unsigned long *nrec_a)
{
    for (;;) {
        record x, y;
        int re = next_record(e, &x), ra = next_record(a, &y);
        if (re < 0 || ra < 0) {
            free_record(&x);
            free_record(&y);
            return 1;
        }
        *nrec_e += (unsigned long)re;
        *nrec_a += (unsigned long)ra;
        if (re == 0 || ra == 0) { /* count what is left of the longer file */
            free_record(&x);
            free_record(&y);
            if (re)
                return count_rest(e, nrec_e) < 0;
            if (ra)
                return count_rest(a, nrec_a) < 0;
            return 0;
        }
        compare_record(t, &x, &y);
        free_record(&x);
        free_record(&y);
    }
}

static void print_fields(const record *r)
{
    for (size_t i = 0; i < r->nfield; i++)
        printf("%s%s", i ? "," : "", show(r->field[i]));
}

/* Reads both headers: 0 when they are the same, 1 (said) otherwise. */
static int compare_headers(csv *e, csv *a, record *he, record *ha)
{
    int re = next_record(e, he), ra = next_record(a, ha);
    if (re <= 0 || ra <= 0) {
        if (re == 0)
            printf("# %s: empty file\n", e->path);
        if (ra == 0)
            printf("# %s: empty file\n", a->path);
        return 1;
    }
    int same = he->nfield == ha->nfield;
    for (size_t i = 0; same && i < he->nfield; i++)
        same = strcmp(he->field[i], ha->field[i]) == 0;
    if (!same) {
        printf("# header differs\n#   expected: ");
        print_fields(he);
        printf("\n#   actual:   ");
        print_fields(ha);
        printf("\n");
        return 1;
    }
    return 0;
}

/* The two files' records after the headers he; 1 on any difference. */
static int compare(csv *e, csv *a, const record *he, double tol, double floor_)
{
    const size_t ncol = he->nfield;
    int *key = malloc(ncol * sizeof *key);
    if (!key) {
        printf("# out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < ncol; i++)
        key[i] = is_key(he->field[i]);
    tally t = {.tol = tol, .floor_ = floor_, .header = he, .key = key, .max_col = "-"};
    unsigned long nrec_e = 0, nrec_a = 0;
    int fail = compare_records(&t, e, a, &nrec_e, &nrec_a);
    if (t.reported > MAX_REPORT)
        printf("# ... %lu more differences not shown\n", t.reported - MAX_REPORT);
    if (nrec_e != nrec_a) {
        printf("# %lu data rows expected, %lu in actual\n", nrec_e, nrec_a);
        fail = 1;
    }
    printf("# %lu rows, %lu values compared, %lu differences, tolerance %g * max(%g, |expected|)\n",
           nrec_a, t.compared, t.bad, tol, floor_);
    if (t.max_line)
        printf("# max abs diff %.3g at line %lu col %s; largest |difference| / bound %.3g\n",
               t.maxdiff, t.max_line, t.max_col, t.maxshare);
    else
        printf("# max abs diff 0\n");
    free(key);
    return fail || t.bad;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: dumpcmp EXPECTED ACTUAL [TOL [FLOOR]]\n");
        return 2;
    }
    double tol = 1e-5, floor_ = 1;
    for (int i = 3; i < argc; i++) {
        char *end;
        double v = strtod(argv[i], &end);
        if (*end || !(v >= 0)) {
            fprintf(stderr, "dumpcmp: %s must be a number >= 0, not \"%s\"\n",
                    i == 3 ? "TOL" : "FLOOR", argv[i]);
            return 2;
        }
        *(i == 3 ? &tol : &floor_) = v;
    }
    csv e = {argv[1], NULL, 0, 0, 1, NULL}, a = {argv[2], NULL, 0, 0, 1, NULL};
    e.buf = read_file(e.path, &e.len);
    a.buf = read_file(a.path, &a.len);
    int fail = 1;
    if (e.buf && a.buf) {
        record he, ha;
        fail = compare_headers(&e, &a, &he, &ha) || compare(&e, &a, &he, tol, floor_);
        free_record(&he);
        free_record(&ha);
    }
    free(e.buf);
    free(a.buf);
    free(e.tmp);
    free(a.tmp);
    return fail;
}
