/* Several models on the screen (models.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "screen/models.h"
#include "screen/sheets.h"

int models_open(gt_models *ms, const gt_session *sm, int threads, int layer, int utf8,
                gt_error *e)
{
    memset(ms, 0, sizeof *ms);
    ms->v = calloc((size_t)sm->n, sizeof *ms->v);
    ms->tr = calloc((size_t)sm->n, sizeof *ms->tr);
    ms->ivs = calloc((size_t)sm->n, sizeof *ms->ivs);
    ms->changed = calloc((size_t)sm->n, 1);
    ms->missed = calloc((size_t)sm->n, sizeof *ms->missed);
    ms->session = sm;
    if (!ms->v || !ms->tr || !ms->ivs || !ms->changed || !ms->missed) {
        free(ms->v);
        free(ms->tr);
        free(ms->ivs);
        free(ms->changed);
        free(ms->missed);
        return gt_fail(e, GT_EFAIL, "out of memory for the screen");
    }
    for (int k = 0; k < sm->n; k++) {
        gt_data_interv *iv = &ms->ivs[k];
        const gt_session_model *sk = &sm->model[k];
        int rc = data_interv_init(iv, sk->base, &sk->iv, &sk->text, e);
        if (rc) {
            models_close(ms);
            return rc;
        }
        data_interv_set_map(iv, sk->map);
        /* the pass: N threads, or 0 asking it to choose whatever the model */
        gt_trace_limits lim = {.pass_threads = threads < 0 ? 0 : threads ? threads : -1};
        rc = trace_open_mapped(&ms->tr[k], &iv->m, &sk->text, sk->map, &lim, e);
        if (rc == GT_OK && (rc = view_init(&ms->v[k], &iv->m, &sk->text, ms->tr[k], layer,
                                           e)) != GT_OK) {
            trace_close(ms->tr[k]);
            ms->tr[k] = NULL;
        }
        if (rc) {
            data_interv_free(iv);
            models_close(ms);
            return rc;
        }
        ms->n++;
        gt_view *v = &ms->v[k];
        v->ivs = iv;
        v->stats.iv = iv;
        v->threads = threads < 0 ? 0 : threads;
        v->utf8 = utf8;
        v->peers = ms->v;
        if (k == 0)
            ms->ui = v->own; /* the layer asked for, the defaults */
        v->ui = &ms->ui;
        view_clamp(v);
        v->self = k;
        view_name(v, sk->name, k, sm->n);
    }
    for (int k = 0; k < ms->n; k++)
        ms->v[k].npeers = ms->n;
    return GT_OK;
}

void models_close(gt_models *ms)
{
    for (int k = 0; k < ms->n; k++) {
        view_free(&ms->v[k]);
        trace_close(ms->tr[k]);
        data_interv_free(&ms->ivs[k]);
    }
    free(ms->v);
    free(ms->tr);
    free(ms->ivs);
    free(ms->changed);
    free(ms->missed);
    memset(ms, 0, sizeof *ms);
}

gt_view *models_view(gt_models *ms) { return &ms->v[ms->cur]; }

/* Gives o the interventions of v where they apply to its model (iv_follow): step, edits
 * and interventions are shared (doc/screen.md, "Several models"). How many of v's it could
 * not take. */
static int sync_interventions(gt_view *o, const gt_view *v)
{
    int missed = 0;
    if (iv_follow(&o->ivs->iv, &v->ivs->iv, &missed))
        view_model_changed(o);
    return missed;
}

void models_sync(gt_models *ms)
{
    gt_view *v = &ms->v[ms->cur];
    for (int k = 0; k < ms->n; k++) {
        gt_view *o = &ms->v[k];
        if (k == ms->cur)
            continue;
        const int missed = sync_interventions(o, v);
        if (missed > ms->missed[k]) { /* a new one it cannot take: said after the key's */
            const size_t at = strlen(v->ui->msg);
            snprintf(v->ui->msg + at, sizeof v->ui->msg - at, "%s%.80s takes it only in part (%s)",
                     at ? "; " : "", o->name,
                     "its header names what it has");
        }
        ms->missed[k] = missed;
        view_follow(o, 0);
    }
}

void models_switch(gt_models *ms, int dir)
{
    if (ms->n < 2) {
        gt_view *v = &ms->v[ms->cur];
        snprintf(v->ui->msg, sizeof v->ui->msg, "one model (several: gatetui MODEL MODEL ... TEXT)");
        v->ui->msg_error = 0;
        return;
    }
    gt_view *from = &ms->v[ms->cur];
    ms->cur = (ms->cur + (dir > 0 ? 1 : ms->n - 1)) % ms->n;
    gt_view *to = &ms->v[ms->cur];
    trace_pass_cancel(from->tr); /* one background pass at a time: the model shown */
    view_forget_jump(from);
    ms->ui.top = 0; /* the gate panel from the selected unit's rank in this model's order */
    view_follow(from, 0);
    view_follow(to, 1);
    view_seek(to, ms->ui.t); /* when its states are not known yet, a jump the pass ends */
    if (ms->ui.pass_wanted)
        trace_pass_start(to->tr, to->steps, NULL);
    snprintf(ms->ui.msg, sizeof ms->ui.msg, "model %d of %d: %.200s", ms->cur + 1, ms->n, to->name);
    ms->ui.msg_error = 0;
}

/* Once a second: a model file changed on disk since it was read is said once (the screen
 * keeps the model as read). 1 when it was. */
static int check_files(gt_models *ms)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((long long)now.tv_sec == ms->checked_s)
        return 0;
    ms->checked_s = (long long)now.tv_sec;
    for (int k = 0; k < ms->n; k++) {
        if (ms->changed[k] || !model_file_changed(ms->session->model[k].base))
            continue;
        ms->changed[k] = 1;
        ms->v[k].file_changed = 1;
        snprintf(ms->ui.msg, sizeof ms->ui.msg,
                 "%.120s changed on disk since it was read: the screen keeps the model as read "
                 "(start gatetui again to read it anew)",
                 ms->v[k].model_name);
        ms->ui.msg_error = 1;
        return 1;
    }
    return 0;
}

int models_tick(gt_models *ms)
{
    int redraw = check_files(ms);
    for (int k = 0; k < ms->n; k++) {
        const int waited = ms->v[k].edits_wait;
        const gt_sheet *up = ms->ui.sheet;
        if (view_tick(&ms->v[k]) && (k == ms->cur || (up && (up->needs & SHEET_SHOWS_PEERS))))
            redraw = 1; /* the others show in the report's sheet only, */
        if (waited && !ms->v[k].edits_wait)
            redraw = 1; /* and their perturbation in the one shown's panel, computed when
                         * the frame is prepared */
    }
    return redraw;
}

int models_busy(const gt_models *ms)
{
    for (int k = 0; k < ms->n; k++)
        if (view_busy(&ms->v[k]))
            return 1;
    return 0;
}
