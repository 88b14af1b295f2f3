/* The effect of the screen's interventions where the hypothesis holds (see data_effect.h):
 * computed with effect.h by a child process, which sends the numbers and the table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/data_effect.h"

/* What the result's bytes begin with; the table's text follows to the end. */
typedef struct head {
    gt_effect_class in, out;
    double spec, spec_lo, spec_hi, p;
    int controls, rank;
} head;

void data_effect_init(gt_data_effect *d)
{
    memset(d, 0, sizeof *d);
    bgjob_init(&d->job);
}

void data_effect_free(gt_data_effect *d)
{
    bgjob_cancel(&d->job);
    free(d->text);
    d->text = NULL;
    d->lines = 0;
    d->state = EFFECT_NONE;
}

/* ---- the child ---- */

/* The classes over the windows complete so far sent as a note: the windows done and of
 * all, then inside and outside each as count, delta, its interval. */
static void send_partial(void *job, const gt_effect_class *in, const gt_effect_class *out,
                         size_t done, size_t windows)
{
    char line[256];
    snprintf(line, sizeof line, "%zu %zu %zu %.9g %.9g %.9g %zu %.9g %.9g %.9g", done, windows,
             in->count, in->delta, in->ci_lo, in->ci_hi, out->count, out->delta, out->ci_lo,
             out->ci_hi);
    bgjob_note(job, line);
}

/* The effect (defaults of --effect: the report's windows, 20 controls, seed 1) as the
 * result's bytes onto f. */
static int compute(const gt_data_effect *d, FILE *f, gt_bgjob *job, gt_error *e)
{
    const gt_data_interv *s = d->ivs;
    gt_effect_options o;
    effect_options_init(&o);
    o.win.progress = bgjob_progress;
    o.win.progress_ctx = job;
    o.partial = send_partial;
    o.partial_ctx = job;
    const uint16_t *tok = data_interv_tokens(s);
    if (!tok)
        return gt_fail(e, GT_EFAIL, "out of memory for the text's tokens");
    const char *regex = d->regex;
    gt_effect r;
    int rc = effect_compute(&r, s->base, &s->m, &s->iv, tok, s->text->steps, &regex, 1, &o, e);
    data_interv_tokens_done(s, tok);
    if (rc)
        return rc;
    const gt_effect_one *x = &r.e[0];
    head hd = {x->in, x->out, x->spec, x->spec_lo, x->spec_hi, x->p, r.controls, x->rank};
    fwrite(&hd, sizeof hd, 1, f);
    rc = effect_print_text(f, &r, d->what, e);
    effect_free(&r);
    return rc;
}

static int child_main(gt_bgjob *job, void *ctx, char *why)
{
    char *buf = NULL;
    size_t len = 0;
    gt_error e = {0};
    FILE *f = open_memstream(&buf, &len);
    int rc = f ? compute(ctx, f, job, &e) : gt_fail(&e, GT_EFAIL, "out of memory");
    if (f && fclose(f) && rc == GT_OK)
        rc = gt_fail(&e, GT_EFAIL, "out of memory for the effect's table");
    if (rc == GT_OK)
        bgjob_write(job, buf, len);
    else
        snprintf(why, 256, "%.250s", e.msg);
    free(buf);
    return rc;
}

/* ---- the screen's side ---- */

/* The computation failed: why. */
static void failed(void *ctx, const char *why)
{
    gt_data_effect *d = ctx;
    d->state = EFFECT_FAILED;
    snprintf(d->error, sizeof d->error, "%.250s", why);
}

/* The result's bytes (n at p) taken. */
static void take(void *ctx, const char *p, size_t n)
{
    gt_data_effect *d = ctx;
    head hd;
    free(d->text);
    d->text = n >= sizeof hd ? malloc(n - sizeof hd + 1) : NULL;
    if (!d->text) {
        failed(d, n < sizeof hd ? "a short result" : "out of memory");
        return;
    }
    memcpy(&hd, p, sizeof hd);
    memcpy(d->text, p + sizeof hd, n - sizeof hd);
    d->text[n - sizeof hd] = 0;
    d->lines = 0;
    for (const char *s = d->text; *s; s++)
        d->lines += *s == '\n' || !s[1];
    d->in = hd.in;
    d->out = hd.out;
    d->spec = hd.spec;
    d->spec_lo = hd.spec_lo;
    d->spec_hi = hd.spec_hi;
    d->p = hd.p;
    d->controls = hd.controls;
    d->rank = hd.rank;
    d->state = EFFECT_KNOWN;
}

int data_effect_on(const gt_data_effect *d)
{
    return d->ivs && d->ivs->what[0] && d->regex[0] && d->state != EFFECT_NONE;
}

int data_effect_applies(const gt_data_interv *ivs, const char *regex)
{
    return regex[0] && ivs && ivs->what[0] && ivs->base->has_readout;
}

void data_effect_want(gt_data_effect *d, const gt_data_interv *ivs, const char *regex)
{
    const char *what = ivs ? ivs->what : "";
    d->ivs = ivs;
    if (!data_effect_applies(ivs, regex)) {
        data_effect_free(d);
        d->regex[0] = 0;
        return;
    }
    if (d->state != EFFECT_NONE && strcmp(d->regex, regex) == 0 && strcmp(d->what, what) == 0)
        return; /* known, computing, failed or stopped for these */
    snprintf(d->regex, sizeof d->regex, "%s", regex);
    snprintf(d->what, sizeof d->what, "%s", what);
    d->error[0] = 0;
    d->part_done = d->part_windows = 0;
    d->state = EFFECT_COMPUTING;
    if (bgjob_start(&d->job, 0, child_main, d))
        failed(d, d->job.error);
}

void data_effect_forget(gt_data_effect *d)
{
    data_effect_free(d);
}

int data_effect_stop(gt_data_effect *d)
{
    return bgjob_stop(&d->job, &d->state);
}

void data_effect_again(gt_data_effect *d)
{
    bgjob_again(&d->state);
}

int data_effect_tick(gt_data_effect *d)
{
    if (!bgjob_deliver(&d->job, take, failed, d))
        return 0;
    gt_effect_class in = {0}, out = {0};
    size_t done, windows;
    if (sscanf(d->job.note, "%zu %zu %zu %lf %lf %lf %zu %lf %lf %lf", &done, &windows,
               &in.count, &in.delta, &in.ci_lo, &in.ci_hi, &out.count, &out.delta, &out.ci_lo,
               &out.ci_hi) == 10) {
        d->part_in = in;
        d->part_out = out;
        d->part_done = done;
        d->part_windows = windows;
    }
    return 1;
}

int data_effect_busy(const gt_data_effect *d)
{
    return bgjob_busy(&d->job);
}

double data_effect_progress(const gt_data_effect *d)
{
    return bgjob_done(&d->job);
}
