/* The unit figure (kinds.h; doc/figures.md): one unit's signal along a stretch of the text,
 * one line per model, with the text's characters beneath the steps when the stretch is
 * short enough to read them (FIG_UNIT_TEXT steps). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/steptext.h"
#include "figure/figdoc.h"

#define FIG_UNIT_TEXT 120   /* the most steps whose characters are written beneath */
#define FIG_UNIT_WORDS 24   /* a word model's: the most steps whose tokens are (doc/usage.md) */
#define FIG_UNIT_WIDTH 900.0
#define DUMP_DIGITS 9       /* the dump's, whose values these are (doc/usage.md, "--dump") */

/* Step s's character as the figure writes it beneath (a newline ↵, a tab ⇥, a space
 * nothing, another control character ?), or as its CSV field has it (raw); a word model's
 * token is its word, <eos> a newline (steptext_token). */
static const char *char_of(fig_doc *d, const fig_unit_span *u, size_t s, int shown)
{
    char c[8] = {0};
    int len;
    const char *t = steptext_token(u->m, u->tok[s], c, &len);
    if (!shown)
        return fig_str(d, "%.*s", len, t);
    if (len == 1 && t[0] == '\n')
        return "↵";
    if (len == 1 && t[0] == '\t')
        return "⇥";
    if (len == 1 && t[0] == ' ')
        return NULL;
    return (unsigned char)t[0] < 0x20 || t[0] == 0x7f ? "?" : fig_str(d, "%.*s", len, t);
}

static void one_model(fig_doc *d, plot_panel *p, const fig_signal *m, const fig_unit_span *u,
                      int i, int n)
{
    const size_t N = u->to - u->from + 1;
    double *v = fig_alloc(d, 2 * N * sizeof *v);
    plot_series *s = fig_series(p);
    if (!v || !s)
        return;
    for (size_t t = 0; t < N; t++) {
        v[t] = (double)u->from + (double)t;
        v[N + t] = m->v[t];
        fig_csv_text(d, m->model);
        fig_csv_count(d, (long long)(u->from + t));
        fig_csv_text(d, char_of(d, u, u->from + t, 0));
        fig_csv_num(d, v[N + t]);
        fig_csv_end(d);
    }
    *s = (plot_series){.label = fig_str(d, "%s", m->model), .line = 1, /* one model too */
                       .colour = fig_colour(i), .dash = i % PLOT_DASHES, .marker = fig_marker(i),
                       .mark_every = n > 1 ? (int)(N / 12) + 1 : 0, .n = (int)N, .x = v,
                       .y = v + N};
}

int fig_unit(fig_doc *d, const fig_signal *m, int n, const fig_unit_span *u,
             const fig_where *w, gt_error *e)
{
    int rc = fig_begin(d, 1, w->words ? "model,step,token,value" : "model,step,char,value",
                       DUMP_DIGITS, e);
    if (rc)
        return rc;
    plot_figure *f = d->plot;
    f->width = FIG_UNIT_WIDTH;
    plot_panel *p = &f->panel[0];
    const size_t N = u->to - u->from + 1;
    p->x = (plot_axis){.label = "step", .integer = 1, .lo = (double)u->from - 0.5,
                       .hi = (double)u->to + 0.5};
    p->y = (plot_axis){.label = fig_str(d, "unit %d's %s", u->unit, u->signal)};
    const char *names[FIG_MAX_MODELS];
    n = n < FIG_MAX_MODELS ? n : FIG_MAX_MODELS;
    for (int i = 0; i < n; i++) {
        names[i] = m[i].model;
        one_model(d, p, &m[i], u, i, n);
    }
    const int most = w->words ? FIG_UNIT_WORDS : FIG_UNIT_TEXT;
    const char **text = N <= (size_t)most ? fig_alloc(d, N * sizeof *text) : NULL;
    for (size_t t = 0; text && t < N; t++)
        text[t] = char_of(d, u, u->from + t, 1);
    p->text = text;
    p->text_x0 = (double)u->from;
    p->ntext = text ? (int)N : 0;
    char a[32], b[32];
    const char *own = fig_str(d, "Unit %d's %s at steps %s to %s%s", u->unit, u->signal,
                              report_commas(u->from, a, sizeof a),
                              report_commas(u->to, b, sizeof b),
                              text ? ", the text beneath"
                                   : fig_str(d, " (the text is written beneath stretches of "
                                                "%d steps or fewer)", most));
    f->caption = fig_caption(d, own, names, n, w);
    return fig_end(d, e);
}
