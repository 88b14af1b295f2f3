/* --figure FILE KIND: a figure for a paper as SVG, PDF or PNG, and its numbers as FILE.csv
 * (doc/usage.md, "Figures"; doc/figures.md): the numbers come from the modes that compute
 * them (the report of each model, its Lyapunov spectrum, a unit's values along the text),
 * all computed before anything is drawn. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steptext.h"
#include "cli/cli.h"
#include "gatetui/fileio.h"
#include "figure/kinds.h"
#include "gatetui/compare.h"
#include "gatetui/editarg.h"
#include "gatetui/finding.h"
#include "gatetui/pathname.h"
#include "gatetui/perturb.h"
#include "gatetui/run.h"
#include "gatetui/signals.h"

#define UNIT_STEPS 100 /* the unit figure's steps when --to is not given */

/* A plain RNN has no carry gate: no half-life from it, no forget-only curve to set beside. */
static int need_carry(const gt_session *s, const char *kind, gt_error *e)
{
    for (int k = 0; k < s->n; k++)
        if (s->model[k].mi.cell->carry < 0)
            return gt_fail(e, GT_EINPUT, "--figure %s: %s is a %s, without a carry gate (the "
                           "%s figure draws each unit's half-life from it)", kind,
                           s->model[k].name, s->model[k].mi.cell->noun, kind);
    return GT_OK;
}

/* Model k's part of a figure made from its report. */
static void from_report(int kind, const gt_report *r, const char *name, fig_pert *p,
                        fig_units *u, gt_compare_col *col)
{
    const gt_celltype *cell = r->m->cell;
    if (kind == FIG_PERTURBATION)
        *p = (fig_pert){name, r->K,
                        {cell->has_c ? r->curve_cell : NULL, r->curve_hidden,
                         r->curve_linearized, cell->carry >= 0 ? r->curve_forget_only : NULL},
                        {r->hl_cell, r->hl_hidden, r->hl_linearized, r->hl_forget_only},
                        {r->ci_cell, r->ci_hidden, r->ci_linearized, r->ci_forget_only},
                        !cell->has_c && cell->carry >= 0};
    else if (kind == FIG_HALFLIVES)
        *u = (fig_units){name, r->unit_table, model_width(r->m, r->layer), r->K,
                         r->gate[r->carry].name};
    else
        compare_col(col, r, name);
}

typedef struct parts {
    gt_report r[FIG_MAX_CHECKPOINTS];
    fig_pert p[FIG_MAX_CHECKPOINTS];
    fig_units u[FIG_MAX_CHECKPOINTS];
    gt_compare_col col[FIG_MAX_CHECKPOINTS];
    int done;
} parts;

/* The perturbation, half-lives and checkpoints figures: each model's report, then the
 * figure made from them all. */
static int figure_reports(const cli *c, gt_session *s, int kind, fig_doc *d, fig_where *w,
                          gt_error *e)
{
    if (kind == FIG_HALFLIVES && need_carry(s, "halflives", e))
        return GT_EINPUT;
    parts *pt = calloc(1, sizeof *pt);
    if (!pt)
        return gt_fail(e, GT_EFAIL, "out of memory");
    int rc = GT_OK;
    for (; rc == GT_OK && pt->done < s->n; pt->done++) {
        const int k = pt->done;
        if ((rc = session_text_for(s, k, e)) != GT_OK ||
            (rc = cli_report_one(c, &s->model[k], &s->text, &pt->r[k], e)) != GT_OK)
            break;
        from_report(kind, &pt->r[k], s->model[k].name, &pt->p[k], &pt->u[k],
                    &pt->col[k]);
    }
    int back = session_text_for(s, 0, e);
    rc = rc ? rc : back;
    size_t pairs = 0; /* the curves and the units' half-lives need the report's pairs */
    for (int k = 0; k < pt->done; k++)
        pairs += pt->r[k].pairs;
    if (rc == GT_OK && !pairs && kind != FIG_CHECKPOINTS)
        rc = gt_fail(e, GT_EINPUT, "%s: nothing to draw: no pairs (%s)", w->text,
                     pt->r[0].full_windows
                         ? "no replacement changed the state"
                         : "no window is full: the text is shorter than one window");
    char what[1400];
    /* intervals where the figure draws them: the half-lives figure none, the others where
       a report has the two windows with pairs a jackknife needs */
    int intervals = 0;
    for (int k = 0; k < pt->done && kind != FIG_HALFLIVES; k++)
        intervals |= pt->r[k].ci_windows >= 2;
    if (rc == GT_OK) { /* how the first model's report computed them */
        gt_compare_col first;
        compare_col(&first, &pt->r[0], s->model[0].name);
        w->what = fig_report_what(&first, intervals, s->model[0].what, what, sizeof what);
    }
    if (rc == GT_OK)
        rc = kind == FIG_PERTURBATION ? fig_perturbation(d, pt->p, s->n, w, e)
             : kind == FIG_HALFLIVES  ? fig_halflives(d, pt->u, s->n, w, e)
                                      : fig_checkpoints(d, pt->col, s->n, w, e);
    w->what = NULL; /* what pointed into this frame */
    for (int k = 0; k < pt->done; k++)
        report_free(&pt->r[k]);
    free(pt);
    return rc;
}

