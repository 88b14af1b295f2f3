/* The figure of what the screen shows (export_paper.h): made by the figure kinds from the
 * views' data as they hold it, written as new files. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/steptext.h"
#include "figure/kinds.h"
#include "gatetui/trace.h"
#include "screen/export_file.h"
#include "screen/export_paper.h"

/* The models drawn: every model's view with several, else this one. */
static const gt_view *model_at(const gt_view *v, int k)
{
    return v->npeers > 1 ? &v->peers[k] : v;
}

static int models(const gt_view *v, int most)
{
    int n = v->npeers > 1 ? v->npeers : 1;
    return n < most ? n : most;
}

/* What the caption says of the numbers: s, and the interventions when there are some. */
static const char *what_of(const gt_view *v, const char *s, char *buf, size_t n)
{
    if (v->ivs && v->ivs->what[0])
        snprintf(buf, n, "%s; interventions: %s", s, v->ivs->what);
    else
        snprintf(buf, n, "%s", s);
    return buf;
}

/* "the edit at step 1,200 ('a' to 'b') against the text before it", or every edit's. */
static void edit_words(const gt_view *v, char *buf, size_t n)
{
    const gt_data_pert *pv = &v->pert;
    char a[80], b[80], s[32];
    steptext_name(v->m, pv->old_tok, STEPTEXT_UTF8, a, sizeof a); /* as --figure names it */
    steptext_name(v->m, pv->new_tok, STEPTEXT_UTF8, b, sizeof b);
    report_commas(pv->step, s, sizeof s);
    if (pv->all)
        snprintf(buf, n, "every edit (%zu from step %s on) against the text as loaded, one "
                         "run of each", pv->nedits, s);
    else
        snprintf(buf, n, "the edit at step %s (%s to %s) against the text before it, one "
                         "run of each", s, a, b);
}

/* "; beside it, pinned (b), the edit at step 1,200 ('a' to 'b')" when a model's pinned
 * curves are drawn, with the interventions they were computed under where those differ. */
static void pinned_words(const gt_view *v, int n, char *buf, size_t len)
{
    buf[0] = 0;
    for (int k = 0; k < n; k++) {
        const gt_view *m = model_at(v, k);
        const gt_pert_pin *p = &m->pin;
        if (!data_pert_pin_shown(p, &m->pert))
            continue;
        char a[80], b[80], s[32], under[600] = "";
        steptext_name(m->m, p->old_tok, STEPTEXT_UTF8, a, sizeof a);
        steptext_name(m->m, p->new_tok, STEPTEXT_UTF8, b, sizeof b);
        report_commas(p->step, s, sizeof s);
        if (strcmp(p->what, m->ivs ? m->ivs->what : "") != 0 && p->what[0])
            snprintf(under, sizeof under, ", computed with %s", p->what);
        else if (strcmp(p->what, m->ivs ? m->ivs->what : "") != 0)
            snprintf(under, sizeof under, ", computed without interventions");
        if (p->all)
            snprintf(buf, len, "; beside it, pinned (b), every edit (%zu from step %s on)%s",
                     p->nedits, s, under);
        else
            snprintf(buf, len, "; beside it, pinned (b), the edit at step %s (%s to %s)%s", s,
                     a, b, under);
        return;
    }
}

