/* Printing the whole state's dynamics: the Lyapunov spectrum and the eigenvalues at a step,
 * as tables or JSON (doc/usage.md, "--lyapunov", "--spectrum"). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "gatetui/fileio.h"
#include "gatetui/dynamics.h"
#include "gatetui/report.h"

static int done(FILE *f, gt_error *e)
{
    if (file_flushed(f, "the dynamics", e))
        return GT_EFAIL;
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
    char from[32], to[32], warm[64] = "no warm-up";
    if (l->warmup) /* the Jacobians J_1..J_W left out of the means */
        snprintf(warm, sizeof warm, "steps 1..%s a warm-up", report_commas(l->warmup, a, sizeof a));
    fprintf(f, "layer %d: Lyapunov spectrum, per %s,\nover the text's steps %s..%s (%d modes; "
               "%s)\n",
            l->layer, l->step_noun, report_commas(l->warmup + 1, from, sizeof from),
            report_commas(l->steps, to, sizeof to), l->modes, warm);
    char hw[48] = "";
    if (!isnan(l->halflife_hw[0]))
        snprintf(hw, sizeof hw, " +- %.2f", l->halflife_hw[0]);
    fprintf(f, "half-lives (%ss): slowest mode %s%s;\nthe report's measured %s, "
               "linearized %s, forget-only %s\n",
            l->step_noun, hl_text(l->halflife[0], a, sizeof a), hw, hl_text(report_hl[0], b, sizeof b),
            hl_text(report_hl[1], c, sizeof c), hl_text(report_hl[2], d, sizeof d));
    fprintf(f, "modes with a half-life of 10 or more: %d\n", slow);
    fprintf(f, "+-: %g standard errors by the means of %d batches of the steps summed, a 95%%\n"
               "interval (the half-life's carried to first order); i: lambda_i, largest first\n",
            LYAPUNOV_Z95, LYAPUNOV_BATCHES);
    /* numbered from 1, largest first, as the figure's λ₁, λ₂, ... and its CSV's index */
    fprintf(f, "   i      exponent  +- %g SE   half-life  +- %g SE\n", LYAPUNOV_Z95, LYAPUNOV_Z95);
    for (int i = 0; i < l->modes; i++) {
        const double z = LYAPUNOV_Z95 * l->se[i];
        if (isnan(z))
            snprintf(b, sizeof b, "-");
        else
            snprintf(b, sizeof b, "%.3g", z);
        fprintf(f, "%4d  %12.6g  %10s  %10s  %10s\n", i + 1, l->exponent[i], b,
                hl_text(l->halflife[i], a, sizeof a), hl_text(l->halflife_hw[i], c, sizeof c));
    }
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
    json_object_set_new(root, "stderr", num_array(l->se, (size_t)l->modes));
    json_object_set_new(root, "halflives", num_array(l->halflife, (size_t)l->modes));
    return jsonout_print(f, root, 2, JSONOUT_JACOBIAN, "the dynamics", e);
}

int spectrum_print_text(FILE *f, const gt_spectrum *s, gt_error *e)
{
    char a[32];
    const int carry = !isnan(s->carry[0]); /* a plain RNN has no carry gate */
    fprintf(f, "layer %d, step %s: eigenvalues of the step's Jacobian by modulus\n%s\n",
            s->layer, report_commas(s->step, a, sizeof a),
            carry ? "against the carry gates sorted"
                  : "(a plain RNN: no carry gate to set beside them)");
    fprintf(f, "   i            re            im           |l|   half-life%s\n",
            carry ? "         carry" : "");
    for (int i = 0; i < s->count; i++) {
        fprintf(f, "%4d  %12.6g  %12.6g  %12.6g  %10s", i, s->re[i], s->im[i], s->abs[i],
                hl_text(s->halflife[i], a, sizeof a));
        if (i < s->H && carry)
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
    for (int i = 0; i < s->count; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "re", jsonout_num(s->re[i]));
        json_object_set_new(o, "im", jsonout_num(s->im[i]));
        json_object_set_new(o, "abs", jsonout_num(s->abs[i]));
        json_object_set_new(o, "halflife", jsonout_num(s->halflife[i]));
        json_array_append_new(ev, o);
    }
    json_object_set_new(root, "eigenvalues", ev);
    json_object_set_new(root, "carry_sorted", isnan(s->carry[0]) ? json_null() /* an RNN */
                                                                  : num_array(s->carry, (size_t)s->H));
    return jsonout_print(f, root, 2, JSONOUT_JACOBIAN, "the dynamics", e);
}

