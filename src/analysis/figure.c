/* The figure as an HTML page (see figure.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figure.h"
#include "gatetui/fileio.h"
#include "analysis/steptext.h"
#include "gatetui/text.h"

/* The scale's levels: -LEVELS .. LEVELS, each a CSS class. */
#define LEVELS 10

/* Where value v of signal s falls on the scale, from -1 to 1. */
static double figure_scale(const gt_model *m, int s, double v)
{
    if (signals_tanh_shown(m, s))
        return tanh(v);
    if (signals_is_gate(m, s))
        return 2 * v - 1;
    return v;
}

static int level_of(double x)
{
    if (isnan(x))
        return 0;
    long k = lround(x * LEVELS);
    return (int)(k < -LEVELS ? -LEVELS : k > LEVELS ? LEVELS : k);
}

/* The colour of level k: white to blue (negative) or to red (positive). */
static void level_colour(int k, char *buf, size_t n)
{
    static const int blue[3] = {33, 102, 172}, red[3] = {178, 24, 43};
    const int *end = k < 0 ? blue : red;
    double t = fabs((double)k) / LEVELS;
    int c[3];
    for (int i = 0; i < 3; i++)
        c[i] = (int)lround(255 + t * (end[i] - 255));
    snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void put_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
    }
}

/* ", edited, was 'c'" for the text's own token tok, in a title: a newline, a tab or another
 * control character by its name or number. */
static void put_was(FILE *f, const gt_model *m, int tok)
{
    const uint32_t cp = m->words ? (tok == m->tok_eos ? '\n' : 'w') : m->vocab_cp[tok];
    if (m->words && tok == m->tok_eos)
        fputs(", edited, was &lt;eos&gt;", f);
    else if (cp == '\n' || cp == '\t')
        fprintf(f, ", edited, was a %s", cp == '\n' ? "newline" : "tab");
    else if (cp < 0x20 || cp == 0x7f || (m->vocab_bytes && cp >= 0x80))
        fprintf(f, ", edited, was U+%04X", (unsigned)cp);
    else {
        char was[8];
        int n;
        const char *t = steptext_token(m, tok, was, &n);
        fputs(", edited, was '", f);
        put_escaped(f, t, (size_t)n);
        fputc('\'', f);
    }
}

static void head(FILE *f, const gt_figure *fg, const uint16_t *tok)
{
    const gt_model *m = fg->m;
    const char *sig = signals_name(m, fg->signal);
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>", f);
    if (fg->score)
        fprintf(f, "component %d (%s), layer %d: ", fg->component, sig, fg->layer);
    else
        fprintf(f, "unit %d (%s), layer %d: ", fg->unit, sig, fg->layer);
    put_escaped(f, fg->text_name, strlen(fg->text_name));
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
          "#text{font-family:monospace;font-size:15px;line-height:1.6;white-space:pre-wrap;"
          "overflow-wrap:break-word}\n"
          "#text span{padding:1px 0}\n"
          ".legend span{display:inline-block;width:3.2em;text-align:center;"
          "font-family:monospace;font-size:11px}\n",
          f);
    for (int k = -LEVELS; k <= LEVELS; k++) {
        char col[16];
        level_colour(k, col, sizeof col);
        fprintf(f, ".%c%d{background:%s%s}\n", k < 0 ? 'n' : 'p', abs(k), col,
                abs(k) >= 7 ? ";color:#fff" : "");
    }
    fputs(".ed{outline:2px solid #000;outline-offset:-1px;font-weight:bold}\n", f);
    fputs("</style></head><body>\n<h3>", f);
    if (fg->score)
        fprintf(f, "%s, component %d of signal %s, layer %d", model_kind(m),
                fg->component, sig, fg->layer);
    else
        fprintf(f, "%s, unit %d, signal %s, layer %d", model_kind(m), fg->unit, sig,
                fg->layer);
    fputs("</h3>\n<p>", f);
    char tanh_of[32]; /* "tanh c": a signal without bounds coloured by its tanh */
    snprintf(tanh_of, sizeof tanh_of, "tanh %s", sig);
    put_escaped(f, fg->model_name, strlen(fg->model_name));
    fputs(" on ", f);
    put_escaped(f, fg->text_name, strlen(fg->text_name));
    const char *unit = model_step_noun(m);
    fprintf(f, ", steps %zu to %zu, each %s's background by the value after reading "
               "it (%s). Hover over a %s for its value.</p>\n",
            fg->from, fg->to, unit,
            fg->score                             ? "the score over its largest |score|"
            : signals_tanh_shown(m, fg->signal)  ? tanh_of
            : signals_is_gate(m, fg->signal)      ? "2v - 1: 0.5 is white"
                                                  : "the value",
            unit);
    size_t edited = 0;
    for (size_t s = fg->from; fg->orig && s <= fg->to; s++)
        edited += fg->orig[s] != tok[s];
    if (edited)
        fprintf(f, "<p>The text as edited: %zu %s%s differ%s from the text's own, each "
                   "outlined (its title says what it was).</p>\n",
                edited, unit, edited == 1 ? "" : "s", edited == 1 ? "s" : "");
    fputs("<p class=\"legend\">", f);
    for (int k = -LEVELS; k <= LEVELS; k += 2)
        fprintf(f, "<span class=\"%c%d\">%+.1f</span>", k < 0 ? 'n' : 'p', abs(k),
                (double)k / LEVELS);
    fputs("</p>\n<div id=\"text\">", f);
}

