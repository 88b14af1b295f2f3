/* The report of the text (report.h, doc/measures.md) for the text as loaded, one per layer,
 * kept once computed: the report's sheet (r) shows its tables, the same text `gatetui
 * --report` prints; the unit table's rows come with them (the unit table's sheet, U; the
 * sort by the mean carry gate).
 * A report takes a while (seconds on a 256-unit model, minutes on a very wide one), so it
 * is computed by a child process (bgjob.h): the keys keep working meanwhile, and closing
 * the sheet, asking for another layer or quitting ends the computation at once. */
#ifndef GATETUI_DATA_STATS_H
#define GATETUI_DATA_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gatetui/compare.h"
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/report.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

typedef struct gt_data_stats {
    int scroll;         /* its first line shown */
    char **text;        /* [layers] each layer's tables as shown, NULL until computed */
    int *lines;         /* [layers] their number of lines */
    int *width;         /* [layers] the widest line's columns */
    char **raw;         /* [layers] the tables as the report printed them */
    char **bare;        /* [layers] the same lines without the 95% intervals */
    int *ci_width;      /* [layers] the widest of raw's lines that hold intervals */
    int *wrap_at;       /* [layers] the columns text's lines were broken at (0: none) */
    char *bare_shown;   /* [layers] 1: text is bare's (the intervals' lines did not fit) */
    gt_unit_row **units; /* [layers] each layer's unit table ([H] rows, unit order), NULL
                            until computed, with the tables */
    /* the unit table's gates (their names, the carry gate's index) and the report's
     * horizon, from the last computation */
    int ngates, carry, K;
    char gate_name[REPORT_MAX_GATES][4];
    char error[256];    /* why the last computation failed, or "" */
    /* [layers] each layer's column of the table that compares several models
     * (compare.h), have_col[layer] once computed, with the tables */
    gt_compare_col *cols;
    char *have_col;
    /* the model's interventions (NULL: none): the tables name them, and the loss's change
     * against the model without them, as --report with them prints it */
    const struct gt_data_interv *iv;
    /* private */
    const gt_model *m;
    gt_trace *tr;       /* its text, as loaded (the edits are beside it) */
    char text_name[256];
    char model_name[256]; /* as the tables name it (view_name) */
    int layers;
    gt_bgjob job;       /* the computation; its tag is the layer */
} gt_data_stats;

int data_stats_init(gt_data_stats *sv, const gt_model *m, gt_trace *tr, const char *text_name,
                   gt_error *e);
/* Ends a computation that is running. */
void data_stats_free(gt_data_stats *sv);

/* Asks for layer's tables: starts computing them unless they are known or on their way
 * (a computation for another layer is ended). */
void data_stats_want(gt_data_stats *sv, int layer);
/* The model changed (its interventions): the tables known are dropped, a computation
 * ended. */
void data_stats_forget(gt_data_stats *sv);
/* Layer's tables as shown in width columns: with their 95% intervals where those lines fit,
 * else the same lines without them; the lines wider than that broken at their last space
 * that fits, the rest indented on the lines after (computed again when the width
 * changes). */
void data_stats_fit(gt_data_stats *sv, int layer, int width);
/* The columns the lines with the intervals need when the tables shown are without them
 * (data_stats_fit), else 0. */
int data_stats_ci_need(const gt_data_stats *sv, int layer);
/* Layer's tables (NULL until computed); their lines and widest line's columns. */
const char *data_stats_tables(const gt_data_stats *sv, int layer, int *lines, int *width);
/* The first line of layer's tables from line `from` on that names a step (the windows'
 * table: "  at 1,234  ..."): 0, the step and (line may be NULL) the line's number; -1 when
 * there is none, or no tables. */
int data_stats_step(const gt_data_stats *sv, int layer, int from, size_t *step, int *line);
/* Layer's unit table ([H] rows in unit order), NULL until computed. */
const gt_unit_row *data_stats_units(const gt_data_stats *sv, int layer);
/* Layer's column of the table that compares several models, NULL until computed. */
const gt_compare_col *data_stats_col(const gt_data_stats *sv, int layer);
/* Ends the computation that runs, if any. */
void data_stats_cancel(gt_data_stats *sv);
/* Reads what the child sent; collects the tables when it is done. 1 when the view should
 * be redrawn. */
int data_stats_tick(gt_data_stats *sv);
/* 1 while a computation runs. */
int data_stats_busy(const gt_data_stats *sv);
/* The running computation: its layer and progress from 0 to 1. */
double data_stats_progress(const gt_data_stats *sv, int *layer);

#endif
