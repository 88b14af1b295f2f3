/* Figures made and written (kinds.h, figdoc.h): memory that lives as long as a figure, its
 * CSV, its caption; the kinds by name; the files, never over one (gatetui/fileio.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figure/figdoc.h"
#include "gatetui/fileio.h"

const char *const fig_kind_words[FIG_KINDS + 1] = {"perturbation", "halflives", "checkpoints",
                                                   "lyapunov", "unit", NULL};

int fig_kind_of(const char *word)
{
    for (int k = 0; k < FIG_KINDS; k++)
        if (strcmp(word, fig_kind_words[k]) == 0)
            return k;
    return -1;
}

int fig_colour(int k)
{
    return k % PLOT_COLOURS;
}

int fig_marker(int k)
{
    return k % PLOT_MARKERS;
}

void *fig_alloc(fig_doc *d, size_t bytes)
{
    if (d->nowned == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        void **o = realloc(d->owned, cap * sizeof *o);
        if (!o) {
            d->failed = 1;
            return NULL;
        }
        d->owned = o;
        d->cap = cap;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        d->failed = 1;
        return NULL;
    }
    d->owned[d->nowned++] = p;
    return p;
}

const char *fig_str(fig_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : fig_alloc(d, (size_t)n + 1);
    if (!s)
        return "";
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

double *fig_copy(fig_doc *d, const double *v, int n)
{
    double *c = fig_alloc(d, (size_t)(n > 0 ? n : 1) * sizeof *c);
    if (c && n > 0)
        memcpy(c, v, (size_t)n * sizeof *c);
    return c;
}

plot_series *fig_series(plot_panel *p)
{
    if (p->nseries == PLOT_MAX_SERIES)
        return NULL;
    plot_series *s = &p->series[p->nseries++];
    memset(s, 0, sizeof *s);
    s->marker = PLOT_NOMARK;
    return s;
}

int fig_begin(fig_doc *d, int npanels, const char *header, int digits, gt_error *e)
{
    memset(d, 0, sizeof *d);
    d->digits = digits;
    d->plot = fig_alloc(d, sizeof *d->plot);
    d->csvf = d->plot ? open_memstream(&d->csv, &d->csv_len) : NULL;
    if (!d->csvf) {
        fig_doc_free(d);
        return gt_fail(e, GT_EFAIL, "out of memory for the figure");
    }
    d->plot->npanels = npanels;
    fprintf(d->csvf, "%s\n", header);
    return GT_OK;
}

static void sep(fig_doc *d)
{
    if (d->col++ > 0)
        fputc(',', d->csvf);
}

void fig_csv_text(fig_doc *d, const char *s)
{
    sep(d);
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, d->csvf);
        return;
    }
    fputc('"', d->csvf);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', d->csvf);
        fputc(*s, d->csvf);
    }
    fputc('"', d->csvf);
}

void fig_csv_num(fig_doc *d, double v)
{
    sep(d);
    if (isnan(v))
        return;
    if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", d->csvf);
    else
        fprintf(d->csvf, "%.*g", d->digits, v);
}

void fig_csv_count(fig_doc *d, long long v)
{
    sep(d);
    fprintf(d->csvf, "%lld", v);
}

void fig_csv_end(fig_doc *d)
{
    fputc('\n', d->csvf);
    d->col = 0;
}

/* "a.bin, b.bin and c.bin"; more than FIG_NAMED: "a.bin … z.bin (13)" */
#define FIG_NAMED 8
static const char *names(fig_doc *d, const char *const *models, int n)
{
    if (n > FIG_NAMED)
        return fig_str(d, "%s … %s (%d)", models[0], models[n - 1], n);
    const char *s = n > 0 ? models[0] : "";
    for (int i = 1; i < n; i++)
        s = fig_str(d, "%s%s%s", s, i + 1 < n ? ", " : " and ", models[i]);
    return s;
}

const char *fig_caption(fig_doc *d, const char *own, const char *const *models, int n,
                        const fig_where *w)
{
    char steps[32];
    return fig_str(d, "%s. %s %s on %s (%s steps), layer %d%s%s.", own,
                   n == 1 ? "Model" : "Models", names(d, models, n), w->text,
                   report_commas(w->steps, steps, sizeof steps), w->layer,
                   w->what && *w->what ? "; " : "", w->what ? w->what : "");
}

int fig_end(fig_doc *d, gt_error *e)
{
    int bad = fclose(d->csvf) != 0;
    d->csvf = NULL;
    if (bad || d->failed) {
        fig_doc_free(d);
        return gt_fail(e, GT_EFAIL, "out of memory for the figure");
    }
    return GT_OK;
}

void fig_doc_free(fig_doc *d)
{
    if (d->csvf)
        fclose(d->csvf);
    free(d->csv);
    for (size_t i = 0; i < d->nowned; i++)
        free(d->owned[i]);
    free(d->owned);
    memset(d, 0, sizeof *d);
}

int fig_check_path(const char *path, gt_error *e)
{
    if (plot_format_of(path) < 0)
        return gt_fail(e, GT_EINPUT, "--figure %s: the file's name ends in .svg, .pdf or .png "
                       "(the format drawn)", path);
    int rc = file_can_create(path, e);
    if (rc)
        return rc;
    struct stat sb;
    char csv[4200];
    snprintf(csv, sizeof csv, "%s.csv", path);
    if (lstat(csv, &sb) == 0)
        return gt_fail(e, GT_EINPUT, "%s: the file exists; not overwritten (the figure's "
                       "numbers go there)", csv);
    return GT_OK;
}

int fig_write(const fig_doc *d, const char *path, gt_error *e)
{
    int rc = fig_check_path(path, e);
    char *data = NULL;
    size_t len = 0;
    if (rc == GT_OK)
        rc = plot_render(d->plot, (plot_format)plot_format_of(path), &data, &len, e);
    if (rc == GT_OK)
        rc = file_write_new(path, data, len, e);
    free(data);
    if (rc)
        return rc;
    char csv[4200];
    snprintf(csv, sizeof csv, "%s.csv", path);
    rc = file_write_new(csv, d->csv, d->csv_len, e);
    if (rc)
        unlink(path); /* the figure written a moment ago: not without its numbers */
    return rc;
}

int fig_write_new_in(const fig_doc *d, const char *dir, const char *base, char *out, size_t n,
                     gt_error *e)
{
    char *data = NULL;
    size_t len = 0;
    int rc = plot_render(d->plot, PLOT_SVG, &data, &len, e);
    if (rc)
        return rc;
    const gt_filepart part[2] = {{"", data, len}, {".csv", d->csv, d->csv_len}};
    rc = file_write_numbered(dir, base, ".svg", part, 2, out, n, e);
    free(data);
    return rc;
}
