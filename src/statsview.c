/* The report computed in the background for the stats view (see statsview.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statsview.h"
#include "surface.h"

int statsview_init(gt_statsview *sv, const gt_model *m, const uint16_t *tok, size_t steps,
                   const char *text_name, gt_error *e)
{
    memset(sv, 0, sizeof *sv);
    sv->m = m;
    sv->tok = tok;
    sv->steps = steps;
    sv->layers = m->layers;
    sv->want_layer = -1;
    snprintf(sv->text_name, sizeof sv->text_name, "%s", text_name);
    sv->text = calloc((size_t)m->layers, sizeof *sv->text);
    sv->lines = calloc((size_t)m->layers, sizeof *sv->lines);
    sv->width = calloc((size_t)m->layers, sizeof *sv->width);
    if (!sv->text || !sv->lines || !sv->width) {
        statsview_free(sv);
        return gt_fail(e, GT_EFAIL, "out of memory for the stats view");
    }
    return GT_OK;
}

static void *compute(void *arg);

static void progress(void *ctx, double done)
{
    gt_statsview *sv = ctx;
    atomic_store(&sv->permille, (int)(done * 1000));
}

static void *compute(void *arg)
{
    gt_statsview *sv = arg;
    gt_report_options o;
    report_options_init(&o);
    o.layer = sv->run_layer;
    o.progress = progress;
    o.progress_ctx = sv;
    sv->rc = report_compute(&sv->rep, sv->m, sv->tok, sv->steps, &o, &sv->err);
    atomic_store(&sv->done, 1);
    return NULL;
}

static void start(gt_statsview *sv, int layer)
{
    sv->run_layer = layer;
    atomic_store(&sv->done, 0);
    atomic_store(&sv->permille, 0);
    memset(&sv->err, 0, sizeof sv->err);
    if (pthread_create(&sv->thread, NULL, compute, sv) != 0) {
        snprintf(sv->error, sizeof sv->error, "cannot start a thread for the report");
        return;
    }
    sv->running = 1;
}

/* Joins the finished thread and turns its report into text. */
static void collect(gt_statsview *sv)
{
    pthread_join(sv->thread, NULL);
    sv->running = 0;
    int k = sv->run_layer;
    if (sv->rc) {
        snprintf(sv->error, sizeof sv->error, "report of layer %d: %.200s", k, sv->err.msg);
        return;
    }
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    gt_error e = {0};
    int bad = !f || report_print_text(f, &sv->rep, sv->text_name, &e);
    if (f && fclose(f))
        bad = 1;
    report_free(&sv->rep);
    if (bad) {
        free(buf);
        snprintf(sv->error, sizeof sv->error, "report of layer %d: out of memory", k);
        return;
    }
    int lines = 0, width = 0;
    for (char *p = buf; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        int w = surf_width(p);
        width = w > width ? w : width;
        lines++;
        if (!nl)
            break;
        *nl = '\n';
        p = nl + 1;
    }
    free(sv->text[k]);
    sv->text[k] = buf;
    sv->lines[k] = lines;
    sv->width[k] = width;
    sv->error[0] = 0;
}

void statsview_free(gt_statsview *sv)
{
    if (sv->running) {
        pthread_join(sv->thread, NULL);
        if (sv->rc == 0)
            report_free(&sv->rep);
    }
    for (int k = 0; sv->text && k < sv->layers; k++)
        free(sv->text[k]);
    free(sv->text);
    free(sv->lines);
    free(sv->width);
    memset(sv, 0, sizeof *sv);
}

void statsview_want(gt_statsview *sv, int layer)
{
    if (layer < 0 || layer >= sv->layers || sv->text[layer])
        return;
    if (sv->running) {
        if (sv->run_layer != layer)
            sv->want_layer = layer;
        return;
    }
    sv->error[0] = 0;
    start(sv, layer);
}

int statsview_tick(gt_statsview *sv)
{
    if (!sv->running)
        return 0;
    if (!atomic_load(&sv->done))
        return 1;
    collect(sv);
    int next = sv->want_layer;
    sv->want_layer = -1;
    if (next >= 0 && !sv->text[next])
        start(sv, next);
    return 1;
}

int statsview_busy(const gt_statsview *sv)
{
    return sv->running;
}

double statsview_progress(const gt_statsview *sv, int *layer)
{
    if (layer)
        *layer = sv->run_layer;
    return atomic_load(&((gt_statsview *)sv)->permille) / 1000.0;
}
