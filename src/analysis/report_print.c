/* Printing the report: aligned tables, or the JSON object of doc/measures.md, "The report"
 * (built with jansson). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "analysis/unittable.h"
#include "gatetui/fileio.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"

static const char *gate_label(const char *name)
{
    static const char *const labels[][2] = {{"i", "input i"}, {"f", "forget f"},
                                            {"o", "output o"}, {"r", "reset r"},
                                            {"z", "update z"}};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (strcmp(labels[i][0], name) == 0)
            return labels[i][1];
    return name;
}

/* A ratio of the decay table: three decimals, more digits as it gets small. */
static const char *ratio(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (v >= 0.01 || v == 0)
        snprintf(buf, len, "%.3f", v);
    else if (v >= 0.001)
        snprintf(buf, len, "%.4f", v);
    else
        snprintf(buf, len, "%.2e", v);
    return buf;
}

static const char *halflife(double v, int K, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "> %d", K);
    else
        snprintf(buf, len, "%.1f", v);
    return buf;
}

static const char *unit_hl(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, "inf");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

/* The readout's loss over the windows, and the warning when it is no better than chance;
 * with interventions, its change against the model without them. */
static void print_loss(FILE *f, const gt_model *m, const gt_loss *l, const gt_loss *base)
{
    char a[48], w[400];
    if (!l->count && m->has_readout) /* a window of 2 or more: the text has one step */
        fprintf(f, "Readout loss: none (one step: no next %s to predict)\n\n", model_step_noun(m));
    else if (!l->count)
        fprintf(f, "Readout loss: none (the model has no readout)\n\n");
    if (!l->count)
        return;
    fprintf(f, "Readout loss: %.4f nats = %.4f bits per %s over %s\n(a uniform guess: %.2f "
               "bits)\n",
            l->nats, loss_bits(l), model_step_noun(m),
            report_count(l->count, "prediction", a, sizeof a), l->uniform / log(2.0));
    if (base && base->count)
        fprintf(f, "  %+.4f nats = %+.4f bits per %s against the model without "
                   "interventions (%.4f bits)\n",
                l->nats - base->nats, loss_bits(l) - loss_bits(base), model_step_noun(m),
                loss_bits(base));
    if (loss_suspect(l) && !(base && base->count)) { /* interventions may well do that */
        loss_warning(m, l, w, sizeof w);
        fprintf(f, "warning: %s\n", w);
    }
    fputc('\n', f);
}

/* The report's heading: the model, the text and its windows, the interventions, the loss. */
static void print_heading(FILE *f, const gt_report *r, const char *text_name)
{
    const gt_model *m = r->m;
    char a[48], b[48], c[48], w[256], mp[1024], tp[1024];
    const int H = model_width(m, r->layer);
    text_name = utf8_printable(tp, sizeof tp, text_name);
    fprintf(f, "%s: %s, %d layer%s, H = %s, V = %s, %s parameters\n",
            utf8_printable(mp, sizeof mp, m->path), model_kind(m), m->layers,
            m->layers == 1 ? "" : "s", model_widths(m, w, sizeof w),
            report_commas((size_t)m->vocab, c, sizeof c),
            report_commas((size_t)m->params, a, sizeof a));
    const char *unit = model_step_noun(m);
    report_count(r->window_len, unit, a, sizeof a);
    if (r->full_windows == r->windows)
        fprintf(f, "%s: layer %d, %zu window%s of %s from zero state", text_name, r->layer,
                r->windows, r->windows == 1 ? "" : "s", a);
    else if (r->windows == 1)
        fprintf(f, "%s: layer %d, the whole text as one window from zero state (shorter than "
                "%s)", text_name, r->layer, a);
    else
        fprintf(f, "%s: layer %d, %zu windows of %s from zero state, the last one %zu",
                text_name, r->layer, r->windows, a,
                r->positions - r->full_windows * r->window_len);
    fprintf(f, "\n%s x %s = %s per %s\n", report_count(r->positions, "position", a, sizeof a),
            report_count((size_t)H, "unit", b, sizeof b),
            report_count(r->positions * (size_t)H, "value", c, sizeof c),
            r->ngates ? "gate" : "signal");
    if (r->interventions && *r->interventions)
        fprintf(f, "interventions: %s\n", r->interventions);
    print_loss(f, m, &r->loss, &r->loss_base);
}

