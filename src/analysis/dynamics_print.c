/* Printing the whole state's dynamics: the Lyapunov spectrum and the eigenvalues at a step,
 * as tables or JSON (doc/usage.md, "--lyapunov", "--spectrum"). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "analysis/jsonout.h"
#include "gatetui/dynamics.h"

static int done(FILE *f, gt_error *e)
{
    if (fflush(f) || ferror(f))
        return gt_fail(e, GT_EFAIL, "error writing the dynamics");
    return GT_OK;
}

static const char *hl_text(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

static json_t *num_array(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, jsonout_num(v[i]));
    return a;
}

int lyapunov_print_text(FILE *f, const gt_lyapunov *l, const double report_hl[3], gt_error *e)
{
    char a[32], b[32], c[32], d[32];
    int slow = 0;
    for (int i = 0; i < l->modes; i++)
        slow += !isnan(l->halflife[i]) && l->halflife[i] >= 10;
    fprintf(f, "layer %d: Lyapunov spectrum over steps %zu..%zu (%d modes), per character\n",
            l->layer, l->warmup, l->steps - 1, l->modes);
    fprintf(f, "half-lives (characters): slowest mode %s; the report's measured %s, "
               "linearized %s, forget-only %s\n",
            hl_text(l->halflife[0], a, sizeof a), hl_text(report_hl[0], b, sizeof b),
            hl_text(report_hl[1], c, sizeof c), hl_text(report_hl[2], d, sizeof d));
    fprintf(f, "modes with a half-life of 10 or more: %d\n", slow);
    fprintf(f, "mode      exponent   half-life\n");
    for (int i = 0; i < l->modes; i++)
        fprintf(f, "%4d  %12.6g  %10s\n", i, l->exponent[i], hl_text(l->halflife[i], a, sizeof a));
    return done(f, e);
}

int lyapunov_print_json(FILE *f, const gt_lyapunov *l, gt_error *e)
{
    json_t *root = json_object();
    json_object_set_new(root, "layer", json_integer(l->layer));
    json_object_set_new(root, "steps", json_integer((json_int_t)l->steps));
    json_object_set_new(root, "warmup", json_integer((json_int_t)l->warmup));
    json_object_set_new(root, "modes", json_integer(l->modes));
    json_object_set_new(root, "exponents", num_array(l->exponent, (size_t)l->modes));
    json_object_set_new(root, "halflives", num_array(l->halflife, (size_t)l->modes));
    if (jsonout_write(f, root, 2, JSONOUT_JACOBIAN))
        return gt_fail(e, GT_EFAIL, "error writing the dynamics");
    return GT_OK;
}

int spectrum_print_text(FILE *f, const gt_spectrum *s, gt_error *e)
{
    char a[32];
    fprintf(f, "layer %d, step %zu: eigenvalues of the step's Jacobian by modulus, against "
               "the carry gates sorted\n", s->layer, s->step);
    fprintf(f, "   i            re            im           |l|   half-life         carry\n");
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "%4d  %12.6g  %12.6g  %12.6g  %10s", i, s->re[i], s->im[i], s->abs[i],
                hl_text(s->halflife[i], a, sizeof a));
        if (i < s->H)
            fprintf(f, "  %12.6g", s->carry[i]);
        fputc('\n', f);
    }
    return done(f, e);
}

int spectrum_print_json(FILE *f, const gt_spectrum *s, gt_error *e)
{
    json_t *root = json_object(), *ev = json_array();
    json_object_set_new(root, "step", json_integer((json_int_t)s->step));
    json_object_set_new(root, "layer", json_integer(s->layer));
    for (int i = 0; i < s->n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "re", jsonout_num(s->re[i]));
        json_object_set_new(o, "im", jsonout_num(s->im[i]));
        json_object_set_new(o, "abs", jsonout_num(s->abs[i]));
        json_object_set_new(o, "halflife", jsonout_num(s->halflife[i]));
        json_array_append_new(ev, o);
    }
    json_object_set_new(root, "eigenvalues", ev);
    json_object_set_new(root, "carry_sorted", num_array(s->carry, (size_t)s->H));
    if (jsonout_write(f, root, 2, JSONOUT_JACOBIAN))
        return gt_fail(e, GT_EFAIL, "error writing the dynamics");
    return GT_OK;
}
