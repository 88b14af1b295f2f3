/* Several models compared as one compact table (compare.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/fileio.h"
#include "gatetui/compare.h"
#include "gatetui/utf8.h"

void compare_col(gt_compare_col *c, const gt_report *r, const char *name)
{
    const gt_model *m = r->m;
    memset(c, 0, sizeof *c);
    utf8_printable(c->name, sizeof c->name, name);
    snprintf(c->kind, sizeof c->kind, "%s", m->cell->kind);
    c->words = m->words;
    const int gated = r->ngates > 0 && r->carry >= 0 && r->carry < r->ngates;
    const gt_report_gate *g = gated ? &r->gate[r->carry] : NULL;
    snprintf(c->carry, sizeof c->carry, "%s", g ? g->name : "");
    c->hidden = model_width(m, r->layer); /* the report's layer's units */
    c->K = r->K;
    c->loss = r->loss.count ? r->loss.nats : NAN;
    c->mean = g ? g->mean : NAN;
    c->left = g ? g->left : NAN;
    c->right = g ? g->right : NAN;
    c->hl_median = g ? r->hl_median : NAN;
    c->hl_max = g ? r->hl_max : NAN;
    c->ge10 = g ? r->halflife_ge10 : -1;
    c->ge10_measured = -1;
    c->pairs = (int)(r->pairs > 0);
    c->windows = r->windows;
    c->window_len = r->window_len;
    c->edits = r->pairs;
    c->ci_windows = r->ci_windows;
    c->site = r->site;
    c->cell = m->cell->has_c;
    c->hl_measured = c->cell ? r->hl_cell : r->hl_hidden;
    c->hl_hidden = r->hl_hidden;
    c->hl_linearized = r->hl_linearized;
    c->hl_forget_only = g ? r->hl_forget_only : NAN;
    c->ci_measured = c->cell ? r->ci_cell : r->ci_hidden;
    c->ci_hidden = r->ci_hidden;
    c->ci_linearized = r->ci_linearized;
    c->ci_forget_only = r->ci_forget_only;
    if (r->unit_table && r->pairs) { /* past the horizon counts as longer */
        c->ge10_measured = 0;
        for (int j = 0; j < c->hidden; j++) {
            const gt_unit_row *u = &r->unit_table[j];
            c->ge10_measured += u->measured_ci.beyond ? r->K >= 10 : u->halflife_measured >= 10;
        }
    }
}

/* The columns t takes: its code points. */
static int width(const char *t)
{
    int w = 0;
    for (; *t; t++)
        w += ((unsigned char)*t & 0xC0) != 0x80;
    return w;
}

/* The carry gate's letter when every column has the same one, else NULL. */
static const char *same_gate(const gt_compare_col *c, int n)
{
    for (int k = 1; k < n; k++)
        if (strcmp(c[k].carry, c[0].carry) != 0)
            return NULL;
    return n > 0 && c[0].carry[0] ? c[0].carry : NULL;
}

/* The carried state every column's edit row is of: 'c' when every model is an LSTM, 'h'
 * when none is, 0 when they differ (each cell then names its own). */
static char same_state(const gt_compare_col *c, int n)
{
    int cells = 0;
    for (int k = 0; k < n; k++)
        cells += c[k].cell != 0;
    return cells == n ? 'c' : cells == 0 ? 'h' : 0;
}

static const char *compare_label(int row, const gt_compare_col *c, int n)
{
    const char *g = same_gate(c, n);
    const int f = g && strcmp(g, "f") == 0, z = g && strcmp(g, "z") == 0;
    const char st = same_state(c, n);
    switch (row) {
    case COMPARE_NAME: return "model";
    case COMPARE_CELL: return "cell, units";
    case COMPARE_LOSS: return n > 0 && c[0].words ? "loss (nats/token)" : "loss (nats/char)";
    case COMPARE_MEAN:
        return f ? "mean forget gate f" : z ? "mean update gate z" : "mean carry gate (f, z)";
    case COMPARE_SATURATION:
        return f ? "values of f below 0.1 / above 0.9"
               : z ? "values of z below 0.1 / above 0.9"
                   : "carry gate below 0.1 / above 0.9";
    case COMPARE_UNIT_HL: return "unit half-lives median / max";
    case COMPARE_GE10: return "units with half-life >= 10, gate / measured";
    case COMPARE_EDIT_HL_H: return "an edit's half-life of h, measured";
    case COMPARE_EDIT_MEASURED: /* each cell names its c or h when the columns' differ */
        return st == 'c' ? "an edit's half-life of c, measured"
               : st == 'h' ? "an edit's half-life of h, measured"
                           : "an edit's half-life, measured";
    case COMPARE_EDIT_LINEARIZED: return "  linearized";
    case COMPARE_EDIT_GATE: return f ? "  forget-only" : z ? "  update-only" : "  gate-only";
    default: return "";
    }
}

/* A value with a format, or "-" where it does not exist. */
static const char *num(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, "inf");
    else
        snprintf(buf, len, fmt, v);
    return buf;
}

/* An edit's half-life after `state` ("c ", "h " or ""): one decimal, "> K" past the
 * horizon, "-" without pairs or where it does not exist (ci NULL: no carry gate); its
 * interval after it unless hidden or there is none; "* " before it when that interval and
 * left's (NULL: none to compare with) do not overlap. */
static const char *edit_hl(const gt_compare_col *c, const char *state, double v,
                           const gt_interval *ci, const gt_interval *left, char *buf,
                           size_t len)
{
    char a[48];
    const char *mark = ci && left && interval_apart(ci, left) ? "* " : "";
    if (!c->pairs || !ci)
        snprintf(buf, len, "-");
    else if (isnan(v))
        snprintf(buf, len, "%s%s> %d", mark, state, c->K);
    else if (c->hide_ci || !ci->has)
        snprintf(buf, len, "%s%s%.1f", mark, state, v);
    else
        snprintf(buf, len, "%s%s%.1f %s", mark, state, v, interval_text(ci, c->K, 1, a, sizeof a));
    return buf;
}