/* A plain RNN: no gate tables (nothing to say per unit or by character either), the
 * saturation of h; a paragraph for each of the gated cells' (several models' columns line
 * up). */
static void print_rnn(FILE *f, const gt_report *r)
{
    const int relu = r->m->rnn_relu;
    fprintf(f, "No gates: a plain RNN, h = %s(W_ih x + W_hh h + b),\nhas no gates, so no "
               "gate tables\n", relu ? "relu" : "tanh");
    fprintf(f, "\nNo carry gate to average per unit\n");
    if (relu)
        fprintf(f, "\nSaturation of h: the fraction of values at 0 (relu's flat side)\n"
                   "h = 0     %6.3f\n", r->h_zero);
    else
        fprintf(f, "\nSaturation of h: the fraction of values beyond -0.9 and 0.9\n"
                   "              left   right   |h| > 0.9\n"
                   "hidden h    %6.3f  %6.3f  %10.3f\n",
                r->h_left, r->h_right, r->h_left + r->h_right);
    fprintf(f, "\nNo carry gate to average by input %s\n", model_step_noun(r->m));
}

/* The gates' distributions, the carry gate's mean per unit, saturation, and the carry gate
 * by input character. */
static void print_gates(FILE *f, const gt_report *r)
{
    if (r->ngates == 0) {
        print_rnn(f, r);
        return;
    }
    const gt_model *m = r->m;
    const char *carry = r->gate[r->carry].name, *carry_word = m->cell->carry_word;
    char a[48], b[48], c[48], d[48];
    fprintf(f, "Gates over all positions and units\n");
    fprintf(f, "              mean     5%%     25%%     50%%     75%%     95%%\n");
    for (int g = 0; g < r->ngates; g++) {
        const gt_report_gate *gt = &r->gate[g];
        fprintf(f, "%-10s  %6.3f %6.3f  %6.3f  %6.3f  %6.3f  %6.3f\n", gate_label(gt->name),
                gt->mean, gt->q05, gt->q25, gt->q50, gt->q75, gt->q95);
    }

    fprintf(f, "\nMean %s gate %s across the %d units\n", carry_word, carry,
            model_width(m, r->layer));
    fprintf(f, "  min %.3f    5%% %.3f    median %.3f    95%% %.3f    max %.3f\n", r->mean_min,
            r->mean_q05, r->mean_median, r->mean_q95, r->mean_max);
    fprintf(f, "the half-life in %ss that implies\n", model_step_noun(m));
    fprintf(f, "  min %-8s median %-22s max %s\n", unit_hl(r->hl_min, a, sizeof a),
            unit_hl(r->hl_median, b, sizeof b), unit_hl(r->hl_max, c, sizeof c));
    fprintf(f, "%d of %d units below 0.5; %d with a half-life of 10 or more\n", r->below_half,
            model_width(m, r->layer), r->halflife_ge10);

    fprintf(f, "\nSaturation: fraction of values below 0.1 and above 0.9\n");
    fprintf(f, "              left   right\n");
    for (int g = 0; g < r->ngates; g++)
        fprintf(f, "%-10s  %6.3f  %6.3f\n", gate_label(r->gate[g].name), r->gate[g].left,
                r->gate[g].right);

    fprintf(f, "\nMean %s gate by input %s\n", carry_word, model_step_noun(m));
    static const char *const ccls[3] = {"space", "newline", "everything else"};
    static const char *const wcls[3] = {"punctuation", "<eos>", "everything else"};
    const char *const *cls = m->words ? wcls : ccls;
    for (int k = 0; k < 3; k++) {
        if (r->char_count[k])
            snprintf(d, sizeof d, "%.4f", r->char_mean[k]);
        else
            snprintf(d, sizeof d, "-");
        fprintf(f, "%-16s %7s   (%s position%s)\n", cls[k], d,
                report_commas(r->char_count[k], a, sizeof a), r->char_count[k] == 1 ? "" : "s");
    }
}

/* A column of the perturbation table: its heading, its values at the listed k, the
 * half-life and its interval. */
typedef struct pert_col {
    char label[32];
    const double *at;
    double hl;
    const gt_interval *ci;
} pert_col;

/* The table's columns for r's cell (its descriptor): a cell state's measured curve (an
 * LSTM's c), the carry gate alone (f, z), the measured h and the linearized carried state;
 * an RNN's measured h and linearized h. */