/* The held character as the text names it: a word for the blanks, else quoted. */
static const char *char_name(const char *ch, char *buf, size_t len)
{
    if (strcmp(ch, " ") == 0)
        return "space";
    if (strcmp(ch, "\n") == 0)
        return "newline";
    if (strcmp(ch, "\t") == 0)
        return "tab";
    if ((unsigned char)ch[0] < 0x20 || ch[0] == 0x7f)
        snprintf(buf, len, "U+%04X", (unsigned)(unsigned char)ch[0]);
    else
        snprintf(buf, len, "'%s'", ch);
    return buf;
}

/* A point's state, as many values a line as 80 columns take: 7 of up to 10 characters
 * (|values| < 1000), fewer when one is wider, each in the widest one's width. */
static void state_text(FILE *f, const gt_fixed *x, const gt_fixed_point *p)
{
    const int H = x->lstm ? x->n / 2 : x->n;
    char v[64];
    int w = 10;
    for (int q = 0; q < x->n; q++) {
        const int l = snprintf(v, sizeof v, "%.5f", p->state[q]);
        w = l > w ? l : w;
    }
    const int per_line = (80 - 3) / (w + 1) > 0 ? (80 - 3) / (w + 1) : 1;
    for (int part = 0; part * H < x->n; part++) {
        fprintf(f, "  %s", x->lstm ? (part ? "h" : "c") : "h");
        for (int q = 0; q < H; q++)
            fprintf(f, "%s %*.5f", q && q % per_line == 0 ? "\n   " : "", w,
                    p->state[part * H + q]);
        fputc('\n', f);
    }
}

int fixed_print_text(FILE *f, const gt_fixed *x, const char *ch, gt_error *e)
{
    char nb[32], a[32];
    fprintf(f, "layer %d: fixed points under a held %s: %zu point%s, %zu start%s not converged\n"
               "Newton from %zu states of the text's run, each after %zu more steps of it\n",
            x->layer, char_name(ch, nb, sizeof nb), x->count, x->count == 1 ? "" : "s",
            x->not_converged, x->not_converged == 1 ? "" : "s", x->starts, x->hold);
    fprintf(f, "point  found from    residual  max |eigenvalue|  stable  half-life\n");
    for (size_t i = 0; i < x->count; i++) {
        const gt_fixed_point *p = &x->point[i];
        fprintf(f, "%5zu  %10zu  %10.3g  %16.9f  %6s  %9s\n", i, p->found_from, p->residual,
                p->max_abs, p->stable ? "yes" : "no", hl_text(p->halflife, a, sizeof a));
    }
    for (size_t i = 0; i < x->count; i++) {
        fprintf(f, "point %zu, the state:\n", i);
        state_text(f, x, &x->point[i]);
    }
    return done(f, e);
}

int fixed_print_json(FILE *f, const gt_fixed *x, const char *ch, gt_error *e)
{
    json_t *root = json_object(), *pts = json_array();
    json_object_set_new(root, "layer", json_integer(x->layer));
    json_object_set_new(root, x->words ? "token" : "char", json_string(ch));
    json_object_set_new(root, "starts", json_integer((json_int_t)x->starts));
    json_object_set_new(root, "hold", json_integer((json_int_t)x->hold));
    json_object_set_new(root, "not_converged", json_integer((json_int_t)x->not_converged));
    for (size_t i = 0; i < x->count; i++) {
        const gt_fixed_point *p = &x->point[i];
        json_t *o = json_object();
        json_object_set_new(o, "residual", jsonout_num(p->residual));
        json_object_set_new(o, "max_abs_eigenvalue", jsonout_num(p->max_abs));
        json_object_set_new(o, "stable", json_boolean(p->stable));
        json_object_set_new(o, "halflife", jsonout_num(p->halflife));
        json_object_set_new(o, "found_from", json_integer((json_int_t)p->found_from));
        json_object_set_new(o, "state", num_array(p->state, (size_t)x->n));
        json_array_append_new(pts, o);
    }
    json_object_set_new(root, "fixed_points", pts);
    return jsonout_print(f, root, 2, JSONOUT_JACOBIAN, "the fixed points", e);
}