/* The intervals' legend, the table's last line. */
static const char *legend(const gt_compare_col *c, int n)
{
    int hidden = 0;
    for (int k = 0; k < n; k++)
        hidden |= c[k].hide_ci;
    return hidden ? "* no overlap with the one to its left (the intervals need a wider view)"
                  : "[lo, hi] 95% interval, jackknife over windows; * no overlap with the left one";
}

/* Row row's edit half-life cell of column c, marked against left's (NULL: the first
 * column) where both carry the same state; st: every column's state (same_state). */
static const char *edit_cell(int row, const gt_compare_col *c, const gt_compare_col *left,
                             char st, char *buf, size_t len)
{
    const int same = left && left->cell == c->cell;
    const char *state = st ? "" : c->cell ? "c " : "h ";
    switch (row) {
    case COMPARE_EDIT_HL_H:
        return edit_hl(c, "", c->hl_hidden, &c->ci_hidden, left ? &left->ci_hidden : NULL, buf,
                       len);
    case COMPARE_EDIT_MEASURED:
        return edit_hl(c, state, c->hl_measured, &c->ci_measured,
                       same ? &left->ci_measured : NULL, buf, len);
    case COMPARE_EDIT_LINEARIZED:
        return edit_hl(c, state, c->hl_linearized, &c->ci_linearized,
                       same ? &left->ci_linearized : NULL, buf, len);
    default:
        return edit_hl(c, state, c->hl_forget_only, c->carry[0] ? &c->ci_forget_only : NULL,
                       same && left->carry[0] ? &left->ci_forget_only : NULL, buf, len);
    }
}

static const char *count(int v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%d", v);
    return buf;
}

/* Row row's cell of column c (left: the column before it, or NULL) in a table of every
 * column's state st (same_state). */
static const char *compare_cell(int row, const gt_compare_col *c, const gt_compare_col *left,
                                char st, char *buf, size_t len)
{
    char a[32], b[32];
    if (row >= COMPARE_EDIT_HL_H && row <= COMPARE_EDIT_GATE)
        return edit_cell(row, c, left, st, buf, len);
    switch (row) {
    case COMPARE_NAME: snprintf(buf, len, "%s", c->name); break;
    case COMPARE_CELL: snprintf(buf, len, "%s %d", c->kind, c->hidden); break;
    case COMPARE_LOSS: num(c->loss, "%.3f", buf, len); break;
    case COMPARE_MEAN: num(c->mean, "%.3f", buf, len); break;
    case COMPARE_SATURATION:
        snprintf(buf, len, "%s / %s", num(c->left, "%.3f", a, sizeof a),
                 num(c->right, "%.3f", b, sizeof b));
        break;
    case COMPARE_UNIT_HL:
        snprintf(buf, len, "%s / %s", num(c->hl_median, "%.2f", a, sizeof a),
                 num(c->hl_max, "%.2f", b, sizeof b));
        break;
    case COMPARE_GE10:
        snprintf(buf, len, "%s / %s", count(c->ge10, a, sizeof a),
                 count(c->ge10_measured, b, sizeof b));
        break;
    default: snprintf(buf, len, "%s", ""); break;
    }
    return buf;
}

int compare_label_width(const gt_compare_col *c, int n)
{
    int w = 0;
    for (int row = 0; row < COMPARE_LEGEND; row++) {
        int l = width(compare_label(row, c, n));
        w = l > w ? l : w;
    }
    return w;
}

int compare_width(const gt_compare_col *c, int n, int k)
{
    char buf[128];
    const char st = same_state(c, n);
    int w = 0;
    for (int row = 0; row < COMPARE_LEGEND; row++) {
        int l = width(compare_cell(row, &c[k], k > 0 ? &c[k - 1] : NULL, st, buf, sizeof buf));
        w = l > w ? l : w;
    }
    return w;
}

char *compare_line(int row, const gt_compare_col *c, int n, int first, int count, char *buf,
                   size_t len)
{
    char cell[128];
    if (row == COMPARE_LEGEND) {
        snprintf(buf, len, "%s", legend(c, n));
        return buf;
    }
    const char *label = compare_label(row, c, n);
    int lw = compare_label_width(c, n);
    size_t at = (size_t)snprintf(buf, len, "%s%*s", label, lw - width(label), "");
    int last = count < 0 || first + count > n ? n : first + count;
    const char st = same_state(c, n);
    for (int k = first < 0 ? 0 : first; k < last && at < len; k++) {
        const char *t = compare_cell(row, &c[k], k > 0 ? &c[k - 1] : NULL, st, cell, sizeof cell);
        int pad = compare_width(c, n, k) - width(t);
        at += (size_t)snprintf(buf + at, len - at, "  %*s%s", pad, "", t);
    }
    return buf;
}

int compare_print(FILE *f, const gt_compare_col *c, int n, const gt_report *r0,
                  const char *text_name, gt_error *e)
{
    char tp[1024], line[4096];
    fprintf(f, "%s: layer %d, %zu window%s of %zu %ss from zero state, %d models\n\n",
            utf8_printable(tp, sizeof tp, text_name), r0->layer, r0->windows,
            r0->windows == 1 ? "" : "s", r0->window_len, model_step_noun(r0->m), n);
    for (int row = 0; row < COMPARE_ROWS; row++)
        fprintf(f, "%s\n", compare_line(row, c, n, 0, -1, line, sizeof line));
    if (file_flushed(f, "the report", e))
        return GT_EFAIL;
    return GT_OK;
}