static int pert_cols(const gt_report *r, pert_col *c)
{
    const gt_celltype *cl = r->m->cell;
    int n = 0;
    if (cl->has_c)
        c[n++] = (pert_col){"", r->cell, r->hl_cell, &r->ci_cell};
    if (cl->has_c)
        snprintf(c[n - 1].label, sizeof c->label, "measured %s", cl->carried);
    if (cl->has_c && cl->carry >= 0)
        c[n++] = (pert_col){"", r->forget_only, r->hl_forget_only, &r->ci_forget_only};
    if (cl->has_c && cl->carry >= 0)
        snprintf(c[n - 1].label, sizeof c->label, "%s gate alone", cl->carry_word);
    c[n++] = (pert_col){"measured h", r->hidden, r->hl_hidden, &r->ci_hidden};
    if (!cl->has_c && cl->carry >= 0)
        c[n++] = (pert_col){"", r->forget_only, r->hl_forget_only, &r->ci_forget_only};
    if (!cl->has_c && cl->carry >= 0)
        snprintf(c[n - 1].label, sizeof c->label, "%s gate alone", cl->carry_word);
    c[n++] = (pert_col){"", r->linearized, r->hl_linearized, &r->ci_linearized};
    snprintf(c[n - 1].label, sizeof c->label, "linearized %s", cl->carried);
    return n;
}

#define CI_COLUMN 13 /* a half-life's interval, "[10.1, 11.7]" or "[10.1, > 64]" */

/* The table of the mean curves at the listed k, the half-lives and, with intervals, their
 * 95% intervals (without: a line that says they are not shown, so that the two have the
 * same lines: the screen's stats view shows either). */
static void print_pert_table(FILE *f, const gt_report *r, int intervals)
{
    pert_col c[4];
    const int n = pert_cols(r, c), lw = intervals ? 12 : 9;
    int w[4];
    char a[48];
    fprintf(f, "%*s", lw, "after");
    for (int i = 0; i < n; i++) {
        int l = (int)strlen(c[i].label);
        w[i] = intervals && l < CI_COLUMN ? CI_COLUMN : l;
        fprintf(f, "  %*s", w[i], c[i].label);
    }
    for (int j = 0; j < r->nk; j++) {
        fprintf(f, "\n%*d", lw, r->k[j]);
        for (int i = 0; i < n; i++)
            fprintf(f, "  %*s", w[i], ratio(c[i].at[j], a, sizeof a));
    }
    fprintf(f, "\n%*s", lw, "half-life");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %*s", w[i], halflife(c[i].hl, r->K, a, sizeof a));
    if (intervals) {
        fprintf(f, "\n%*s", lw, "95% interval");
        for (int i = 0; i < n; i++)
            fprintf(f, "  %*s", w[i], interval_text(c[i].ci, r->K, 1, a, sizeof a));
        fputc('\n', f);
    } else {
        fprintf(f, "\n(the half-lives' 95%% intervals need a wider view)\n");
    }
    if (r->ci_windows >= 2)
        fprintf(f, "95%% intervals: the jackknife over the %zu windows\n", r->ci_windows);
    else
        fprintf(f, "no 95%% intervals: the jackknife needs two windows that keep pairs\n");
}

/* The perturbation's curves over the report's pairs and their half-lives. */
static void print_perturbation(FILE *f, const gt_report *r, int intervals)
{
    const gt_model *m = r->m;
    char a[48];
    if (m->words)
        fprintf(f, "\nPerturbation: step %d of each full window replaced by each of\nthe text's "
                   "%d most frequent tokens\n",
                r->site, r->replacements + 1);
    else
        fprintf(f, "\nPerturbation: step %d of each full window replaced by each other "
                   "character\n",
                r->site);
    if (!r->pairs) {
        fprintf(f, "no pairs: %s\n",
                r->full_windows ? "no replacement changed the state"
                                : "no window is full (the text is shorter than one window)");
        return;
    }
    char b[48];
    fprintf(f, "%s (%zu window%s x %s", report_count(r->pairs, "pair", a, sizeof a),
            r->full_windows, r->full_windows == 1 ? "" : "s",
            report_count((size_t)r->replacements, "replacement", b, sizeof b));
    if (r->dropped)
        fprintf(f, ", %zu without a difference left out", r->dropped);
    fprintf(f, ")\neach curve over its value at k = 0, averaged over the pairs\n");
    print_pert_table(f, r, intervals);
    if (m->cell->carry < 0)
        fprintf(f, "no forget-only curve: a %s has no carry gate\n(nothing "
                   "multiplies h elementwise from one step to the next)\n", m->cell->noun);
}

