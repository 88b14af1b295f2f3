/* Printing the effect (effect.h): a table per regular expression, or JSON built with
 * jansson. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "gatetui/fileio.h"
#include "gatetui/effect.h"
#include "gatetui/utf8.h"

/* A signed number in bits, or "-" where there is none. */
static const char *bits(char *buf, size_t n, double v, int sign)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, sign ? "%+.5f" : "%.5f", v);
    return buf;
}

static const char *interval(char *buf, size_t n, double lo, double hi)
{
    char a[32], b[32];
    if (isnan(lo) || isnan(hi))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "[%s, %s]", bits(a, sizeof a, lo, 1), bits(b, sizeof b, hi, 1));
    return buf;
}

/* A row of the table, 75 columns (a sheet of the screen at 80 shows it whole): the name,
 * count, losses without and with, delta and its interval; the specificity's row has its
 * value under the deltas, LABEL_WIDTH columns after the indent. The accuracies without and
 * with follow in a table of their own (ACC_ROW). */
#define ROW "  %-8s %7s  %12s  %9s  %8s  %s\n"
#define LABEL_WIDTH (8 + 1 + 7 + 2 + 12 + 2 + 9 + 2)
#define ACC_ROW "  %-8s %13s  %6s\n"

static void class_row(FILE *f, const char *name, const gt_effect_class *c)
{
    char n[32], l0[32], l1[32], d[32], ci[80];
    fprintf(f, ROW, name,
            report_commas(c->count, n, sizeof n), bits(l0, sizeof l0, c->loss_without, 0),
            bits(l1, sizeof l1, c->loss_with, 0), bits(d, sizeof d, c->delta, 1),
            interval(ci, sizeof ci, c->ci_lo, c->ci_hi));
}

static void acc_row(FILE *f, const char *name, const gt_effect_class *c)
{
    char a0[32], a1[32];
    snprintf(a0, sizeof a0, isnan(c->acc_without) ? "-" : "%.4f", c->acc_without);
    snprintf(a1, sizeof a1, isnan(c->acc_with) ? "-" : "%.4f", c->acc_with);
    fprintf(f, ACC_ROW, name, a0, a1);
}

/* A set's units, every one, "3,17,200", from column col on, lines broken after a comma
 * before column 80 and the next ones indented to column indent; then the line's end. */
static void put_units(FILE *f, const int *u, int k, int col, int indent)
{
    for (int x = 0; x < k; x++) {
        char w[24];
        const int l = snprintf(w, sizeof w, "%d%s", u[x], x + 1 < k ? "," : "");
        if (x > 0 && col + l > 80) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        }
        fputs(w, f);
        col += l;
    }
    fputc('\n', f);
}

/* A control set, for sorting them: its units (ascending) and their count. */
typedef struct set_ref {
    const int *u;
    size_t n;
} set_ref;

static int by_units(const void *a, const void *b)
{
    const set_ref *x = a, *y = b;
    for (size_t i = 0; i < x->n; i++)
        if (x->u[i] != y->u[i])
            return x->u[i] < y->u[i] ? -1 : 1;
    return 0;
}

/* How many of the control sets repeat one drawn before them (each set is drawn afresh:
 * measures.md, "The effect"): the sets less the distinct ones, by sorting (-1: no memory
 * to count them). */
static int repeated_sets(const gt_effect *r)
{
    const size_t n = (size_t)r->set_size, R = (size_t)r->controls;
    if (R < 2)
        return 0;
    set_ref *s = malloc(R * sizeof *s);
    if (!s)
        return -1;
    for (size_t k = 0; k < R; k++)
        s[k] = (set_ref){r->sets + k * n, n};
    qsort(s, R, sizeof *s, by_units);
    int repeats = 0;
    for (size_t k = 1; k < R; k++)
        repeats += by_units(&s[k - 1], &s[k]) == 0;
    free(s);
    return repeats;
}

/* The controls' rows: the deltas, then the set's units (every one, the lines broken). */
#define CONTROL_ROW "    %9s  %9s  %11s  "
#define CONTROL_UNITS (4 + 9 + 2 + 9 + 2 + 11 + 2)

static void controls_table(FILE *f, const gt_effect *r, const gt_effect_one *o)
{
    char a[32], b[32], c[32], nc[32];
    if (!r->controls)
        return;
    if (o->rank < 0)
        fprintf(f, "  controls: no rank (the tested set has no specificity)\n");
    else
        fprintf(f, "  controls: rank %d of %s (specificity at least the tested set's), p = %.4f\n",
                o->rank, report_commas((size_t)r->controls, nc, sizeof nc), o->p);
    fprintf(f, CONTROL_ROW "units\n", "inside", "outside", "specificity");
    for (int k = 0; k < r->controls; k++) {
        const double *x = o->control + (size_t)k * 3;
        fprintf(f, CONTROL_ROW, bits(a, sizeof a, x[0], 1), bits(b, sizeof b, x[1], 1),
                bits(c, sizeof c, x[2], 1));
        put_units(f, r->sets + (size_t)k * r->set_size, r->set_size, CONTROL_UNITS,
                  CONTROL_UNITS);
    }
}