/* One model's curves of the last edit given (--edit, --edits) against the text with the
 * edits before it made, as the perturbation panel computes them (doc/measures.md,
 * "Perturbation"): a float32 run to the edit, then the perturbation from its state over
 * K steps; copied into curves ([FIG_CURVES][K+1]) with the edit's step and tokens. */
static int edit_curves(const cli *c, const gt_session_model *ms, const gt_text *t, int K,
                       fig_pert *out, double *curves, gt_editreq *last, int *from,
                       gt_error *e)
{
    gt_editlist l;
    int rc = editlist_parse(&l, ms->base, t, c->edits, c->nedits, e);
    if (rc == GT_OK && !l.n)
        rc = gt_fail(e, GT_EINPUT, "--figure perturbation: %s holds no edit", c->edits[0].arg);
    uint16_t *tok = NULL, *before = NULL;
    if (rc == GT_OK && (!(tok = malloc(t->steps * sizeof *tok)) ||
                        !(before = malloc(t->steps * sizeof *before))))
        rc = gt_fail(e, GT_EFAIL, "out of memory for the edits");
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    gt_run r = {0};
    gt_perturb pt = {0};
    int have_run = 0, have_pt = 0;
    if (rc == GT_OK) {
        memcpy(tok, t->tok, t->steps * sizeof *tok);
        for (size_t i = 0; i < l.n; i++) {
            if (i + 1 == l.n)
                memcpy(before, tok, t->steps * sizeof *tok);
            tok[l.at[i].step] = (uint16_t)l.at[i].tok;
        }
        *last = l.at[l.n - 1];
        *from = before[last->step];
        rc = run_init(&r, &ms->mi, e);
        have_run = rc == GT_OK;
    }
    for (size_t i = 0; rc == GT_OK && i < last->step; i++) {
        run_step(&r, tok[i]);
        rc = run_check_finite(&r, ms->mi.layers - 1, i, e);
    }
    if (rc == GT_OK)
        have_pt = (rc = perturb_init(&pt, &ms->mi, layer, K, 1, e)) == GT_OK;
    if (rc == GT_OK) {
        const size_t left = t->steps - last->step;
        const size_t n = left < (size_t)K + 1 ? left : (size_t)K + 1;
        const gt_perturb_result *res =
            perturb_one(&pt, r.h, r.c, before + last->step, tok + last->step, n);
        char at[32];
        if (!res || res->K == 0)
            rc = gt_fail(e, GT_EINPUT, "--figure perturbation: the edit at step %s is the "
                         "text's last step: no step after it to measure",
                         report_commas(last->step, at, sizeof at));
        else if (!(res->dh[0] > 0) && !(res->dc && res->dc[0] > 0))
            rc = gt_fail(e, GT_EINPUT, "--figure perturbation: the edit at step %s changes "
                         "nothing (no difference at k = 0: the token there already?)",
                         report_commas(last->step, at, sizeof at));
        else {
            fig_pert_of_edit(out, ms->name, ms->mi.cell, res);
            for (int k = 0; k < FIG_CURVES; k++)
                if (out->curve[k]) { /* the result lives until the perturbation is freed */
                    memcpy(curves + (size_t)k * (size_t)(K + 1), out->curve[k],
                           (size_t)(res->K + 1) * sizeof *curves);
                    out->curve[k] = curves + (size_t)k * (size_t)(K + 1);
                }
        }
    }
    if (have_pt)
        perturb_free(&pt);
    if (have_run)
        run_free(&r);
    free(tok);
    free(before);
    editlist_free(&l);
    return rc;
}

