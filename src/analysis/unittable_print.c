/* The unit table printed (doc/measures.md, "The unit table"): JSON rows, and the text
 * report's longest-lived units, the units that outlive their gate, the histogram. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/jsonout.h"
#include "analysis/unittable.h"
#include "gatetui/report.h"

#define TOP 10
#define NBINS 9 /* < 1, [1, 2), [2, 4), ... [64, 128), >= 128 */

json_t *unittable_json(const gt_report *r)
{
    json_t *a = json_array();
    if (!r->unit_table)
        return a;
    for (int j = 0; j < model_width(r->m, r->layer); j++) {
        const gt_unit_row *u = &r->unit_table[j];
        json_t *o = json_object(), *mean = json_object();
        for (int g = 0; g < r->ngates; g++)
            json_object_set_new(mean, r->gate[g].name, jsonout_num(u->mean[g]));
        json_object_set_new(o, "unit", json_integer(j));
        json_object_set_new(o, "mean", mean);
        json_object_set_new(o, "halflife", jsonout_num(u->halflife));
        json_object_set_new(o, "halflife_bias", jsonout_num(u->halflife_bias));
        json_object_set_new(o, "halflife_measured", jsonout_num(u->halflife_measured));
        json_object_set_new(o, "halflife_measured_ci", jsonout_interval(&u->measured_ci));
        json_object_set_new(o, "beyond_horizon", json_boolean(u->measured_ci.beyond));
        json_object_set_new(o, "left", jsonout_num(u->left));
        json_object_set_new(o, "right", jsonout_num(u->right));
        json_array_append_new(a, o);
    }
    return a;
}

/* A measured half-life past the horizon is longer than it (one that does not exist, NAN,
 * is not). */
static double measured(const gt_unit_row *u)
{
    return u->measured_ci.beyond ? INFINITY : u->halflife_measured;
}