static void header(FILE *f, const gt_effect *r, const char *interventions)
{
    char n[48], l[48];
    fprintf(f, "Effect of %s\nover %zu window%s of %s from zero state, %s\n",
            interventions && *interventions ? interventions : "nothing", r->windows,
            r->windows == 1 ? "" : "s", report_count(r->window_len, r->step_noun, l, sizeof l),
            report_count(r->predictions, "prediction", n, sizeof n));
    if (r->controls) {
        fprintf(f, "controls: %s of %d unit%s drawn from layer %d's %d others (seed %llu)\n",
                report_count((size_t)r->controls, "set", n, sizeof n), r->set_size,
                r->set_size == 1 ? "" : "s", r->layer, r->others, r->seed);
        const int repeats = repeated_sets(r);
        if (r->others == r->set_size && r->controls > 1)
            fprintf(f, "(every one the same: the others are as many as the tested set)\n");
        else if (repeats > 0)
            fprintf(f, "(%d of them repeat%s a set drawn before: each set is drawn afresh)\n",
                    repeats, repeats == 1 ? "s" : "");
        fputs("the tested set: ", f);
        put_units(f, r->tested, r->set_size, 16, 16);
    } else if (r->set_size)
        fprintf(f, "controls: none (--controls 0)\n");
    else
        fprintf(f, "controls: none (drawn for units of one layer ablated, and nothing else)\n");
}

int effect_print_text(FILE *f, const gt_effect *r, const char *interventions, gt_error *e)
{
    header(f, r, interventions);
    for (int x = 0; x < r->nregex; x++) {
        const gt_effect_one *o = &r->e[x];
        char d[32], ci[80], re[512];
        fprintf(f, "\n\"%s\": predicting a %s inside a match, against the others "
                   "(bits/%s)\n", utf8_printable(re, sizeof re, o->regex), r->step_noun,
                r->step_abbr);
        fprintf(f, ROW, "", "count", "loss without", "loss with", "delta", "95% interval");
        class_row(f, "inside", &o->in);
        class_row(f, "outside", &o->out);
        fprintf(f, "  %-*s%8s  %s\n", LABEL_WIDTH, "specificity (inside - outside)",
                bits(d, sizeof d, o->spec, 1), interval(ci, sizeof ci, o->spec_lo, o->spec_hi));
        fprintf(f, ACC_ROW, "accuracy", "without", "with");
        acc_row(f, "inside", &o->in);
        acc_row(f, "outside", &o->out);
        controls_table(f, r, o);
    }
    if (file_flushed(f, "the effect", e))
        return GT_EFAIL;
    return GT_OK;
}

static json_t *pair(double lo, double hi)
{
    return json_pack("[o, o]", jsonout_num(lo), jsonout_num(hi));
}

static json_t *class_json(const gt_effect_class *c)
{
    return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "count", (json_int_t)c->count,
                     "loss_without", jsonout_num(c->loss_without), "loss_with",
                     jsonout_num(c->loss_with), "delta", jsonout_num(c->delta), "delta_ci",
                     pair(c->ci_lo, c->ci_hi), "accuracy_without", jsonout_num(c->acc_without),
                     "accuracy_with", jsonout_num(c->acc_with));
}

static json_t *controls_json(const gt_effect *r, const gt_effect_one *o)
{
    json_t *a = json_array();
    for (int k = 0; k < r->controls; k++) {
        json_t *u = json_array();
        for (int x = 0; x < r->set_size; x++)
            json_array_append_new(u, json_integer(r->sets[(size_t)k * r->set_size + x]));
        const double *v = o->control + (size_t)k * 3;
        json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o}", "units", u, "inside",
                                           jsonout_num(v[0]), "outside", jsonout_num(v[1]),
                                           "specificity", jsonout_num(v[2])));
    }
    return a;
}

int effect_print_json(FILE *f, const gt_effect *r, const char *interventions, gt_error *e)
{
    json_t *root = json_object(), *effects = json_array();
    json_object_set_new(root, "intervention", json_string(interventions ? interventions : ""));
    json_object_set_new(root, "layer", r->layer >= 0 ? json_integer(r->layer) : json_null());
    json_object_set_new(root, "windows", json_integer((json_int_t)r->windows));
    for (int x = 0; x < r->nregex; x++) {
        const gt_effect_one *o = &r->e[x];
        json_t *one = json_object(), *re = json_string(o->regex);
        char shown[512];
        if (!re) /* not UTF-8: its bytes shown as ? */
            re = json_string(utf8_printable(shown, sizeof shown, o->regex));
        json_object_set_new(one, "regex", re);
        json_object_set_new(one, "inside", class_json(&o->in));
        json_object_set_new(one, "outside", class_json(&o->out));
        json_object_set_new(one, "specificity", jsonout_num(o->spec));
        json_object_set_new(one, "specificity_ci", pair(o->spec_lo, o->spec_hi));
        json_object_set_new(one, "controls", controls_json(r, o));
        json_object_set_new(one, "rank", o->rank >= 0 ? json_integer(o->rank) : json_null());
        json_object_set_new(one, "p", jsonout_num(o->p));
        json_array_append_new(effects, one);
    }
    json_object_set_new(root, "effects", effects);
    return jsonout_print(f, root, 2, JSONOUT_MEASURES, "the effect", e);
}
