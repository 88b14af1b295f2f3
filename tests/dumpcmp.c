/* dumpcmp: compares two CSV files of the form `gatetui --dump` writes.
 *
 *     dumpcmp EXPECTED ACTUAL [TOL]
 *
 * The headers must be identical, the files must have the same number of records, and
 * each record the same number of fields.  The key columns (step, char, layer, unit,
 * token) must be identical after RFC 4180 unquoting; every other column is numeric and
 * must be within the absolute tolerance TOL (default 1e-5) of the expected value; a TOL
 * ending in "r" (1e-5r) is relative: TOL * max(1, |expected|).
 * Records may span lines (a quoted line break).  Diagnostics are printed on standard
 * output as TAP comments ("# ..."): the first mismatches with the line of the record in
 * ACTUAL, the column, the expected and the actual value, then a summary line
 * "# max abs diff X at line L col C".
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
    char *tmp = malloc(c->len - c->pos + 1);
    if (!tmp) {
        printf("# out of memory\n");
        return -1;
    }
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
    free(tmp);
    return 1;
bad:
    free(tmp);
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

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: dumpcmp EXPECTED ACTUAL [TOL[r]]\n");
        return 2;
    }
    double tol = 1e-5;
    int rel = 0;
    if (argc == 4) {
        char *end;
        tol = strtod(argv[3], &end);
        if (*end == 'r' && end != argv[3]) {
            rel = 1;
            end++;
        }
        if (*end || !(tol >= 0)) {
            fprintf(stderr, "dumpcmp: TOL must be a number >= 0, not \"%s\"\n", argv[3]);
            return 2;
        }
    }
    csv e = {argv[1], NULL, 0, 0, 1}, a = {argv[2], NULL, 0, 0, 1};
    e.buf = read_file(e.path, &e.len);
    a.buf = read_file(a.path, &a.len);
    if (!e.buf || !a.buf) {
        free(e.buf);
        free(a.buf);
        return 1;
    }

    record he, ha;
    int re = next_record(&e, &he), ra = next_record(&a, &ha);
    int fail = 0;
    if (re <= 0 || ra <= 0) {
        if (re == 0)
            printf("# %s: empty file\n", e.path);
        if (ra == 0)
            printf("# %s: empty file\n", a.path);
        free_record(&he);
        free_record(&ha);
        free(e.buf);
        free(a.buf);
        return 1;
    }
    int same = he.nfield == ha.nfield;
    for (size_t i = 0; same && i < he.nfield; i++)
        same = strcmp(he.field[i], ha.field[i]) == 0;
    if (!same) {
        printf("# header differs\n#   expected: ");
        for (size_t i = 0; i < he.nfield; i++)
            printf("%s%s", i ? "," : "", show(he.field[i]));
        printf("\n#   actual:   ");
        for (size_t i = 0; i < ha.nfield; i++)
            printf("%s%s", i ? "," : "", show(ha.field[i]));
        printf("\n");
        free_record(&he);
        free_record(&ha);
        free(e.buf);
        free(a.buf);
        return 1;
    }
    const size_t ncol = he.nfield;
    int *key = malloc(ncol * sizeof *key);
    if (!key) {
        printf("# out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < ncol; i++)
        key[i] = is_key(he.field[i]);

    unsigned long nrec_e = 0, nrec_a = 0, reported = 0, bad = 0, compared = 0;
    double maxdiff = 0;
    unsigned long max_line = 0;
    const char *max_col = "-";
    for (;;) {
        record x, y;
        re = next_record(&e, &x);
        ra = next_record(&a, &y);
        if (re < 0 || ra < 0) {
            fail = 1;
            free_record(&x);
            free_record(&y);
            break;
        }
        nrec_e += (unsigned long)re;
        nrec_a += (unsigned long)ra;
        if (re == 0 || ra == 0) {
            /* count what is left of the longer file */
            csv *rest = re ? &e : ra ? &a : NULL;
            free_record(&x);
            free_record(&y);
            if (rest) {
                unsigned long *cnt = rest == &e ? &nrec_e : &nrec_a;
                record z;
                int rz;
                while ((rz = next_record(rest, &z)) > 0) {
                    (*cnt)++;
                    free_record(&z);
                }
                if (rz < 0)
                    fail = 1;
            }
            break;
        }
        if (x.nfield != ncol || y.nfield != ncol) {
            bad++;
            if (reported++ < MAX_REPORT)
                printf("# line %lu: %zu fields expected, %zu in actual (expected file: %zu)\n",
                       y.line, ncol, y.nfield, x.nfield);
            free_record(&x);
            free_record(&y);
            continue;
        }
        for (size_t i = 0; i < ncol; i++) {
            const char *xs = x.field[i], *ys = y.field[i];
            if (key[i]) {
                if (strcmp(xs, ys) != 0) {
                    bad++;
                    if (reported++ < MAX_REPORT)
                        printf("# line %lu col %s: expected \"%s\", actual \"%s\"\n", y.line,
                               he.field[i], show(xs), show(ys));
                }
                continue;
            }
            double xv, yv;
            if (parse_number(xs, &xv) < 0) {
                bad++;
                if (reported++ < MAX_REPORT)
                    printf("# line %lu col %s: expected value \"%s\" is not a number\n", y.line,
                           he.field[i], show(xs));
                continue;
            }
            if (parse_number(ys, &yv) < 0) {
                bad++;
                if (reported++ < MAX_REPORT)
                    printf("# line %lu col %s: expected %s, actual \"%s\" is not a number\n",
                           y.line, he.field[i], xs, show(ys));
                continue;
            }
            compared++;
            double d = fabs(xv - yv), lim = rel ? tol * fmax(1.0, fabs(xv)) : tol;
            int ok = d <= lim;
            if (isnan(xv) || isnan(yv) || isinf(xv) || isinf(yv)) {
                ok = (isnan(xv) && isnan(yv)) || xv == yv;
                d = ok ? 0 : INFINITY;
            }
            if (d > maxdiff || max_line == 0) {
                maxdiff = d;
                max_line = y.line;
                max_col = he.field[i];
            }
            if (!ok) {
                bad++;
                if (reported++ < MAX_REPORT)
                    printf("# line %lu col %s: expected %s, actual %s (diff %.3g > %g)\n", y.line,
                           he.field[i], xs, ys, d, lim);
            }
        }
        free_record(&x);
        free_record(&y);
    }
    if (reported > MAX_REPORT)
        printf("# ... %lu more differences not shown\n", reported - MAX_REPORT);
    if (nrec_e != nrec_a) {
        printf("# %lu data rows expected, %lu in actual\n", nrec_e, nrec_a);
        fail = 1;
    }
    printf("# %lu rows, %lu values compared, %lu differences, tolerance %g%s\n", nrec_a, compared,
           bad, tol, rel ? " x max(1, |expected|)" : "");
    if (max_line)
        printf("# max abs diff %.3g at line %lu col %s\n", maxdiff, max_line, max_col);
    else
        printf("# max abs diff 0\n");
    if (bad)
        fail = 1;
    free(key);
    free_record(&he);
    free_record(&ha);
    free(e.buf);
    free(a.buf);
    return fail;
}