/* The perturbation figure of the edits given: each model's curves of the last edit. */
static int figure_edits(const cli *c, gt_session *s, fig_doc *d, fig_where *w, gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    cli_progress_end(&p);
    const int K = o.horizon > 0 ? (int)o.horizon : REPORT_HORIZON;
    fig_pert m[FIG_MAX_MODELS];
    double *curves = malloc((size_t)s->n * FIG_CURVES * (size_t)(K + 1) * sizeof *curves);
    if (!curves)
        return gt_fail(e, GT_EFAIL, "out of memory for the curves");
    gt_editreq last = {0};
    int from = 0, rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < s->n; k++)
        if ((rc = session_text_for(s, k, e)) == GT_OK)
            rc = edit_curves(c, &s->model[k], &s->text, K, &m[k],
                             curves + (size_t)k * FIG_CURVES * (size_t)(K + 1), &last, &from, e);
    int back = session_text_for(s, 0, e);
    rc = rc ? rc : back;
    char what[1400], a[160], b[160], at[32];
    if (rc == GT_OK) {
        const gt_model *m0 = &s->model[0].mi;
        steptext_name(m0, from, STEPTEXT_UTF8, a, sizeof a);
        steptext_name(m0, last.tok, STEPTEXT_UTF8, b, sizeof b);
        size_t len = (size_t)snprintf(what, sizeof what, "the edit at step %s (%s to %s) "
                                      "against the text %s, one run of each, K = %d%s",
                                      report_commas(last.step, at, sizeof at), a, b,
                                      c->nedits > 1 || c->edits[0].kind == 'f'
                                          ? "with the edits before it" : "before it",
                                      m[0].K, m[0].K < K ? " (the text ends)" : "");
        if (s->model[0].what[0] && len < sizeof what)
            snprintf(what + len, sizeof what - len, "; interventions: %s", s->model[0].what);
        w->what = what;
        rc = fig_perturbation(d, m, s->n, w, e);
    }
    w->what = NULL;
    free(curves);
    return rc;
}

static int figure_lyapunov(const cli *c, gt_session *s, fig_doc *d, fig_where *w, gt_error *e)
{
    gt_lyapunov l[FIG_MAX_MODELS];
    fig_spectrum m[FIG_MAX_MODELS];
    int done = 0, rc = GT_OK;
    for (; rc == GT_OK && done < s->n; done++) {
        if ((rc = session_text_for(s, done, e)) != GT_OK ||
            (rc = cli_lyapunov(c, &s->model[done], &s->text, &l[done], e)) != GT_OK)
            break;
        m[done] = (fig_spectrum){s->model[done].name, &l[done]};
    }
    int back = session_text_for(s, 0, e);
    rc = rc ? rc : back;
    w->what = s->model[0].what[0] ? s->model[0].what : NULL;
    if (rc == GT_OK)
        rc = fig_lyapunov(d, m, s->n, w, e);
    for (int k = 0; k < done; k++)
        lyapunov_free(&l[k]);
    return rc;
}

/* The unit figure's unit, signal and steps, checked against every model and the text. */
static int unit_span(const cli *c, const gt_session *s, fig_unit_span *u, int *sig,
                     gt_error *e)
{
    if (c->find.unit < 0)
        return gt_fail(e, GT_EINPUT, "--figure unit needs --unit J");
    const size_t T = s->text.steps;
    u->from = (size_t)c->from;
    u->to = c->to == LONG_MAX ? u->from + UNIT_STEPS - 1 : (size_t)c->to;
    if (u->to >= T && c->to == LONG_MAX)
        u->to = T - 1;
    if (u->from >= T || u->to >= T)
        return gt_fail(e, GT_EINPUT, "--%s %zu: outside the text (steps 0..%zu)",
                       u->from >= T ? "from" : "to", u->from >= T ? u->from : u->to, T - 1);
    for (int k = 0; k < s->n; k++) {
        const gt_model *m = &s->model[k].mi;
        const int layer = c->layer < 0 ? 0 : (int)c->layer;
        const int H = model_width(m, layer);
        char who[24];
        if ((sig[k] = find_pick_signal(m, c->find.signal, e)) < 0)
            return e->code;
        if (c->find.unit >= H)
            return gt_fail(e, GT_EINPUT, "--unit %ld: %s of %s has %d units (0..%d)",
                           c->find.unit, model_units_of(m, layer, who, sizeof who),
                           s->model[k].name, H, H - 1);
    }
    u->unit = (int)c->find.unit;
    u->signal = signals_name(&s->model[0].mi, sig[0]);
    u->m = &s->model[0].mi;
    u->tok = s->text.tok;
    return GT_OK;
}

