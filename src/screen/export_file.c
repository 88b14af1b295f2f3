/* Frames, edited texts, their edits' lists and figures written as files (see
 * export_file.h), new files only (fileio.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figure.h"
#include "gatetui/fileio.h"
#include "gatetui/signals.h"
#include "gatetui/trace.h"
#include "gatetui/utf8.h"
#include "screen/edtext.h"
#include "screen/export_file.h"

static int frame_text(const gt_surface *s, char **buf, size_t *len, gt_error *e)
{
    FILE *f = open_memstream(buf, len);
    if (!f)
        return gt_fail(e, GT_EFAIL, "out of memory for the frame");
    int bad = surf_write(s, f);
    if (fclose(f) || bad) {
        free(*buf);
        return gt_fail(e, GT_EFAIL, "out of memory for the frame");
    }
    return GT_OK;
}

int export_frame_to_file(const gt_surface *s, const char *path, gt_error *e)
{
    char *data;
    size_t n;
    int rc = frame_text(s, &data, &n, e);
    if (rc)
        return rc;
    if (strcmp(path, "-") == 0) {
        rc = fwrite(data, 1, n, stdout) == n && fflush(stdout) == 0
                 ? GT_OK
                 : gt_fail(e, GT_EFAIL, "error writing the frame: %s", strerror(errno));
        free(data);
        return rc;
    }
    rc = file_write_new(path, data, n, e);
    free(data);
    return rc;
}

void export_stem(const char *text_name, char *stem, size_t sn)
{
    size_t k = 0;
    const char *b = strrchr(text_name, '/');
    b = b ? b + 1 : text_name;
    const char *dot = strrchr(b, '.');
    size_t blen = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    for (size_t i = 0; i < blen && k + 1 < sn; i++) {
        unsigned char ch = (unsigned char)b[i];
        stem[k++] = ch <= ' ' || ch == '/' || ch == 0x7F ? '_' : (char)ch;
    }
    stem[k] = 0;
    if (!k || stem[0] == '.')
        snprintf(stem, sn, "frame");
}

int export_new_in_cwd(const char *data, size_t len, const char *base, const char *ext,
                            char *out, size_t n, gt_error *e)
{
    const gt_filepart part = {"", data, len};
    return file_write_numbered(".", base, ext, &part, 1, out, n, e);
}

int export_to_cwd(const gt_surface *s, const char *text_name, size_t step, int edited,
                  char *out, size_t n, gt_error *e)
{
    char *data;
    size_t len;
    int rc = frame_text(s, &data, &len, e);
    if (rc)
        return rc;
    char stem[128], base[200];
    export_stem(text_name, stem, sizeof stem);
    snprintf(base, sizeof base, "%s-step%zu%s", stem, step, edited ? "-edited" : "");
    rc = export_new_in_cwd(data, len, base, ".txt", out, n, e);
    free(data);
    return rc;
}

int export_text_to_cwd(const gt_trace *tr, const char *text_name, char *out, size_t n,
                       gt_error *e)
{
    gt_edtext x;
    int rc = edtext_open(&x, tr, e);
    if (rc)
        return rc;
    char *data;
    size_t len;
    FILE *f = open_memstream(&data, &len);
    int bad = !f || edtext_write(&x, f);
    edtext_close(&x);
    if (f && fclose(f))
        bad = 1;
    if (bad) {
        if (f)
            free(data);
        return gt_fail(e, GT_EFAIL, "out of memory for the text");
    }
    /* the text's own extension, after "-edited" */
    char stem[128], base[200];
    export_stem(text_name, stem, sizeof stem);
    const char *b = strrchr(text_name, '/');
    b = b ? b + 1 : text_name;
    const char *dot = strrchr(b, '.');
    char ext[32] = ".txt";
    if (dot && dot != b && strlen(dot) < sizeof ext && !strpbrk(dot, " /"))
        snprintf(ext, sizeof ext, "%s", dot);
    snprintf(base, sizeof base, "%s-edited", stem);
    rc = export_new_in_cwd(data, len, base, ext, out, n, e);
    free(data);
    return rc;
}