/* The order of the window table (windows with pairs kept): the longest measured half-life
 * first (past K: longest), a tie in window order. */
static const gt_report_window *sort_base;
static int cmp_window(const void *a, const void *b)
{
    const gt_report_window *x = sort_base + *(const size_t *)a, *y = sort_base + *(const size_t *)b;
    double u = isnan(x->hl_measured) ? INFINITY : x->hl_measured;
    double v = isnan(y->hl_measured) ? INFINITY : y->hl_measured;
    if (u != v)
        return u > v ? -1 : 1;
    return x < y ? -1 : x > y;
}

#define WINDOW_ROWS 8 /* every window up to this many; else the longest and shortest halves */

/* A window's row: "  at STEP  START-END  PAIRS  MEASURED  FORGET-ONLY"; report_line_step
 * reads its step back. */
static void print_window(FILE *f, const gt_report *r, const gt_report_window *w)
{
    char a[32], b[32], c[32], d[48], x[48];
    snprintf(d, sizeof d, "%s-%s", report_commas(w->start, b, sizeof b),
             report_commas(w->start + r->window_len - 1, c, sizeof c));
    fprintf(f, "  at %9s  %15s  %5zu  %10s", report_commas(w->edited, a, sizeof a), d, w->pairs,
            w->pairs ? halflife(w->hl_measured, r->K, x, sizeof x) : "-");
    if (r->m->cell->carry >= 0)
        fprintf(f, "  %17s", w->pairs ? halflife(w->hl_forget_only, r->K, x, sizeof x) : "-");
    fputc('\n', f);
}

int report_line_step(const char *line, size_t *step)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if (p == line || strncmp(p, "at ", 3) != 0)
        return -1;
    for (p += 3; *p == ' '; p++)
        ;
    size_t n = 0;
    int digits = 0;
    for (; (*p >= '0' && *p <= '9') || (*p == ',' && digits); p++)
        if (*p != ',') {
            if (n > ((size_t)-1 - 9) / 10)
                return -1;
            n = 10 * n + (size_t)(*p - '0');
            digits++;
        }
    if (!digits || *p != ' ')
        return -1;
    *step = n;
    return 0;
}

/* The full windows, each by its own pairs' half-lives: every one in text order up to
 * WINDOW_ROWS, else those with pairs kept by their half-life, every one up to WINDOW_ROWS or
 * the longest-lived and the shortest-lived WINDOW_ROWS / 2; the edited step first (the
 * screen goes there). */
static void print_windows(FILE *f, const gt_report *r)
{
    const size_t n = r->full_windows;
    if (!r->pairs || !r->window || n < 2)
        return;
    size_t *order = malloc(n * sizeof *order), m = 0;
    if (!order)
        return;
    const int all = n <= WINDOW_ROWS;
    for (size_t i = 0; i < n; i++)
        if (all || r->window[i].pairs)
            order[m++] = i;
    if (!all) {
        sort_base = r->window;
        qsort(order, m, sizeof *order, cmp_window);
    }
    const gt_celltype *cl = r->m->cell;
    const int some = m > WINDOW_ROWS;
    if (all)
        fprintf(f, "\nEach window's own pairs, in text order\n");
    else if (some)
        fprintf(f, "\nThe windows whose own pairs last longest and shortest\n(%d of %zu, by the "
                   "measured half-life)\n", WINDOW_ROWS, m);
    else
        fprintf(f, "\nThe windows by the measured half-life of their own pairs\n");
    if (!all && m < n)
        fprintf(f, "(%zu of the %zu windows kept no pair)\n", n - m, n);
    fprintf(f, "        edited            steps  pairs  measured %s", cl->carried);
    if (cl->carry >= 0)
        fprintf(f, "  %s gate alone", cl->carry_word);
    fputc('\n', f);
    for (size_t i = 0; i < m; i++)
        if (!some || i < WINDOW_ROWS / 2 || i >= m - WINDOW_ROWS / 2)
            print_window(f, r, &r->window[order[i]]);
    free(order);
}