/* A half-life in steps: "> K" when beyond (past the horizon), "-" where it does not exist. */
static const char *steps(double v, int K, int beyond, char *buf, size_t len)
{
    if (beyond)
        snprintf(buf, len, "> %d", K);
    else if (isinf(v))
        snprintf(buf, len, "inf");
    else if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

#define CI_COLUMN 15 /* a unit's interval, "[10.12, 11.70]" or "[-1.25, > 64]" */

/* The unit's measured half-life and, with intervals, its 95% interval beside it. */
static void print_measured(FILE *f, const gt_report *r, const gt_unit_row *u, int intervals)
{
    char a[48];
    fprintf(f, "  %8s", steps(u->halflife_measured, r->K, u->measured_ci.beyond, a, sizeof a));
    if (intervals)
        fprintf(f, "  %*s", CI_COLUMN, interval_text(&u->measured_ci, r->K, 2, a, sizeof a));
}

static void print_top(FILE *f, const gt_report *r, int *order, int by_measured, int intervals)
{
    const int H = model_width(r->m, r->layer), n = H < TOP ? H : TOP;
    unittable_order(r->unit_table, H, r->ngates,
                    unittable_column(by_measured ? UT_MEASURED : UT_HALFLIFE, 0, r->ngates), 0,
                    order);
    fprintf(f, "\nThe %d longest-lived units by the %s half-life%s\n", n,
            by_measured ? "measured" : "gate's",
            intervals ? "" : " (intervals: a wider view)");
    fprintf(f, "  unit  measured%*s     gate     bias  mean %s\n", intervals ? CI_COLUMN + 2 : 0,
            intervals ? "95% interval" : "", r->gate[r->carry].name);
    for (int i = 0; i < n; i++) {
        const gt_unit_row *u = &r->unit_table[order[i]];
        char b[32], c[32];
        fprintf(f, "  %4d", order[i]);
        print_measured(f, r, u, intervals);
        fprintf(f, "  %7s  %7s  %6.4f\n", steps(u->halflife, r->K, 0, b, sizeof b),
                steps(u->halflife_bias, r->K, 0, c, sizeof c), r->unit_mean[order[i]]);
    }
}

/* A half-life's bin: < 1, then one per power of two, >= 128 last (an infinite one too: a
 * carry gate of exactly 1); a half-life not known (NaN: the state overflowed) is UNKNOWN. */
#define UNKNOWN (NBINS + 1)
static int bin_of(double v)
{
    if (isnan(v))
        return UNKNOWN;
    if (!(v >= 1))
        return 0;
    if (!(v < 1 << (NBINS - 2)))
        return NBINS - 1;
    return 1 + (int)floor(log2(v));
}

static void bin_label(char *lab, size_t n, int b, int K)
{
    if (b == 0)
        snprintf(lab, n, "< 1");
    else if (b == NBINS - 1)
        snprintf(lab, n, ">= %d", 1 << (b - 1));
    else if (b == NBINS)
        snprintf(lab, n, "> %d (none)", K);
    else if (b == UNKNOWN)
        snprintf(lab, n, "not known");
    else
        snprintf(lab, n, "%d - %d", 1 << (b - 1), 1 << b);
}

static void print_histogram(FILE *f, const gt_report *r)
{
    int cnt[3][UNKNOWN + 1] = {{0}};
    for (int j = 0; j < model_width(r->m, r->layer); j++) {
        const gt_unit_row *u = &r->unit_table[j];
        cnt[0][bin_of(u->halflife)]++;
        cnt[1][bin_of(u->halflife_bias)]++;
        if (u->measured_ci.beyond || !isnan(u->halflife_measured)) /* a unit the edits
                                                                        do not move: none */
            cnt[2][u->measured_ci.beyond ? NBINS : bin_of(u->halflife_measured)]++;
    }
    fprintf(f, "\nUnits by half-life in steps (log axis)\n");
    fprintf(f, "  half-life    gate   bias  measured\n");
    for (int b = 0; b <= UNKNOWN; b++) {
        char lab[32];
        if (b == UNKNOWN && !cnt[0][b] && !cnt[1][b])
            break;
        bin_label(lab, sizeof lab, b, r->K);
        fprintf(f, "  %-11s %5d  %5d  %8d\n", lab, cnt[0][b], cnt[1][b], cnt[2][b]);
    }
}

/* A plain RNN's table: no gates, so only the measured half-lives. */
static void print_measured_only(FILE *f, const gt_report *r, int *order, int intervals)
{
    const int H = model_width(r->m, r->layer), n = H < TOP ? H : TOP;
    char pairs[32];
    unittable_order(r->unit_table, H, 0, unittable_column(UT_MEASURED, 0, 0), 0, order);
    fprintf(f, "\nUnits one by one: half-lives in steps of the unit's own difference over\n"
               "the %s (no gate to set beside them%s)\n  unit  measured%*s\n",
            report_count(r->pairs, "pair", pairs, sizeof pairs),
            intervals ? "" : "; intervals: a wider view",
            intervals ? CI_COLUMN + 2 : 0, intervals ? "95% interval" : "");
    for (int i = 0; i < n; i++) {
        fprintf(f, "  %4d", order[i]);
        print_measured(f, r, &r->unit_table[order[i]], intervals);
        fputc('\n', f);
    }
}

void unittable_print(FILE *f, const gt_report *r, int intervals)
{
    const int H = model_width(r->m, r->layer);
    if (!r->unit_table || r->carry >= r->ngates || !r->pairs)
        return;
    int *order = malloc((size_t)H * sizeof *order);
    if (!order)
        return;
    if (r->carry < 0) {
        print_measured_only(f, r, order, intervals);
        free(order);
        return;
    }
    char pairs[32];
    fprintf(f, "\nUnits one by one: half-lives in steps of the unit's own difference over\n"
               "the %s (measured), from its mean %s gate (gate) and from that\ngate's bias "
               "alone (bias)\n",
            report_count(r->pairs, "pair", pairs, sizeof pairs), r->gate[r->carry].name);
    print_top(f, r, order, 1, intervals);
    print_top(f, r, order, 0, intervals);
    int twice = 0, endless = 0;
    for (int j = 0; j < H; j++) {
        const double g = r->unit_table[j].halflife;
        endless += isinf(g);
        twice += isfinite(g) && measured(&r->unit_table[j]) >= 2 * g;
    }
    fprintf(f, "\n%d of %d units remember at least twice as long as their gate implies\n"
               "(measured >= 2 x gate; a measured half-life past %d counts as longer)\n",
            twice, H, r->K);
    if (endless)
        fprintf(f, "%d unit%s a mean %s gate of exactly 1 (an infinite half-life)\n", endless,
                endless == 1 ? " has" : "s have", r->gate[r->carry].name);
    print_histogram(f, r);
    free(order);
}
