/* Edits, undos and redos on every model at once (see view.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/view.h"

/* Every view of the screen: the models' (v->peers) or v alone. */
static int view_count(const gt_view *v) { return v->peers ? v->npeers : 1; }
static gt_view *view_at(gt_view *v, int k) { return v->peers ? &v->peers[k] : v; }

/* After the edits changed: what depends on them computed again for every model, the
 * background pass of the model shown going on. */
static void edits_changed(gt_view *v)
{
    v->ui->edit_gen++;
    for (int k = 0; k < view_count(v); k++) {
        gt_view *o = view_at(v, k);
        view_forget_jump(o);
        view_edits_changed(o);
    }
    if (v->ui->pass_wanted)
        trace_pass_start(v->tr, v->steps, NULL);
}

/* Token tok of model from as model to's token (the vocabularies hold the same characters, or
 * a word model's the same words, so each has it). */
static int token_in(const gt_model *to, const gt_model *from, int tok)
{
    if (from->words)
        return model_word_token(to, from->vocab_word[tok], from->vocab_len[tok]);
    return model_token(to, from->vocab_cp[tok]);
}

/* The other models' traces get the edit of step `step` to v's token tok; a failure is said
 * in v's message line. */
static void edit_others(gt_view *v, size_t step, int tok)
{
    for (int k = 0; k < view_count(v); k++) {
        gt_view *o = view_at(v, k);
        gt_error e = {0};
        if (o != v && trace_edit(o->tr, step, token_in(o->m, v->m, tok), &e)) {
            snprintf(v->ui->msg, sizeof v->ui->msg, "%.250s", e.msg);
            v->ui->msg_error = 1;
        }
    }
}

int view_apply_edit(gt_view *v, size_t step, int tok, gt_error *e)
{
    int rc = trace_edit(v->tr, step, tok, e);
    if (rc)
        return rc;
    v->ui->nredo = 0;
    edit_others(v, step, tok);
    edits_changed(v);
    return GT_OK;
}

int view_apply_edits(gt_view *v, const gt_editlist *l, gt_error *e)
{
    for (size_t i = 0; i < l->n; i++) {
        int rc = view_apply_edit(v, l->at[i].step, l->at[i].tok, e);
        if (rc)
            return rc;
        if (v->ui->msg_error) /* another model's trace refused it */
            return gt_fail(e, GT_EFAIL, "%s", v->ui->msg);
    }
    v->ui->written_gen = v->ui->edit_gen;
    return GT_OK;
}

int view_undo(gt_view *v, gt_edit *ed)
{
    if (!trace_undo(v->tr, ed))
        return 0;
    for (int k = 0; k < view_count(v); k++)
        if (view_at(v, k) != v)
            trace_undo(view_at(v, k)->tr, NULL);
    gt_shared *ui = v->ui;
    if (ui->nredo == VIEW_REDO) { /* the oldest undone edit is forgotten */
        memmove(ui->redo, ui->redo + 1, sizeof ui->redo[0] * (VIEW_REDO - 1));
        ui->nredo--;
    }
    ui->redo[ui->nredo++] = (gt_undone){ed->step, ed->new_tok, v->m};
    edits_changed(v);
    return 1;
}

int view_redo(gt_view *v, size_t *step, gt_error *e)
{
    gt_shared *ui = v->ui;
    if (!ui->nredo)
        return gt_fail(e, GT_EINPUT, "no undone edit to redo");
    gt_undone u = ui->redo[ui->nredo - 1];
    const int tok = token_in(v->m, u.m, u.tok);
    int rc = trace_edit(v->tr, u.step, tok, e);
    if (rc)
        return rc;
    ui->nredo--;
    edit_others(v, u.step, tok);
    edits_changed(v);
    *step = u.step;
    return GT_OK;
}
