/* Several models compared (doc/usage.md, "Several models"): each model's report reduced to
 * the measures of one compact table, one row a measure and one column a model, which
 * `--report` prints for several models and the screen's stats view shows. */
#ifndef GATETUI_COMPARE_H
#define GATETUI_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/report.h"

/* One model's column: plain values (no pointers), so that a child process can send it. */
typedef struct gt_compare_col {
    char name[64];      /* the model file's name without its folders (cut to 63 bytes) */
    char kind[8];       /* the cell: "LSTM", "GRU", "RNN" */
    char carry[4];      /* the carry gate's name ("f", "z"), "" without one */
    int hidden, K, ge10, ge10_measured; /* hidden: the units of the report's layer */
    double loss;        /* nats per character; NAN without a readout */
    double mean, left, right; /* the carry gate's mean, fractions below 0.1, above 0.9 */
    double hl_median, hl_max; /* the units' half-lives from their mean carry gate */
    double hl_measured, hl_linearized, hl_forget_only; /* an edit's, of the carried state
                                                        * (an LSTM's c, else h); NAN past K */
    double hl_hidden;   /* an edit's half-life of h, every model's (the row that sets h beside
                         * h); NAN past K */
    int cell;           /* 1: the carried state is an LSTM's cell c */
    int pairs;          /* 0: no perturbation (its half-lives are "-") */
} gt_compare_col;

/* The rows, in the order printed: the model's name, its cell, then the measures. */
enum { COMPARE_NAME, COMPARE_CELL, COMPARE_LOSS, COMPARE_MEAN, COMPARE_SATURATION,
       COMPARE_UNIT_HL, COMPARE_GE10, COMPARE_EDIT_HL_H, COMPARE_EDIT_HL, COMPARE_ROWS };

/* r's column (the name from r->m->path). */
void compare_col(gt_compare_col *c, const gt_report *r);
/* The widest label over the rows (code points), and column k's widest cell (of a table
 * of the n columns c). */
int compare_label_width(const gt_compare_col *c, int n);
int compare_width(const gt_compare_col *c, int n, int k);
/* Row row of the table as a line (no newline) into buf: the label, then the columns
 * first..first+count-1 (count < 0: to the last), each right-aligned to its width and two
 * spaces apart. Returns buf. */
char *compare_line(int row, const gt_compare_col *c, int n, int first, int count, char *buf,
                   size_t len);
/* The table: a line naming the text and the windows (from r0, the first model's report),
 * then the rows. GT_OK, or GT_EFAIL when writing fails. */
int compare_print(FILE *f, const gt_compare_col *c, int n, const gt_report *r0,
                  const char *text_name, gt_error *e);

#endif