int export_figure_to_cwd(gt_view *v, char *out, size_t n, size_t *from, size_t *to,
                         gt_error *e)
{
    const gt_model *m = v->m;
    const int sig = v->ui->heat == HEAT_UNIT && view_heat_signal(m, v->ui->heat_pos) >= 0
                        ? view_heat_signal(m, v->ui->heat_pos)
                        : signals_h(m);
    const size_t T = v->steps, half = (trace_window_len(v->tr) - 1) / 2, t = v->t;
    const size_t a = t > half ? t - half : 0, b = t + half < T ? t + half : T - 1;
    int rc = trace_load(v->tr, a, b + 1, e);
    if (rc)
        return rc;
    uint16_t *tok = malloc((b + 1) * sizeof *tok), *orig = malloc((b + 1) * sizeof *orig);
    float *val = malloc((b - a + 1) * sizeof *val);
    if (!tok || !orig || !val) {
        free(tok);
        free(orig);
        free(val);
        return gt_fail(e, GT_EFAIL, "out of memory for the figure");
    }
    trace_read(v->tr, a, b - a + 1, tok + a); /* the text as edited; the page reads a..b */
    int edited = 0;
    for (size_t s = a; s <= b; s++) { /* and the text's own, where it differs */
        orig[s] = (uint16_t)trace_original_at(v->tr, s);
        edited |= orig[s] != tok[s];
    }
    const size_t H = (size_t)model_width(m, v->layer), u = (size_t)v->unit;
    for (size_t s = a; s <= b; s++)
        val[s - a] = sig < m->gates ? trace_gates(v->tr, s, v->layer)[(size_t)sig * H + u]
                     : m->cell->has_c && sig == m->gates ? trace_c(v->tr, s, v->layer)[u]
                                                         : trace_h(v->tr, s, v->layer)[u];
    const char *mb = v->name; /* the model's name, not the screen's "[k/n]" */
    gt_figure fg = {m, mb, v->text_name, v->layer, v->unit, sig, a, b, -1, NULL, 1,
                    edited ? orig : NULL};
    char *page = NULL, stem[128], mstem[128], base[300];
    size_t len = 0;
    rc = figure_page(&page, &len, &fg, tok, val, e);
    free(tok);
    free(orig);
    free(val);
    if (rc)
        return rc;
    export_stem(v->text_name, stem, sizeof stem);
    export_stem(mb, mstem, sizeof mstem);
    snprintf(base, sizeof base, "%s-%s-unit%d-%s%s", stem, mstem, v->unit, signals_name(m, sig),
             edited ? "-edited" : "");
    rc = export_new_in_cwd(page, len, base, ".html", out, n, e);
    free(page);
    *from = a;
    *to = b;
    return rc;
}

/* A token as the edits' list writes it (a word model's: its word, <eos> as itself). */
static void put_token(FILE *f, const gt_model *m, int tok)
{
    if (m->words) {
        fputs(m->vocab_word[tok], f);
        return;
    }
    const uint32_t cp = m->vocab_cp[tok];
    if (cp == '\n' || cp == '\t' || cp == '\\')
        fprintf(f, "\\%c", cp == '\n' ? 'n' : cp == '\t' ? 't' : '\\');
    else if (cp < 0x20 || cp == 0x7F || (m->vocab_bytes && cp >= 0x80))
        fprintf(f, "\\x%02X", (unsigned)cp);
    else {
        char u[8];
        fwrite(u, 1, (size_t)utf8_encode(cp, u), f);
    }
}

int export_edits_to_cwd(const gt_trace *tr, const char *text_name, const char *written,
                        char *out, size_t n, gt_error *e)
{
    char *data;
    size_t len;
    FILE *f = open_memstream(&data, &len);
    if (!f)
        return gt_fail(e, GT_EFAIL, "out of memory for the edits");
    const gt_model *m = trace_model(tr);
    const gt_text *t = trace_text(tr);
    /* a word model's offsets are in its tokens joined, not in the file (doc/usage.md,
       "Edits: --edit and --edits") */
    fprintf(f, "# the edits of %s written to %s, in the order they were made:\n"
               "# step\tbyte offset in %s%s\tbefore\tafter\n", text_name, written, text_name,
            m->words ? "'s tokens joined by single spaces (<eos> a newline)" : "");
    for (size_t i = 0; i < trace_edit_count(tr); i++) {
        const gt_edit *ed = trace_edit_at(tr, i);
        fprintf(f, "%zu\t%zu\t", ed->step, text_step_offset(t, ed->step));
        put_token(f, m, ed->old_tok);
        fputc('\t', f);
        put_token(f, m, ed->new_tok);
        fputc('\n', f);
    }
    if (fclose(f)) {
        free(data);
        return gt_fail(e, GT_EFAIL, "out of memory for the edits");
    }
    char base[300];
    snprintf(base, sizeof base, "%s", written);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = 0;
    int rc = export_new_in_cwd(data, len, base, ".edits.txt", out, n, e);
    free(data);
    return rc;
}
