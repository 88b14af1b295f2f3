/* Several models compared as one compact table (compare.h). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/compare.h"
#include "gatetui/utf8.h"

void compare_col(gt_compare_col *c, const gt_report *r)
{
    const gt_model *m = r->m;
    memset(c, 0, sizeof *c);
    const char *slash = strrchr(m->path, '/');
    utf8_printable(c->name, sizeof c->name, slash ? slash + 1 : m->path);
    snprintf(c->arch, sizeof c->arch, "%s", model_arch_name(m));
    for (char *a = c->arch; *a; a++)
        *a = (char)toupper((unsigned char)*a);
    const int gated = r->ngates > 0 && r->carry >= 0 && r->carry < r->ngates;
    const gt_report_gate *g = gated ? &r->gate[r->carry] : NULL;
    snprintf(c->carry, sizeof c->carry, "%s", g ? g->name : "");
    c->hidden = m->hidden;
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
    c->hl_measured = m->arch == GT_LSTM ? r->hl_cell : r->hl_hidden;
    c->hl_linearized = r->hl_linearized;
    c->hl_forget_only = g ? r->hl_forget_only : NAN;
    c->ci_measured = m->arch == GT_LSTM ? r->ci_cell : r->ci_hidden;
    c->ci_linearized = r->ci_linearized;
    c->ci_forget_only = r->ci_forget_only;
    if (r->unit_table && r->pairs) { /* past the horizon counts as longer */
        c->ge10_measured = 0;
        for (int j = 0; j < m->hidden; j++) {
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

static const char *compare_label(int row, const gt_compare_col *c, int n)
{
    const char *g = same_gate(c, n);
    const int f = g && strcmp(g, "f") == 0, z = g && strcmp(g, "z") == 0;
    switch (row) {
    case COMPARE_NAME: return "model";
    case COMPARE_CELL: return "cell, units";
    case COMPARE_LOSS: return "loss (nats/char)";
    case COMPARE_MEAN:
        return f ? "mean forget gate f" : z ? "mean update gate z" : "mean carry gate (f, z)";
    case COMPARE_SATURATION:
        return f ? "values of f below 0.1 / above 0.9"
               : z ? "values of z below 0.1 / above 0.9"
                   : "carry gate below 0.1 / above 0.9";
    case COMPARE_UNIT_HL: return "unit half-lives median / max";
    case COMPARE_GE10: return "units with half-life >= 10, gate / measured";
    case COMPARE_EDIT_MEASURED:
        return n > 0 && c[0].hide_ci ? "an edit's half-life, measured"
                                     : "an edit's half-life [95% interval], measured";
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

/* An edit's half-life: one decimal, "> K" past the horizon, "-" without pairs or where it
 * does not exist (no carry gate); its interval after it unless hidden or there is none
 * ("-"); marked "* " when that interval and left's (NULL: none) do not overlap. */
static const char *edit_hl(const gt_compare_col *c, double v, const gt_interval *ci,
                           const gt_interval *left, char *buf, size_t len)
{
    char a[48];
    const char *mark = left && interval_apart(ci, left) ? "* " : "";
    if (!c->pairs || !ci)
        snprintf(buf, len, "-");
    else if (isnan(v))
        snprintf(buf, len, "%s> %d", mark, c->K);
    else if (c->hide_ci || !ci->has)
        snprintf(buf, len, "%s%.1f", mark, v);
    else
        snprintf(buf, len, "%s%.1f %s", mark, v, interval_text(ci, c->K, 1, a, sizeof a));
    return buf;
}

/* The intervals' legend, the table's last line. */
static const char *legend(const gt_compare_col *c, int n)
{
    int hidden = 0;
    for (int k = 0; k < n; k++)
        hidden |= c[k].hide_ci;
    return hidden ? "* the model's 95% interval and the one to its left do not overlap "
                    "(the intervals need a wider view)"
                  : "[lo, hi] a 95% interval, the jackknife over the windows; * it and the "
                    "one to its left do not overlap";
}

static const char *count(int v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%d", v);
    return buf;
}

/* Row row's cell of column c, its half-lives marked against left's (NULL: not marked). */
static const char *compare_cell(int row, const gt_compare_col *c, const gt_compare_col *left,
                                char *buf, size_t len)
{
    char a[32], b[32];
    switch (row) {
    case COMPARE_NAME: snprintf(buf, len, "%s", c->name); break;
    case COMPARE_CELL: snprintf(buf, len, "%s %d", c->arch, c->hidden); break;
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
    case COMPARE_EDIT_MEASURED:
        edit_hl(c, c->hl_measured, &c->ci_measured, left ? &left->ci_measured : NULL, buf, len);
        break;
    case COMPARE_EDIT_LINEARIZED:
        edit_hl(c, c->hl_linearized, &c->ci_linearized, left ? &left->ci_linearized : NULL, buf,
                len);
        break;
    case COMPARE_EDIT_GATE:
        edit_hl(c, c->hl_forget_only, c->carry[0] ? &c->ci_forget_only : NULL,
                left && left->carry[0] ? &left->ci_forget_only : NULL, buf, len);
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

int compare_width(const gt_compare_col *c)
{
    char buf[128];
    int w = 0;
    for (int row = 0; row < COMPARE_LEGEND; row++) {
        int l = width(compare_cell(row, c, NULL, buf, sizeof buf));
        l += row >= COMPARE_EDIT_MEASURED ? 2 : 0; /* room for a mark */
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
    for (int k = first < 0 ? 0 : first; k < last && at < len; k++) {
        const char *t = compare_cell(row, &c[k], k > 0 ? &c[k - 1] : NULL, cell, sizeof cell);
        int pad = compare_width(&c[k]) - width(t);
        at += (size_t)snprintf(buf + at, len - at, "  %*s%s", pad, "", t);
    }
    return buf;
}

int compare_print(FILE *f, const gt_compare_col *c, int n, const gt_report *r0,
                  const char *text_name, gt_error *e)
{
    char tp[1024], line[4096];
    fprintf(f, "%s: layer %d, %zu window%s of %zu characters from zero state, %d models\n\n",
            utf8_printable(tp, sizeof tp, text_name), r0->layer, r0->windows,
            r0->windows == 1 ? "" : "s", r0->window_len, n);
    for (int row = 0; row < COMPARE_ROWS; row++)
        fprintf(f, "%s\n", compare_line(row, c, n, 0, -1, line, sizeof line));
    if (fflush(f) || ferror(f))
        return gt_fail(e, GT_EFAIL, "error writing the report");
    return GT_OK;
}
