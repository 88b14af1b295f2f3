/* The stats view's data: the report of SPEC section 6 (report.h) for the text as loaded, one
 * per layer, computed by a thread in the background so that the keys keep working; kept
 * once computed. The tables are the same text `gatetui --report` prints. */
#ifndef GATETUI_STATSVIEW_H
#define GATETUI_STATSVIEW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/report.h"

typedef struct gt_statsview {
    int shown;          /* the view is up */
    int scroll;         /* its first line shown */
    char **text;        /* [layers] each layer's tables, NULL until computed */
    int *lines;         /* [layers] their number of lines */
    int *width;         /* [layers] the widest line's columns */
    char error[256];    /* why the last computation failed, or "" */
    /* private */
    const gt_model *m;
    const uint16_t *tok;
    size_t steps;
    char text_name[256];
    int layers;
    int running, run_layer, want_layer;
    pthread_t thread;
    atomic_int done, permille;
    gt_report rep;
    int rc;
    gt_error err;
} gt_statsview;

int statsview_init(gt_statsview *sv, const gt_model *m, const uint16_t *tok, size_t steps,
                   const char *text_name, gt_error *e);
/* Waits for a computation that is running. */
void statsview_free(gt_statsview *sv);

/* Asks for layer's tables: starts computing them unless they are known or on their way (a
 * computation for another layer finishes first). */
void statsview_want(gt_statsview *sv, int layer);
/* Collects a finished computation and starts the one wanted next; 1 when the view should
 * be redrawn (something finished, or the progress moved). */
int statsview_tick(gt_statsview *sv);
/* 1 while a computation runs. */
int statsview_busy(const gt_statsview *sv);
/* The running computation: its layer and progress from 0 to 1. */
double statsview_progress(const gt_statsview *sv, int *layer);

#endif
