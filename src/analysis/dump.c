/* CSV output of a run's values, for pandas or a spreadsheet. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/dump.h"
#include "gatetui/run.h"
#include "gatetui/signals.h"
#include "gatetui/utf8.h"

/* A word model's token as a CSV field (RFC 4180) in buf (>= 2 * its length + 3), "<eos>"
 * as itself. */
static void dump_word_field(const gt_model *m, int tok, char *buf)
{
    const char *w = m->vocab_word[tok];
    if (!strpbrk(w, ",\"\r\n")) {
        strcpy(buf, w);
        return;
    }
    size_t k = 0;
    buf[k++] = '"';
    for (; *w; w++) {
        if (*w == '"')
            buf[k++] = '"';
        buf[k++] = *w;
    }
    buf[k++] = '"';
    buf[k] = 0;
}

/* The character of token tok as a CSV field (RFC 4180), NUL-terminated in buf (>= 16; a
 * word model's: DUMP_FIELD(m)). */
static void dump_char_field(const gt_model *m, int tok, char *buf)
{
    if (m->words) {
        dump_word_field(m, tok, buf);
        return;
    }
    uint32_t cp = m->vocab_cp[tok];
    char u[8];
    int n;
    if (m->vocab_bytes && cp >= 0x80) {
        snprintf(buf, 16, "\\x%02X", (unsigned)cp);
        return;
    }
    n = utf8_encode(cp, u);
    if (cp == ',' || cp == '"' || cp == '\r' || cp == '\n') {
        if (cp == '"')
            strcpy(buf, "\"\"\"\"");
        else
            snprintf(buf, 16, "\"%.*s\"", n, u);
    } else {
        memcpy(buf, u, (size_t)n);
        buf[n] = 0;
    }
}

static int write_error(FILE *out, gt_error *e)
{
    if (fflush(out) == 0 && !ferror(out))
        return GT_OK;
    return gt_fail(e, GT_EFAIL, "error writing the output: %s", strerror(errno));
}

int dump_values(FILE *out, const gt_model *m, const gt_text *t, int layer, size_t from,
                size_t to, gt_error *e)
{
    gt_run r;
    int rc = run_init(&r, m, e);
    if (rc)
        return rc;
    /* the cell's signals (gatetui/cell.h): i,f,g,o,c,h or r,z,n,h or a,h */
    const int ns = signals_count(m);
    fprintf(out, "step,%s,layer,unit", model_step_abbr(m));
    for (int q = 0; q < ns; q++)
        fprintf(out, ",%s", signals_name(m, q));
    fputc('\n', out);
    int k0 = layer < 0 ? 0 : layer, k1 = layer < 0 ? m->layers - 1 : layer;
    if (to >= t->steps)
        to = t->steps - 1;
    size_t longest = 16; /* a field's room: a word model's longest token, quoted */
    for (int v = 0; m->words && v < m->vocab; v++)
        if (2 * (size_t)m->vocab_len[v] + 3 > longest)
            longest = 2 * (size_t)m->vocab_len[v] + 3;
    char *ch = malloc(longest), *line = malloc(longest + 64 + SIGNALS_MAX * 24);
    if (!ch || !line) {
        free(ch);
        free(line);
        run_free(&r);
        return gt_fail(e, GT_EFAIL, "out of memory");
    }
    for (size_t s = 0; s <= to && !ferror(out); s++) {
        run_step_layers(&r, t->tok[s], k1);
        if ((rc = run_check_finite(&r, k1, s, e)))
            break;
        if (s < from)
            continue;
        dump_char_field(m, t->tok[s], ch);
        for (int k = k0; k <= k1; k++) {
            const int H = model_width(m, k);
            const float *sig[SIGNALS_MAX];
            for (int q = 0; q < ns; q++)
                sig[q] = signals_of(&r, k, q);
            for (int j = 0; j < H; j++) {
                const size_t cap = longest + 64 + SIGNALS_MAX * 24;
                int n = snprintf(line, cap, "%zu,%s,%d,%d", s, ch, k, j);
                for (int q = 0; q < ns; q++)
                    n += snprintf(line + n, cap - (size_t)n, ",%.9g", sig[q][j]);
                line[n++] = '\n';
                fwrite(line, 1, (size_t)n, out);
            }
        }
    }
    free(ch);
    free(line);
    run_free(&r);
    return rc ? rc : write_error(out, e);
}

int dump_probs(FILE *out, const gt_model *m, const gt_text *t, size_t from, size_t to,
               gt_error *e)
{
    if (!m->has_readout)
        return gt_fail(e, GT_EINPUT, "%s: the model has no readout, so no probabilities", m->path);
    gt_run r;
    int rc = run_init(&r, m, e);
    if (rc)
        return rc;
    float *p = malloc((size_t)m->vocab * sizeof *p);
    if (!p) {
        run_free(&r);
        return gt_fail(e, GT_EFAIL, "out of memory");
    }
    fputs("step,token,p\n", out);
    if (to >= t->steps)
        to = t->steps - 1;
    for (size_t s = 0; s <= to && !ferror(out); s++) {
        run_step(&r, t->tok[s]);
        if ((rc = run_check_finite(&r, m->layers - 1, s, e)))
            break;
        if (s < from)
            continue;
        run_probs(&r, p);
        if (!run_probs_finite(m, p)) {
            rc = run_readout_overflow(m, s, e);
            break;
        }
        for (int v = 0; v < m->vocab; v++)
            fprintf(out, "%zu,%d,%.9g\n", s, v, p[v]);
    }
    free(p);
    run_free(&r);
    return rc ? rc : write_error(out, e);
}
