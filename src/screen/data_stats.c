/* The report computed by a child process for the report's sheet (see data_stats.h): the child
 * computes it with report.h and sends the tables' text. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/loss.h"
#include "gatetui/report.h"
#include "screen/data_interv.h"
#include "screen/data_stats.h"
#include "screen/draw_surface.h"

int data_stats_init(gt_data_stats *sv, const gt_model *m, gt_trace *tr, const char *text_name,
                   gt_error *e)
{
    memset(sv, 0, sizeof *sv);
    sv->m = m;
    sv->tr = tr;
    sv->layers = m->layers;
    bgjob_init(&sv->job);
    snprintf(sv->text_name, sizeof sv->text_name, "%s", text_name);
    sv->text = calloc((size_t)m->layers, sizeof *sv->text);
    sv->raw = calloc((size_t)m->layers, sizeof *sv->raw);
    sv->bare = calloc((size_t)m->layers, sizeof *sv->bare);
    sv->ci_width = calloc((size_t)m->layers, sizeof *sv->ci_width);
    sv->wrap_at = calloc((size_t)m->layers, sizeof *sv->wrap_at);
    sv->bare_shown = calloc((size_t)m->layers, 1);
    sv->lines = calloc((size_t)m->layers, sizeof *sv->lines);
    sv->width = calloc((size_t)m->layers, sizeof *sv->width);
    sv->units = calloc((size_t)m->layers, sizeof *sv->units);
    sv->cols = calloc((size_t)m->layers, sizeof *sv->cols);
    sv->have_col = calloc((size_t)m->layers, 1);
    if (!sv->text || !sv->raw || !sv->bare || !sv->ci_width || !sv->wrap_at ||
        !sv->bare_shown || !sv->lines || !sv->width || !sv->units || !sv->cols ||
        !sv->have_col) {
        data_stats_free(sv);
        return gt_fail(e, GT_EFAIL, "out of memory for the report's tables");
    }
    return GT_OK;
}

/* ---- the child ---- */

/* What follows the tables' text, a 0 byte, the same without the intervals and a 0 byte in
 * the child's result: the column of the table that compares several models (a
 * gt_compare_col), this, then the H rows of the unit table (the child is a fork: the same
 * layout). */
typedef struct units_head {
    int hidden, ngates, carry, K;
    char gate_name[REPORT_MAX_GATES][4];
} units_head;

/* The compared column and the unit table after the text in f. */
static void write_units(FILE *f, const gt_report *r, const char *name)
{
    const int H = model_width(r->m, r->layer);
    units_head hd = {H, r->ngates, r->carry, r->K, {{0}}};
    for (int g = 0; g < r->ngates; g++)
        snprintf(hd.gate_name[g], sizeof hd.gate_name[g], "%s", r->gate[g].name);
    gt_compare_col col;
    compare_col(&col, r, name);
    fputc(0, f);
    fwrite(&col, sizeof col, 1, f);
    fwrite(&hd, sizeof hd, 1, f);
    fwrite(r->unit_table, sizeof *r->unit_table, (size_t)H, f);
}

typedef struct child_ctx {
    const gt_data_stats *sv;
    int layer;
} child_ctx;