int report_print_text_as(FILE *f, const gt_report *r, const char *text_name, int intervals,
                         gt_error *e)
{
    print_heading(f, r, text_name);
    print_gates(f, r);
    print_perturbation(f, r, intervals);
    print_windows(f, r);
    unittable_print(f, r, intervals);
    if (file_flushed(f, "the report", e))
        return GT_EFAIL;
    return GT_OK;
}

int report_print_text(FILE *f, const gt_report *r, const char *text_name, gt_error *e)
{
    return report_print_text_as(f, r, text_name, 1, e);
}

/* A JSON number, or null where the value does not exist (NaN) or is infinite. */
static json_t *num_array(const double *v, int n)
{
    if (!v)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, jsonout_num(v[i]));
    return a;
}

/* The half-lives' 95% intervals, and whether each is past the horizon (null where the
 * half-life does not exist: a GRU's cell, an RNN's forget-only, no pairs). */
static void pert_intervals(json_t *p, const gt_report *r)
{
    static const char *const key[4] = {"halflife_cell", "halflife_forget_only",
                                       "halflife_hidden", "halflife_linearized"};
    const gt_interval *ci[4] = {&r->ci_cell, &r->ci_forget_only, &r->ci_hidden,
                                &r->ci_linearized};
    const int some = r->pairs > 0;
    const int exists[4] = {some && r->m->cell->has_c, some && r->m->cell->carry >= 0, some,
                           some};
    json_t *beyond = json_object(), *cis = json_object();
    for (int c = 0; c < 4; c++) {
        json_object_set_new(beyond, key[c], exists[c] ? json_boolean(ci[c]->beyond) : json_null());
        json_object_set_new(cis, key[c], jsonout_interval(ci[c]));
    }
    json_object_set_new(p, "beyond_horizon", beyond);
    json_object_set_new(p, "ci", cis);
}

/* The report's perturbation as JSON: the lags, the curves and their half-lives. */
static json_t *pert_json(const gt_report *r)
{
    json_t *p = json_object(), *ks = json_array();
    for (int i = 0; i < r->nk; i++)
        json_array_append_new(ks, json_integer(r->k[i]));
    json_object_set_new(p, "site_offset", json_integer(r->site));
    json_object_set_new(p, "horizon", json_integer(r->K));
    json_object_set_new(p, "pairs", json_integer((json_int_t)r->pairs));
    json_object_set_new(p, "k", ks);
    json_object_set_new(p, "cell", num_array(r->cell, r->nk));
    json_object_set_new(p, "forget_only", num_array(r->forget_only, r->nk));
    json_object_set_new(p, "hidden", num_array(r->hidden, r->nk));
    json_object_set_new(p, "halflife_cell", jsonout_num(r->hl_cell));
    json_object_set_new(p, "halflife_forget_only", jsonout_num(r->hl_forget_only));
    json_object_set_new(p, "halflife_hidden", jsonout_num(r->hl_hidden));
    json_object_set_new(p, "linearized", num_array(r->linearized, r->nk));
    json_object_set_new(p, "halflife_linearized", jsonout_num(r->hl_linearized));
    pert_intervals(p, r);
    json_t *ws = json_array();
    for (size_t i = 0; r->window && i < r->full_windows; i++) {
        const gt_report_window *w = &r->window[i];
        json_t *o = json_object();
        json_object_set_new(o, "start", json_integer((json_int_t)w->start));
        json_object_set_new(o, "edited", json_integer((json_int_t)w->edited));
        json_object_set_new(o, "pairs", json_integer((json_int_t)w->pairs));
        json_object_set_new(o, "halflife_measured", jsonout_num(w->hl_measured));
        json_object_set_new(o, "halflife_forget_only", jsonout_num(w->hl_forget_only));
        json_array_append_new(ws, o);
    }
    json_object_set_new(p, "windows", ws);
    return p;
}

/* The carry gate's mean per unit (an LSTM's or a GRU's). */
static json_t *units_json(const gt_report *r)
{
    json_t *u = json_object();
    json_object_set_new(u, "gate", json_string(r->gate[r->carry].name));
    json_object_set_new(u, "mean_min", jsonout_num(r->mean_min));
    json_object_set_new(u, "mean_q05", jsonout_num(r->mean_q05));
    json_object_set_new(u, "mean_median", jsonout_num(r->mean_median));
    json_object_set_new(u, "mean_q95", jsonout_num(r->mean_q95));
    json_object_set_new(u, "mean_max", jsonout_num(r->mean_max));
    json_object_set_new(u, "halflife_min", jsonout_num(r->hl_min));
    json_object_set_new(u, "halflife_median", jsonout_num(r->hl_median));
    json_object_set_new(u, "halflife_max", jsonout_num(r->hl_max));
    json_object_set_new(u, "below_half", json_integer(r->below_half));
    json_object_set_new(u, "halflife_ge10", json_integer(r->halflife_ge10));
    return u;
}

