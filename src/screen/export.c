/* The --export mode (see export.h): a frame rendered without a terminal. */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gatetui/fileio.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"
#include "screen/export.h"
#include "screen/export_file.h"
#include "screen/frame.h"
#include "screen/sessionstate.h"
#include "screen/view.h"

static int parse_size(const char *s, int *cols, int *rows, gt_error *e)
{
    char *end;
    long c, r;
    errno = 0;
    c = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        goto bad;
    const char *p = end + 1;
    r = strtol(p, &end, 10);
    if (end == p || *end || errno || c < 1 || r < 1 || c > 1000 || r > 1000)
        goto bad;
    *cols = (int)c;
    *rows = (int)r;
    return GT_OK;
bad:
    return gt_fail(e, GT_EINPUT, "--size wants COLSxROWS (1-1000 each, e.g. 120x40), not \"%s\"",
                   s);
}

/* The frame's state: the session's (--session), or the edits made and the cursor put at
 * --step. */
static int frame_state(gt_models *ms, const gt_screen_opts *o, gt_error *e)
{
    gt_view *v = models_view(ms);
    if (o->state)
        return sessionstate_restore(ms, o->state, o->state_file, e);
    gt_editlist l;
    int rc = editlist_parse(&l, v->m, v->text, o->edits, o->nedits, e);
    if (rc)
        return rc;
    /* the same edits for every model (their perturbations computed with the frame) */
    rc = view_apply_edits(v, &l, e);
    editlist_free(&l);
    v->ui->t = (size_t)o->step;
    ms->cur = o->model; /* --model I: its screen, as Tab shows it */
    for (int k = 0; k < ms->n; k++)
        view_follow(&ms->v[k], k == ms->cur);
    return rc;
}

/* Prepared until nothing the frame shows is computing: the children of the sheet up, the
 * hypothesis, the importance (a session's state may ask for any). */
static int prepare_settled(gt_models *ms, int cols, int rows, gt_error *e)
{
    for (;;) {
        gt_view *v = models_view(ms);
        int rc = view_prepare(v, cols, rows, e);
        if (rc == GT_OK && v->ui->msg_error)
            rc = gt_fail(e, GT_EFAIL, "%s", v->ui->msg); /* a computation failed */
        if (rc || !models_busy(ms))
            return rc;
        while (models_busy(ms) && !models_tick(ms))
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
}

int export_main(const gt_session *sn, const gt_screen_opts *o, gt_error *e)
{
    const gt_text *t = &sn->model[0].text;
    char last[32];
    int cols = EXPORT_COLS, rows = EXPORT_ROWS, rc;
    if (o->size && (rc = parse_size(o->size, &cols, &rows, e)))
        return rc;
    if (!o->state && (o->step < 0 || (size_t)o->step >= t->steps))
        return gt_fail(e, GT_EINPUT, "--step %ld: the text has steps 0-%s", o->step,
                       report_commas(t->steps - 1, last, sizeof last));
    if (strcmp(o->file, "-") != 0 && (rc = file_can_create(o->file, e)))
        return rc;
    gt_models ms;
    if ((rc = models_open(&ms, sn, o->threads, o->layer,
                          strcmp(nl_langinfo(CODESET), "UTF-8") == 0, e)))
        return rc;
    for (int k = 0; k < ms.n && rc == GT_OK; k++) /* the header's loss, at once */
        if (ms.ivs[k].what[0])
            rc = data_interv_measure_now(&ms.ivs[k], e);
    ms.ui.sync = 1; /* the frame waits for nothing: what it shows is computed first */
    if (rc == GT_OK)
        rc = frame_state(&ms, o, e);
    gt_view *v = models_view(&ms);
    v->t = v->ui->t;
    gt_surface s = {0};
    if (rc == GT_OK)
        rc = prepare_settled(&ms, cols, rows, e);
    for (int k = 0; k < ms.n && rc == GT_OK; k++)
        if (!view_settled(&ms.v[k]))
            rc = gt_fail(e, GT_EFAIL, "the frame of %s at step %zu is not computed",
                         ms.v[k].model_name, v->ui->t);
    if (rc == GT_OK && surf_init(&s, cols, rows, v->utf8))
        rc = gt_fail(e, GT_EFAIL, "out of memory for the frame");
    if (rc == GT_OK) {
        frame_draw(&s, v);
        rc = export_frame_to_file(&s, o->file, e);
    }
    surf_free(&s);
    models_close(&ms);
    return rc;
}