static int child_main(gt_bgjob *job, void *ctx, char *why)
{
    const child_ctx *c = ctx;
    const gt_data_stats *sv = c->sv;
    gt_report_options o;
    report_options_init(&o);
    o.layer = c->layer;
    o.progress = bgjob_progress;
    o.progress_ctx = job;
    gt_report r;
    gt_error e = {0};
    char *buf = NULL;
    size_t n = 0;
    const gt_text *t = trace_text(sv->tr); /* as loaded: the edits are kept beside it */
    uint16_t *tok = t->tok;
    int rc = GT_OK;
    if (sv->m != t->model) {
        /* another model's vocabulary split the text: its tokens through this model's map,
         * in this child only (the screen's process copies nothing) */
        tok = malloc(t->steps * sizeof *tok);
        if (!tok)
            rc = gt_fail(&e, GT_EFAIL, "out of memory");
        for (size_t s = 0; tok && s < t->steps; s++)
            tok[s] = (uint16_t)trace_original_at(sv->tr, s);
    }
    if (rc == GT_OK)
        rc = report_compute(&r, sv->m, tok, t->steps, &o, &e);
    gt_loss base = {0}; /* the model without its interventions, over the same windows */
    if (rc == GT_OK && sv->iv && sv->iv->what[0] && r.loss.count)
        rc = loss_measure(&base, sv->iv->base, tok, t->steps, (size_t)o.window_len,
                          (size_t)o.windows, o.threads, &e);
    if (tok != t->tok)
        free(tok);
    if (rc == GT_OK) {
        /* the model by its name, as the header names it, so that several models' tables
         * side by side are not widened by long paths */
        gt_model named = *sv->m;
        named.path = (char *)sv->model_name; /* only read here */
        r.m = &named;
        if (sv->iv && sv->iv->what[0]) {
            r.interventions = sv->iv->what;
            r.loss_base = base;
        }
        FILE *f = open_memstream(&buf, &n);
        int bad = !f || report_print_text(f, &r, sv->text_name, &e);
        if (!bad) /* where the intervals do not fit */
            bad = fputc(0, f) == EOF || report_print_text_as(f, &r, sv->text_name, 0, &e);
        if (!bad && r.unit_table)
            write_units(f, &r, sv->model_name);
        if (f && fclose(f))
            bad = 1;
        if (bad)
            rc = gt_fail(&e, GT_EFAIL, "out of memory for the tables");
        report_free(&r);
    }
    if (rc == GT_OK)
        bgjob_write(job, buf, n);
    else
        snprintf(why, 256, "%.250s", e.msg);
    free(buf);
    return rc;
}

/* ---- the screen's side ---- */

static void start(gt_data_stats *sv, int layer)
{
    sv->error[0] = 0;
    child_ctx c = {sv, layer};
    if (bgjob_start(&sv->job, layer, child_main, &c))
        snprintf(sv->error, sizeof sv->error, "report: %.200s", sv->job.error);
}

void data_stats_cancel(gt_data_stats *sv)
{
    bgjob_cancel(&sv->job);
}

void data_stats_free(gt_data_stats *sv)
{
    bgjob_cancel(&sv->job);
    for (int k = 0; sv->text && k < sv->layers; k++)
        free(sv->text[k]);
    for (int k = 0; sv->raw && k < sv->layers; k++)
        free(sv->raw[k]);
    for (int k = 0; sv->bare && k < sv->layers; k++)
        free(sv->bare[k]);
    for (int k = 0; sv->units && k < sv->layers; k++)
        free(sv->units[k]);
    free(sv->text);
    free(sv->raw);
    free(sv->bare);
    free(sv->ci_width);
    free(sv->wrap_at);
    free(sv->bare_shown);
    free(sv->units);
    free(sv->lines);
    free(sv->width);
    free(sv->cols);
    free(sv->have_col);
    memset(sv, 0, sizeof *sv);
    bgjob_init(&sv->job);
}

void data_stats_forget(gt_data_stats *sv)
{
    bgjob_cancel(&sv->job);
    for (int k = 0; k < sv->layers; k++) {
        free(sv->text[k]);
        free(sv->raw[k]);
        free(sv->bare[k]);
        free(sv->units[k]);
        sv->text[k] = sv->raw[k] = sv->bare[k] = NULL;
        sv->units[k] = NULL;
        sv->have_col[k] = 0;
    }
    sv->error[0] = 0;
}

void data_stats_want(gt_data_stats *sv, int layer)
{
    if (layer < 0 || layer >= sv->layers || sv->text[layer])
        return;
    if (bgjob_busy(&sv->job) && sv->job.tag == layer)
        return;
    start(sv, layer);
}