/* Writes the page for tok (the text's steps; to < n) to f; values are the unit's, for
 * steps from..to. */
static int figure_write(FILE *f, const gt_figure *fg, const uint16_t *tok, const float *values)
{
    const gt_model *m = fg->m;
    const char *sig = signals_name(m, fg->signal);
    head(f, fg, tok);
    for (size_t s = fg->from; s <= fg->to; s++) {
        double v = fg->score ? fg->score[s] : values[s - fg->from];
        int k = level_of(fg->score ? v / fg->scale : figure_scale(m, fg->signal, v));
        char ch[8];
        int n;
        const char *t = steptext_token(m, tok[s], ch, &n);
        /* a word model's tokens: words apart by a space, <eos> the end of a line */
        uint32_t cp = m->words ? (tok[s] == m->tok_eos ? '\n' : 'w') : m->vocab_cp[tok[s]];
        if (s > fg->from && text_token_gap(m, tok[s - 1], tok[s]))
            fputc(' ', f);
        const int ed = fg->orig && fg->orig[s] != tok[s];
        fprintf(f, "<span class=\"%c%d%s\" title=\"step %zu: %s %.4f", k < 0 ? 'n' : 'p',
                abs(k), ed ? " ed" : "", s, sig, v);
        if (ed) /* what the text had there */
            put_was(f, m, fg->orig[s]);
        fputs("\">", f);
        if (cp == '\n')
            fputs("\xe2\x86\xb5</span>\n", f); /* a return sign, then the line ends */
        else if (cp == '\t')
            fputs("\xe2\x87\xa5</span>", f);
        else if (cp < 0x20 || cp == 0x7f || (m->vocab_bytes && cp >= 0x80))
            fputs("\xef\xbf\xbd</span>", f); /* U+FFFD */
        else {
            put_escaped(f, t, (size_t)n);
            fputs("</span>", f);
        }
    }
    fputs("</div>\n</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}

int figure_page(char **page, size_t *len, const gt_figure *fg, const uint16_t *tok,
                const float *values, gt_error *e)
{
    FILE *f = open_memstream(page, len);
    if (!f)
        return gt_fail(e, GT_EFAIL, "out of memory for the page");
    int bad = figure_write(f, fg, tok, values);
    if (fclose(f) || bad) {
        free(*page);
        *page = NULL;
        return gt_fail(e, GT_EFAIL, "out of memory for the page");
    }
    return GT_OK;
}

int figure_html(const char *path, FILE *out, const gt_figure *fg, const uint16_t *tok,
                size_t n, const gt_pass_options *o, gt_error *e)
{
    if (fg->from > fg->to || fg->to >= n)
        return gt_fail(e, GT_EINPUT, "steps %zu to %zu: outside the text (steps 0..%zu)",
                       fg->from, fg->to, n - 1);
    float *v = malloc((fg->to - fg->from + 1) * sizeof(float));
    if (!v)
        return gt_fail(e, GT_EFAIL, "out of memory for %zu values", fg->to - fg->from + 1);
    int rc = fg->score ? GT_OK
                       : signals_collect(fg->m, tok, o, fg->signal, fg->unit, fg->from, fg->to,
                                         v, e);
    char *page = NULL;
    size_t len = 0;
    if (rc == GT_OK)
        rc = figure_page(&page, &len, fg, tok, v, e);
    if (rc == GT_OK && path)
        rc = file_write_new(path, page, len, e);
    else if (rc == GT_OK && (fwrite(page, 1, len, out) != len || fflush(out) != 0))
        rc = gt_fail(e, GT_EFAIL, "error writing the page: %s", strerror(errno));
    free(page);
    free(v);
    return rc;
}
