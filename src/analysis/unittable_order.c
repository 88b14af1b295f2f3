/* The unit table's columns and its rows in the order of one of them (doc/measures.md,
 * "The unit table"): the text report's longest-lived units and the screen's unit table. */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/unittable.h"

int unittable_ncols(int ngates)
{
    return ngates + 6;
}

gt_unit_col unittable_col(int col, int ngates, int *gate)
{
    *gate = col >= 1 && col <= ngates ? col - 1 : -1;
    if (col <= 0)
        return UT_UNIT;
    if (col <= ngates)
        return UT_MEAN;
    return (gt_unit_col)(UT_MEAN + col - ngates);
}

int unittable_column(gt_unit_col kind, int gate, int ngates)
{
    if (kind == UT_UNIT)
        return 0;
    return kind == UT_MEAN ? 1 + gate : ngates + (int)kind - UT_MEAN;
}

double unittable_value(const gt_unit_row *u, int unit, int col, int ngates)
{
    int g;
    switch (unittable_col(col, ngates, &g)) {
    case UT_UNIT: return unit;
    case UT_MEAN: return u->mean[g];
    case UT_HALFLIFE: return u->halflife;
    case UT_BIAS: return u->halflife_bias;
    case UT_MEASURED: return u->halflife_measured;
    case UT_LEFT: return u->left;
    case UT_RIGHT: return u->right;
    }
    return NAN;
}

typedef struct order_ctx {
    const gt_unit_row *rows;
    int col, ngates, reverse, measured;
} order_ctx;

/* Unit i's key: a measured half-life past the horizon is longer than any, a missing value
 * (one that does not exist) lower than any. */
static double key_of(const order_ctx *c, int i)
{
    double x = unittable_value(&c->rows[i], i, c->col, c->ngates);
    if (c->measured && c->rows[i].measured_ci.beyond)
        return INFINITY;
    return isnan(x) ? -INFINITY : x;
}

/* The unit column ascending, the others largest first; reversed; among equals by unit. */
static int by_col(const void *a, const void *b, void *ctx)
{
    const order_ctx *c = ctx;
    const int i = *(const int *)a, j = *(const int *)b;
    double x = key_of(c, i), y = key_of(c, j);
    int r = c->col == 0 ? (x > y) - (x < y) : (x < y) - (x > y);
    if (r == 0)
        r = (i > j) - (i < j);
    return c->reverse ? -r : r;
}

void unittable_order(const gt_unit_row *rows, int H, int ngates, int col, int reverse,
                     int *order)
{
    int g;
    order_ctx c = {rows, col, ngates, reverse, unittable_col(col, ngates, &g) == UT_MEASURED};
    for (int j = 0; j < H; j++)
        order[j] = j;
    qsort_r(order, (size_t)H, sizeof *order, by_col, &c);
}