/* The number of lines of t and the widest one's columns. */
static void measure(char *t, int *nlines, int *nwidth)
{
    int lines = 0, width = 0;
    for (char *p = t; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        int w = surf_width(p);
        width = w > width ? w : width;
        lines++;
        if (!nl)
            break;
        *nl = '\n';
        p = nl + 1;
    }
    *nlines = lines;
    *nwidth = width;
}

/* The unit table after the text's 0 byte, n bytes at p, becomes layer k's. */
static void take_units(gt_data_stats *sv, int k, const char *p, size_t n)
{
    units_head hd;
    const size_t H = (size_t)model_width(sv->m, k);
    if (n != sizeof hd + H * sizeof **sv->units)
        return;
    memcpy(&hd, p, sizeof hd);
    gt_unit_row *rows = malloc(H * sizeof *rows);
    if (!rows || hd.hidden != (int)H || hd.ngates > REPORT_MAX_GATES) {
        free(rows);
        return;
    }
    memcpy(rows, p + sizeof hd, H * sizeof *rows);
    sv->ngates = hd.ngates;
    sv->carry = hd.carry;
    sv->K = hd.K;
    memcpy(sv->gate_name, hd.gate_name, sizeof hd.gate_name);
    free(sv->units[k]);
    sv->units[k] = rows;
}

/* Line p (len bytes) onto f, broken where it is wider than at columns at its last space
 * that fits, the rest on lines of its own indented by four spaces (a word wider than that,
 * if any, is left whole); each line ended by a newline. */
static void wrap_line(FILE *f, const char *p, size_t len, int at)
{
    char head[1024];
    int indent = 0;
    do {
        size_t cut = 0;
        for (size_t i = 1; i <= len && i < sizeof head; i++) {
            if (i < len && (p[i] != ' ' || p[i - 1] == ' '))
                continue; /* the end of a word, or of the line */
            snprintf(head, sizeof head, "%.*s", (int)i, p);
            if (indent + surf_width(head) > at)
                break;
            cut = i;
        }
        if (!cut) /* a word wider than the sheet: whole */
            cut = len;
        fprintf(f, "%*s%.*s\n", indent, "", (int)cut, p);
        while (cut < len && p[cut] == ' ')
            cut++;
        p += cut;
        len -= cut;
        indent = 4;
    } while (len);
}

/* t (len bytes) with its lines wider than at columns broken (wrap_line; at 0: none), so
 * that the report's sheet shows every number whole (doc/screen.md, "The report's tables"); NULL
 * when out of memory. */
static char *wrapped(const char *t, size_t len, int at)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f)
        return NULL;
    const char *end = t + len;
    for (const char *p = t; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (at > 0)
            wrap_line(f, p, l, at);
        else
            fprintf(f, "%.*s\n", (int)l, p);
        p += l + 1;
    }
    if (fclose(f)) {
        free(out);
        return NULL;
    }
    return out;
}

/* The widest of the lines of t that differ from u's (the same number of lines): those that
 * hold the intervals. */
static int differing_width(const char *t, const char *u)
{
    int width = 0;
    while (*t && *u) {
        size_t a = strcspn(t, "\n"), b = strcspn(u, "\n");
        if (a != b || memcmp(t, u, a) != 0) {
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)a, t);
            int w = surf_width(line);
            width = w > width ? w : width;
        }
        t += a + (t[a] != 0);
        u += b + (u[b] != 0);
    }
    return width;
}

/* The tables and the same without the intervals (each up to a 0 byte) become layer k's
 * texts; the unit table after them, its rows. */