/* The carry gate's mean by input character. */
static json_t *by_char_json(const gt_report *r)
{
    json_t *bc = json_object();
    static const char *const ccls[3] = {"space", "newline", "other"};
    static const char *const wcls[3] = {"punctuation", "eos", "other"};
    const char *const *cls = r->m->words ? wcls : ccls;
    for (int k = 0; k < 3; k++) {
        json_t *o = json_object();
        json_object_set_new(o, "mean", jsonout_num(r->char_mean[k]));
        json_object_set_new(o, "count", json_integer((json_int_t)r->char_count[k]));
        json_object_set_new(bc, cls[k], o);
    }
    return bc;
}

static json_t *report_json(const gt_report *r)
{
    const gt_model *m = r->m;
    json_t *root = json_object();
    /* "hidden": the report's layer's units; "widths": every layer's, when they differ */
    json_t *m_json = json_pack("{s:s, s:i, s:i, s:i, s:I}", "arch", model_arch_name(m),
                               "layers", m->layers, "hidden", model_width(m, r->layer),
                               "vocab", m->vocab, "params", (json_int_t)m->params);
    if (model_widths_differ(m)) {
        json_t *w = json_array();
        for (int k = 0; k < m->layers; k++)
            json_array_append_new(w, json_integer(model_width(m, k)));
        json_object_set_new(m_json, "widths", w);
    }
    json_object_set_new(root, "model", m_json);
    json_object_set_new(root, "layer", json_integer(r->layer));
    json_object_set_new(root, "positions", json_integer((json_int_t)r->positions));
    json_t *gates = json_object(), *sat = json_object();
    for (int g = 0; g < r->ngates; g++) {
        const gt_report_gate *gt = &r->gate[g];
        json_t *o = json_object();
        json_object_set_new(o, "mean", jsonout_num(gt->mean));
        json_object_set_new(o, "q05", jsonout_num(gt->q05));
        json_object_set_new(o, "q25", jsonout_num(gt->q25));
        json_object_set_new(o, "q50", jsonout_num(gt->q50));
        json_object_set_new(o, "q75", jsonout_num(gt->q75));
        json_object_set_new(o, "q95", jsonout_num(gt->q95));
        json_object_set_new(gates, gt->name, o);
        json_t *s = json_object();
        json_object_set_new(s, "left", jsonout_num(gt->left));
        json_object_set_new(s, "right", jsonout_num(gt->right));
        json_object_set_new(sat, gt->name, s);
    }
    json_object_set_new(root, "gates", gates);
    if (m->proj)
        json_object_set_new(m_json, "proj", json_integer(m->proj));
    if (r->ngates == 0) { /* a plain RNN: its nonlinearity, h's saturation */
        json_object_set_new(m_json, "nonlinearity", json_string(m->rnn_relu ? "relu" : "tanh"));
        json_object_set_new(m_json, "nonlinearity_assumed", json_boolean(m->nonlin_assumed));
        json_object_set_new(sat, "h", m->rnn_relu
                                          ? json_pack("{s:o}", "zero", jsonout_num(r->h_zero))
                                          : json_pack("{s:o, s:o}", "left",
                                                      jsonout_num(r->h_left), "right",
                                                      jsonout_num(r->h_right)));
        json_object_set_new(root, "units", json_null());
        json_object_set_new(root, "saturation", sat);
        json_object_set_new(root, m->words ? "by_token" : "by_char", json_null());
    } else {
        json_object_set_new(root, "units", units_json(r));
        json_object_set_new(root, "saturation", sat);
        json_object_set_new(root, m->words ? "by_token" : "by_char", by_char_json(r));
    }
    json_object_set_new(root, "perturbation", pert_json(r));
    json_t *loss = json_null();
    if (r->loss.count)
        loss = json_pack("{s:o, s:o, s:I}", "nats", jsonout_num(r->loss.nats), "bits",
                         jsonout_num(loss_bits(&r->loss)), "count", (json_int_t)r->loss.count);
    json_object_set_new(root, "loss", loss);
    if (r->interventions && *r->interventions) {
        json_object_set_new(root, "interventions", json_string(r->interventions));
        json_t *lb = json_null();
        if (r->loss_base.count && r->loss.count)
            lb = json_pack("{s:o, s:o, s:o, s:o}", "nats", jsonout_num(r->loss_base.nats), "bits",
                           jsonout_num(loss_bits(&r->loss_base)), "change_nats",
                           jsonout_num(r->loss.nats - r->loss_base.nats), "change_bits",
                           jsonout_num(loss_bits(&r->loss) - loss_bits(&r->loss_base)));
        json_object_set_new(root, "loss_without_interventions", lb);
    }
    return root;
}

