/* The report's unit table (doc/measures.md, "The unit table") from the sums the report's
 * pass keeps: built by report.c, printed by report_print.c. */
#ifndef GATETUI_ANALYSIS_UNITTABLE_H
#define GATETUI_ANALYSIS_UNITTABLE_H

#include <stdio.h>

#include <jansson.h>

#include "gatetui/report.h"

typedef struct unittable_sums {
    size_t nwin;             /* windows */
    const double *gate_sum;  /* [nwin][ngates][H]: each gate's sum over a window's positions */
    const unsigned *sat;     /* [nwin][2][H]: the carry gate's values below 0.1, above 0.9 */
    const double *abs_sum;   /* [2 (K+1) H]: sum over the kept pairs of |D_j(k)| at [k H + j],
                                its rounding error (K+1) H further (perturb.h's unit_abs) */
    const double *win_abs;   /* [full windows][2 (K+1) H]: the same over each full window's
                                pairs (the jackknife's intervals) */
} unittable_sums;

/* r->unit_table from the sums, for r's model, layer, gates, positions and horizon. */
int unittable_build(gt_report *r, const unittable_sums *s, gt_error *e);

/* The table's columns: 0 the unit, 1..ngates each gate's mean (in the order of
 * gt_report.gate), then halflife, halflife_bias, halflife_measured, left, right. */
typedef enum gt_unit_col {
    UT_UNIT, UT_MEAN, UT_HALFLIFE, UT_BIAS, UT_MEASURED, UT_LEFT, UT_RIGHT
} gt_unit_col;
int unittable_ncols(int ngates);
/* What column col is; *gate the gate of a mean's column, else -1. */
gt_unit_col unittable_col(int col, int ngates, int *gate);
/* The column of kind (gate: a mean's gate). */
int unittable_column(gt_unit_col kind, int gate, int ngates);
/* Column col of unit's row u (NAN where it has no value). */
double unittable_value(const gt_unit_row *u, int unit, int col, int ngates);
/* order[0..H) the units by column col: the unit column ascending, the others largest
 * first (a measured half-life past the horizon, measured_ci.beyond, longer than any; a
 * value that does not exist, NAN, lowest), equals by unit; reverse: the other way round. */
void unittable_order(const gt_unit_row *rows, int H, int ngates, int col, int reverse,
                     int *order);

/* The table as JSON: [{"unit", "mean": {gate: ...}, "halflife", ...}, ...]. */
json_t *unittable_json(const gt_report *r);

/* The text report's units one by one: the longest-lived (with intervals: each measured
 * half-life's 95% interval beside it), the count of units that remember at least twice as
 * long as their gate implies, and the histogram of the three timescales. */
void unittable_print(FILE *f, const gt_report *r, int intervals);

#endif