static int figure_unit(const cli *c, gt_session *s, fig_doc *d, fig_where *w, gt_error *e)
{
    fig_unit_span u = {0};
    int sig[FIG_MAX_MODELS];
    int rc = unit_span(c, s, &u, sig, e);
    if (rc)
        return rc;
    const size_t N = u.to - u.from + 1;
    float *v = malloc((size_t)s->n * N * sizeof *v);
    fig_signal m[FIG_MAX_MODELS];
    if (!v)
        return gt_fail(e, GT_EFAIL, "out of memory for %zu values", (size_t)s->n * N);
    const gt_pass_options po = {w->layer, c->env.threads < 0 ? 1 : c->env.threads, NULL, NULL};
    for (int k = 0; rc == GT_OK && k < s->n; k++) {
        m[k] = (fig_signal){s->model[k].name, v + (size_t)k * N};
        if ((rc = session_text_for(s, k, e)) == GT_OK)
            rc = signals_collect(&s->model[k].mi, s->text.tok, &po, sig[k], u.unit, u.from,
                                 u.to, v + (size_t)k * N, e);
    }
    int back = session_text_for(s, 0, e);
    rc = rc ? rc : back;
    w->what = s->model[0].what[0] ? s->model[0].what : NULL;
    if (rc == GT_OK)
        rc = fig_unit(d, m, s->n, &u, w, e);
    free(v);
    return rc;
}

static int figure_run(const cli *c, gt_session *s, gt_error *e)
{
    const char *path = c->mode_arg;
    const int kind = fig_kind_of(c->mode_word);
    const int most = kind == FIG_CHECKPOINTS ? FIG_MAX_CHECKPOINTS : FIG_MAX_MODELS;
    if (s->n > most)
        return gt_fail(e, GT_EINPUT, "--figure %s: at most %d models in one figure, not %d",
                       c->mode_word, most, s->n);
    int rc = fig_check_path(path, e); /* before anything is computed */
    if (rc)
        return rc;
    for (int k = 0; k < s->n; k++)
        cli_say_interventions(&s->model[k]);
    char text_name[256];
    path_name_among(text_name, sizeof text_name, (const char *const *)&s->text.path, 1, 0);
    fig_where w = {text_name, s->text.steps, c->layer < 0 ? 0 : (int)c->layer,
                   NULL, s->model[0].base->words};
    if (c->nedits && kind != FIG_PERTURBATION)
        return gt_fail(e, GT_EINPUT, "--figure %s: --edit and --edits go with the "
                       "perturbation figure (the curves of the last edit)", c->mode_word);
    fig_doc d;
    rc = c->nedits              ? figure_edits(c, s, &d, &w, e)
         : kind == FIG_LYAPUNOV ? figure_lyapunov(c, s, &d, &w, e)
         : kind == FIG_UNIT   ? figure_unit(c, s, &d, &w, e)
                              : figure_reports(c, s, kind, &d, &w, e);
    if (rc)
        return rc;
    rc = fig_write(&d, path, e);
    fig_doc_free(&d);
    if (rc == GT_OK) {
        printf("%s: the %s figure of %d model%s; its numbers in %s.csv\n", path, c->mode_word,
               s->n, s->n == 1 ? "" : "s", path);
        rc = file_flushed(stdout, "the output", e);
    }
    return rc;
}

/* An empty FILE is bad usage, as is one that is no figure's. */
static int figure_check(const cli *c, gt_error *e)
{
    if (!c->mode_arg || !*c->mode_arg)
        return gt_fail(e, GT_EINPUT, "--figure needs a file name ending in .svg, .pdf or .png");
    return GT_OK;
}

const cli_mode cli_mode_figure = {
    .name = "figure",
    .option = "figure",
    .flags = MODE_EDITS,
    .arg = 1,
    .word = "KIND",
    .words = fig_kind_words,
    .check = figure_check,
    .run = figure_run,
    .usage = "--figure FILE KIND [--layer N] [--windows N] [--window-len L] [--horizon K] "
             "[--modes M] [--steps N] [--warmup W] [--unit J] [--signal s] [--from A] [--to B] "
             "[--edit S:C ... | --edits FILE] MODEL [MODEL ...] TEXT",
    .help = "  --figure FILE KIND  a figure for a paper into FILE (.svg, .pdf, .png), its\n"
            "                      numbers into FILE.csv; KIND: perturbation, halflives,\n"
            "                      checkpoints (the report's), lyapunov, unit (--unit J);\n"
            "                      perturbation with --edit/--edits: the last edit's curves\n",
};