static void take_tables(gt_data_stats *sv, int k, const char *text, size_t all)
{
    int lines = 0, width = 0;
    const char *nul = memchr(text, 0, all);
    const char *nul2 = nul ? memchr(nul + 1, 0, all - (size_t)(nul + 1 - text)) : NULL;
    size_t len = nul ? (size_t)(nul - text) : all;
    if (nul2 && all - (size_t)(nul2 + 1 - text) >= sizeof *sv->cols) {
        size_t rest = all - (size_t)(nul2 + 1 - text);
        memcpy(&sv->cols[k], nul2 + 1, sizeof *sv->cols);
        sv->have_col[k] = 1;
        take_units(sv, k, nul2 + 1 + sizeof *sv->cols, rest - sizeof *sv->cols);
    }
    char *raw = malloc(len + 1), *t = raw ? wrapped(text, len, 0) : NULL;
    char *bare = nul2 ? strdup(nul + 1) : NULL;
    if (!t || (nul2 && !bare)) {
        free(raw);
        free(t);
        free(bare);
        snprintf(sv->error, sizeof sv->error, "report of layer %d: out of memory", k);
        return;
    }
    memcpy(raw, text, len);
    raw[len] = 0;
    free(sv->raw[k]);
    free(sv->bare[k]);
    sv->raw[k] = raw;
    sv->bare[k] = bare;
    sv->ci_width[k] = bare ? differing_width(raw, bare) : 0;
    sv->wrap_at[k] = 0;
    sv->bare_shown[k] = 0;
    measure(t, &lines, &width);
    free(sv->text[k]);
    sv->text[k] = t;
    sv->lines[k] = lines;
    sv->width[k] = width;
}

void data_stats_fit(gt_data_stats *sv, int layer, int width)
{
    if (layer < 0 || layer >= sv->layers || !sv->raw[layer] || sv->wrap_at[layer] == width)
        return;
    const int bare = sv->bare[layer] && sv->ci_width[layer] > width;
    const char *src = bare ? sv->bare[layer] : sv->raw[layer];
    char *t = wrapped(src, strlen(src), width);
    if (!t) /* out of memory: the lines as they were */
        return;
    free(sv->text[layer]);
    sv->text[layer] = t;
    sv->wrap_at[layer] = width;
    sv->bare_shown[layer] = (char)bare;
    measure(t, &sv->lines[layer], &sv->width[layer]);
}

int data_stats_ci_need(const gt_data_stats *sv, int layer)
{
    return layer >= 0 && layer < sv->layers && sv->text[layer] && sv->bare_shown[layer]
               ? sv->ci_width[layer]
               : 0;
}

const char *data_stats_tables(const gt_data_stats *sv, int layer, int *lines, int *width)
{
    *lines = layer >= 0 && layer < sv->layers && sv->text[layer] ? sv->lines[layer] : 0;
    *width = layer >= 0 && layer < sv->layers && sv->text[layer] ? sv->width[layer] : 0;
    return layer >= 0 && layer < sv->layers ? sv->text[layer] : NULL;
}

int data_stats_step(const gt_data_stats *sv, int layer, int from, size_t *step, int *line)
{
    int n, width;
    const char *p = data_stats_tables(sv, layer, &n, &width);
    char buf[256];
    for (int i = 0; p && *p; i++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (i >= from && len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = 0;
            if (report_line_step(buf, step) == 0) {
                if (line)
                    *line = i;
                return 0;
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    return -1;
}

const gt_unit_row *data_stats_units(const gt_data_stats *sv, int layer)
{
    return layer >= 0 && layer < sv->layers && sv->units ? sv->units[layer] : NULL;
}

const gt_compare_col *data_stats_col(const gt_data_stats *sv, int layer)
{
    return layer >= 0 && layer < sv->layers && sv->have_col && sv->have_col[layer]
               ? &sv->cols[layer] : NULL;
}

int data_stats_tick(gt_data_stats *sv)
{
    if (!bgjob_busy(&sv->job))
        return 0;
    if (bgjob_tick(&sv->job)) {
        int k = sv->job.tag;
        if (sv->job.result)
            take_tables(sv, k, sv->job.result, sv->job.result_len);
        else
            snprintf(sv->error, sizeof sv->error, "report of layer %d: %.200s", k,
                     sv->job.error);
        bgjob_cancel(&sv->job);
    }
    return 1;
}

int data_stats_busy(const gt_data_stats *sv)
{
    return bgjob_busy(&sv->job);
}

double data_stats_progress(const gt_data_stats *sv, int *layer)
{
    if (layer)
        *layer = sv->job.tag;
    return sv->job.permille / 1000.0;
}