static int perturbation(const gt_view *v, fig_doc *d, fig_where *w, gt_error *e)
{
    fig_pert p[FIG_MAX_MODELS];
    char pinned[FIG_MAX_MODELS][320];
    const int n = models(v, FIG_MAX_MODELS);
    for (int k = 0; k < n; k++) {
        const gt_view *m = model_at(v, k);
        const gt_perturb_result *r = &m->pert.r;
        if (!m->pert.valid || m->curves_stale)
            return trace_edit_count(v->tr)
                       ? gt_fail(e, GT_EINPUT, "the perturbation is still being computed")
                       : gt_fail(e, GT_EINPUT, "no edit to draw (e edits the %s under the "
                                 "cursor)", model_step_noun(m->m));
        fig_pert_of_edit(&p[k], m->name, m->m->cell, r);
    }
    int count = n;
    for (int k = 0; k < n && count < FIG_MAX_MODELS; k++) { /* the pinned edit's, as the
                                                                 panel draws them beside */
        const gt_view *m = model_at(v, k);
        if (!data_pert_pin_shown(&m->pin, &m->pert))
            continue;
        char s[32];
        snprintf(pinned[k], sizeof pinned[k], "%s (pinned: step %s)", m->name,
                 report_commas(m->pin.step, s, sizeof s));
        fig_pert_of_edit(&p[count++], pinned[k], m->m->cell, &m->pin.r);
    }
    char edit[300], pins[900], both[1300], what[2300];
    edit_words(v, edit, sizeof edit);
    pins[0] = 0;
    if (count > n) /* some drawn: as many models as 12 leave room for (FIG_MAX_MODELS) */
        pinned_words(v, n, pins, sizeof pins); /* the first drawn */
    snprintf(both, sizeof both, "%s%s", edit, pins);
    w->what = what_of(v, both, what, sizeof what);
    int rc = fig_perturbation(d, p, count, w, e);
    w->what = NULL;
    return rc;
}

/* The unit table of the model shown. */
static int halflives(const gt_view *v, fig_doc *d, fig_where *w, gt_error *e)
{
    const gt_unit_row *rows = data_stats_units(&v->stats, v->layer);
    if (!rows)
        return gt_fail(e, GT_EINPUT, "the unit table is still being computed");
    if (v->stats.carry < 0)
        return gt_fail(e, GT_EINPUT, "a %s has no carry gate: no half-life from it to draw",
                       v->m->cell->noun);
    const fig_units u = {v->name, rows, model_width(v->m, v->layer), v->stats.K,
                         v->stats.gate_name[v->stats.carry]};
    char what[900];
    const gt_compare_col *c = data_stats_col(&v->stats, v->layer);
    if (c) /* the report's windows, edits and horizon, as --figure halflives says them */
        w->what = fig_report_what(c, 0, v->ivs ? v->ivs->what : NULL, what, sizeof what);
    else
        w->what = what_of(v, "the report of the text as loaded", what, sizeof what);
    int rc = fig_halflives(d, &u, 1, w, e);
    w->what = NULL;
    return rc;
}

/* Every model's column of the report's compared table, in their order. */
static int checkpoints(const gt_view *v, fig_doc *d, fig_where *w, gt_error *e)
{
    gt_compare_col col[FIG_MAX_CHECKPOINTS];
    const int n = models(v, FIG_MAX_CHECKPOINTS);
    for (int k = 0; k < n; k++) {
        const gt_compare_col *c = data_stats_col(&model_at(v, k)->stats, v->layer);
        if (!c)
            return gt_fail(e, GT_EINPUT, "the reports are still being computed");
        col[k] = *c;
    }
    char what[900];
    int intervals = 0; /* where a report has the two windows a jackknife needs */
    for (int k = 0; k < n; k++)
        intervals |= col[k].ci_windows >= 2;
    w->what = fig_report_what(&col[0], intervals, v->ivs ? v->ivs->what : NULL, what,
                              sizeof what);
    int rc = fig_checkpoints(d, col, n, w, e);
    w->what = NULL;
    return rc;
}

int export_paper(const gt_view *v, gt_paper which, char *out, size_t n, gt_error *e)
{
    static const char *const kind[3] = {"perturbation", "halflives", "checkpoints"};
    fig_where w = {v->text_name, v->steps, v->layer, NULL, v->m->words};
    fig_doc d;
    int rc = which == PAPER_PERTURBATION ? perturbation(v, &d, &w, e)
             : which == PAPER_HALFLIVES  ? halflives(v, &d, &w, e)
                                         : checkpoints(v, &d, &w, e);
    if (rc)
        return rc;
    char stem[128], base[300];
    export_stem(v->text_name, stem, sizeof stem);
    const int edited = trace_edit_count(v->tr) > 0;
    snprintf(base, sizeof base, "%s-step%zu%s-%s", stem, v->t, edited ? "-edited" : "",
             kind[which]);
    rc = fig_write_new_in(&d, ".", base, out, n, e);
    fig_doc_free(&d);
    return rc;
}
