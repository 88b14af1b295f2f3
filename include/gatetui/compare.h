/* Several models compared (doc/usage.md, "Several models"): each model's report reduced to
 * the measures of one compact table, one row a measure and one column a model, which
 * `--report` prints for several models and the screen's stats view shows. */
#ifndef GATETUI_COMPARE_H
#define GATETUI_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/interval.h"
#include "gatetui/report.h"

/* One model's column: plain values (no pointers), so that a child process can send it. */
typedef struct gt_compare_col {
    char name[64];      /* the model's name among the others (gt_session_model.name: the
                         * file's name without its folders where that tells it apart; cut
                         * to 63 bytes) */
    char kind[8];       /* the cell: "LSTM", "GRU", "RNN" */
    char carry[4];      /* the carry gate's name ("f", "z"), "" without one */
    int hidden, K, ge10, ge10_measured; /* hidden: the units of the report's layer */
    double loss;        /* nats per character (a word model's: per token); NAN without a
                         * readout */
    int words;          /* a word model (doc/usage.md, "Word models") */
    double mean, left, right; /* the carry gate's mean, fractions below 0.1, above 0.9 */
    double hl_median, hl_max; /* the units' half-lives from their mean carry gate */
    double hl_measured, hl_linearized, hl_forget_only; /* an edit's, of the carried state
                                                        * (an LSTM's c, else h); NAN past K */
    double hl_hidden;   /* an edit's half-life of h, every model's (the row that sets h beside
                         * h); NAN past K */
    int cell;           /* 1: the carried state is an LSTM's cell c */
    /* the half-lives' 95% intervals (interval.h): of hl_measured, hl_linearized,
       hl_forget_only and hl_hidden */
    gt_interval ci_measured, ci_linearized, ci_forget_only, ci_hidden;
    int pairs;          /* 0: no perturbation (its half-lives are "-") */
    /* how the report computed them (a figure's caption says it): its windows, their
     * length, the edits' count and step in each, and the windows its intervals are over */
    size_t windows, window_len, edits, ci_windows;
    int site;
    int hide_ci;        /* 1: the intervals are not shown (where they do not fit) */
} gt_compare_col;

/* The rows, in the order printed: the model's name, its cell, the measures, then a line
 * that says what the intervals and their marks are. An edit's half-life's rows show each
 * value with its 95% interval, and a mark "*" before it where that interval and the one of
 * the column to its left (of the same state, c or h) do not overlap (interval_apart). */
enum { COMPARE_NAME, COMPARE_CELL, COMPARE_LOSS, COMPARE_MEAN, COMPARE_SATURATION,
       COMPARE_UNIT_HL, COMPARE_GE10, COMPARE_EDIT_HL_H, COMPARE_EDIT_MEASURED,
       COMPARE_EDIT_LINEARIZED, COMPARE_EDIT_GATE, COMPARE_LEGEND, COMPARE_ROWS };

/* r's column, its model called name (made printable). */
void compare_col(gt_compare_col *c, const gt_report *r, const char *name);
/* The widest label over the rows (code points; the legend's line is not one), and column
 * k's widest cell (of a table of the n columns c, its marks included). */
int compare_label_width(const gt_compare_col *c, int n);
int compare_width(const gt_compare_col *c, int n, int k);
/* Row row of the table as a line (no newline) into buf: the label, then the columns
 * first..first+count-1 (count < 0: to the last), each right-aligned to its width and two
 * spaces apart (each marked against the column before it, first's too); the legend's row
 * is its line alone. Returns buf. */
char *compare_line(int row, const gt_compare_col *c, int n, int first, int count, char *buf,
                   size_t len);
/* The table: a line naming the text and the windows (from r0, the first model's report),
 * then the rows. GT_OK, or GT_EFAIL when writing fails. */
int compare_print(FILE *f, const gt_compare_col *c, int n, const gt_report *r0,
                  const char *text_name, gt_error *e);

#endif
