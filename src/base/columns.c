/* Texts side by side (columns.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gatetui/columns.h"
#include "gatetui/error.h"
#include "gatetui/utf8.h"

/* Code points in s[0..n) (an invalid byte counts as one). */
static size_t width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; w++) {
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        i += k > 0 ? (size_t)k : 1;
    }
    return w;
}

/* The length of the line at *p (without its '\n'); *p moves past it. NULL at the end. */
static const char *next_line(const char **p, size_t *len)
{
    const char *s = *p;
    if (!s || !*s)
        return NULL;
    const char *nl = strchr(s, '\n');
    *len = nl ? (size_t)(nl - s) : strlen(s);
    *p = nl ? nl + 1 : s + *len;
    return s;
}

/* The lines of the paragraph at *p (up to a blank line or the end), counted; *p moves to
 * the next paragraph, past the blank lines. */
static int paragraph(const char **p, const char **start)
{
    const char *line, *q = *p;
    size_t len;
    int n = 0;
    *start = q;
    while ((line = next_line(&q, &len)) && len > 0) {
        *p = q;
        n++;
    }
    while (**p == '\n') /* the blank lines that end it */
        (*p)++;
    return n;
}

int columns_print(FILE *f, const char *const *text, int n, const char *sep)
{
    size_t *w = calloc((size_t)n, sizeof *w);
    const char **at = calloc((size_t)n, sizeof *at), **par = calloc((size_t)n, sizeof *par);
    int *rows = calloc((size_t)n, sizeof *rows);
    if (!w || !at || !par || !rows) {
        free(w);
        free(at);
        free(par);
        free(rows);
        return GT_EFAIL;
    }
    for (int k = 0; k < n; k++) {
        const char *p = text[k], *line;
        size_t len;
        while ((line = next_line(&p, &len)))
            if (width(line, len) > w[k])
                w[k] = width(line, len);
        at[k] = text[k];
    }
    /* paragraph by paragraph, so that the same table of each text starts on the same line */
    for (int first = 1;; first = 0) {
        int most = 0;
        for (int k = 0; k < n; k++) {
            rows[k] = paragraph(&at[k], &par[k]);
            if (rows[k] > most)
                most = rows[k];
        }
        if (!most)
            break;
        if (!first)
            fputc('\n', f);
        for (int r = 0; r < most; r++) {
            size_t pad = 0;
            for (int k = 0; k < n; k++) {
                size_t len = 0;
                const char *line = r < rows[k] ? next_line(&par[k], &len) : NULL;
                if (line) {
                    for (; pad; pad--)
                        fputc(' ', f);
                    fwrite(line, 1, len, f);
                }
                if (k + 1 < n)
                    pad += w[k] - (line ? width(line, len) : 0) + strlen(sep);
            }
            fputc('\n', f);
        }
    }
    free(w);
    free(at);
    free(par);
    free(rows);
    return ferror(f) ? GT_EFAIL : GT_OK;
}
