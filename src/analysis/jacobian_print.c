/* Printing the Jacobian against the carry line: a table, the JSON object, the matrix as
 * CSV (doc/usage.md, "--jacobian"). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "analysis/jsonout.h"
#include "gatetui/fileio.h"
#include "gatetui/jacobian.h"
#include "gatetui/report.h"

static int done(FILE *f, gt_error *e)
{
    if (file_flushed(f, "the Jacobian", e))
        return GT_EFAIL;
    return GT_OK;
}

int jacobian_print_text(FILE *f, const gt_jacobian *j, size_t T, int unit, gt_error *e)
{
    const gt_celltype *cl = j->m->cell;
    const char *s = cl->carried;
    char at[32];
    report_commas(T, at, sizeof at);
    if (cl->carry < 0) {
        fprintf(f, "layer %d, step %s: J = d%s_T / d%s_(T-k);\nno carry line: a %s has no "
                   "carry gate (C_jj and |C|_F are -)\n", j->layer, at, s, s, cl->noun);
    } else {
        fprintf(f, "layer %d, step %s: J = d%s_T / d%s_(T-k)\nagainst the carry line C = "
                   "%s_(T-k+1) ... %s_T\n", j->layer, at, s, s, model_gate_name(j->m, cl->carry),
                model_gate_name(j->m, cl->carry));
    }
    fprintf(f, "unit %d: J_jj, the row norm |J_j.| and C_jj;\nover the %d unit%s: |J|_F, |C|_F "
               "and the diagonal's share |diag J| / |J|_F\n", unit, j->H, j->H == 1 ? "" : "s");
    fprintf(f, "%3s %12s %12s %12s %12s %12s %11s\n", "k", "J_jj", "|J_j.|", "C_jj", "|J|_F",
            "|C|_F", "diag share"); /* 80 columns */
    for (int k = 1; k <= j->K; k++) {
        gt_jacobian_lag l;
        jacobian_lag(j, k, unit, &l);
        char c[32], cf[32];
        snprintf(c, sizeof c, isnan(l.carry) ? "-" : "%.6g", l.carry);
        snprintf(cf, sizeof cf, isnan(l.carry_frob) ? "-" : "%.6g", l.carry_frob);
        fprintf(f, "%3d %12.6g %12.6g %12s %12.6g %12s %11.4f\n", k, l.diag, l.row, c,
                l.frob, cf, l.diag_share);
    }
    return done(f, e);
}

int jacobian_print_json(FILE *f, const gt_jacobian *j, size_t T, int unit, gt_error *e)
{
    json_t *root = json_object(), *lags = json_array();
    json_object_set_new(root, "step", json_integer((json_int_t)T));
    json_object_set_new(root, "layer", json_integer(j->layer));
    json_object_set_new(root, "unit", json_integer(unit));
    for (int k = 1; k <= j->K; k++) {
        gt_jacobian_lag l;
        jacobian_lag(j, k, unit, &l);
        json_t *o = json_object(), *u = json_object();
        json_object_set_new(o, "k", json_integer(k));
        json_object_set_new(o, "frob", jsonout_num(l.frob));
        json_object_set_new(o, "carry_frob", jsonout_num(l.carry_frob));
        json_object_set_new(o, "diag_share", jsonout_num(l.diag_share));
        json_object_set_new(u, "diag", jsonout_num(l.diag));
        json_object_set_new(u, "row", jsonout_num(l.row));
        json_object_set_new(u, "carry", jsonout_num(l.carry));
        json_object_set_new(o, "unit", u);
        json_array_append_new(lags, o);
    }
    json_object_set_new(root, "lags", lags);
    return jsonout_print(f, root, 2, JSONOUT_JACOBIAN, "the Jacobian", e);
}

int jacobian_print_matrix(FILE *f, const gt_jacobian *j, gt_error *e)
{
    const size_t H = (size_t)j->H;
    const double *M = jacobian_matrix(j);
    for (size_t i = 0; i < H; i++)
        for (size_t q = 0; q < H; q++)
            fprintf(f, "%.17g%c", M[i * H + q], q + 1 < H ? ',' : '\n');
    return done(f, e);
}