static int dump_json(FILE *f, json_t *root, gt_error *e)
{
    if (!root)
        return gt_fail(e, GT_EFAIL, "out of memory for the JSON report");
    return jsonout_print(f, root, 2, JSONOUT_MEASURES, "the report", e);
}

int report_print_sweep_json(FILE *f, const gt_report *r, const double *d, int n, gt_error *e)
{
    json_t *root = json_object(), *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:f, s:o}", "forget_bias", d[i], "report",
                                           report_json(&r[i])));
    json_object_set_new(root, "sweep", a);
    return dump_json(f, root, e);
}

/* A half-life of r's perturbation with its 95% interval after it ("-" without pairs). */
static const char *with_interval(const gt_report *r, double hl, const gt_interval *ci,
                                 char *buf, size_t len)
{
    char a[24], b[48];
    if (!r->pairs)
        snprintf(buf, len, "-");
    else if (!ci->has || ci->beyond)
        snprintf(buf, len, "%s", halflife(hl, r->K, a, sizeof a));
    else
        snprintf(buf, len, "%s %s", halflife(hl, r->K, a, sizeof a),
                 interval_text(ci, r->K, 1, b, sizeof b));
    return buf;
}

int report_print_sweep_text(FILE *f, const gt_report *r, const double *d, int n,
                            const char *text_name, const char *others, gt_error *e)
{
    if (n < 1)
        return GT_OK;
    const gt_report *r0 = &r[0];
    const int lstm = r0->m->cell->has_c;
    const char *g = model_gate_name(r0->m, r0->m->cell->carry);
    char a[48], b[80], c[80], x[48], mp[1024], tp[1024];
    fprintf(f, "%s on %s: layer %d, %zu window%s of %s\nthe forget bias (%s's "
               "b_hh) shifted by D\n",
            utf8_printable(mp, sizeof mp, r0->m->path), utf8_printable(tp, sizeof tp, text_name),
            r0->layer, r0->windows, r0->windows == 1 ? "" : "s",
            report_count(r0->window_len, model_step_noun(r0->m), a, sizeof a), g);
    if (others && *others)
        fprintf(f, "and the interventions %s\n", others);
    /* 80 columns: t½ is the median unit's, then the count of units at 10 or more, then the
       edit's measured and gate-only ones, with their intervals */
    char unit[24];
    snprintf(unit, sizeof unit, "bits/%s", model_step_abbr(r0->m));
    fprintf(f, "     D  mean %s  median t½  t½>=10  measured t½ [95%%]  %s-only t½ [95%%] "
               "%10s\n", g, g, unit);
    for (int i = 0; i < n; i++) {
        const gt_report *q = &r[i];
        if (q->loss.count)
            snprintf(x, sizeof x, "%.4f", loss_bits(&q->loss));
        else
            snprintf(x, sizeof x, "-");
        fprintf(f, "%+6.2f  %6.3f  %9s  %6d  %17s  %15s %10s\n", d[i],
                q->gate[q->carry].mean, unit_hl(q->hl_median, a, sizeof a), q->halflife_ge10,
                with_interval(q, lstm ? q->hl_cell : q->hl_hidden,
                              lstm ? &q->ci_cell : &q->ci_hidden, b, sizeof b),
                with_interval(q, q->hl_forget_only, &q->ci_forget_only, c, sizeof c), x);
    }
    if (file_flushed(f, "the report", e))
        return GT_EFAIL;
    return GT_OK;
}

int report_print_json(FILE *f, const gt_report *r, gt_error *e)
{
    json_t *root = report_json(r);
    if (root)
        json_object_set_new(root, "unit_table", unittable_json(r));
    return dump_json(f, root, e);
}
