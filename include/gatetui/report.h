/* The report (doc/measures.md, "The report"): the gate statistics for one layer of a model over the start
 * of a text, computed without a terminal.
 *
 * Windows: the token sequence cut into consecutive windows of window_len L from its start
 * (the last one shorter when the sequence does not divide evenly, the whole sequence when
 * it is shorter than L); the first `windows` of them, each run from the zero state.
 * `positions` is the number of time steps in those windows: each gate's table covers
 * positions x H values. The perturbation table uses the full windows only (length L).
 *
 * Windows and (window, replacement) pairs are independent and computed by a pool of
 * threads; the replacements of a window run as batches (see perturb.h). The numbers do not
 * depend on the number of threads. */
#ifndef GATETUI_REPORT_H
#define GATETUI_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/interval.h"
#include "gatetui/loss.h"
#include "gatetui/model.h"

/* The defaults of the options (report_options_init), which the help and the screen name. */
#define REPORT_WINDOWS 32
#define REPORT_WINDOW_LEN 128
#define REPORT_HORIZON 64
/* A word model's perturbation replaces each window's step by the text's most frequent
 * tokens, this many (doc/measures.md, "The report"), not by each of its 10,000 others. */
#define REPORT_WORD_REPS 64

typedef struct gt_report_options {
    int layer;          /* default 0 */
    long windows;       /* N, default REPORT_WINDOWS */
    long windows_asked; /* N when it was asked for, 0 otherwise (report_windows_note) */
    long window_len;    /* L, default REPORT_WINDOW_LEN (at least 2) */
    long horizon;       /* 0: REPORT_HORIZON; K > 0: K; either, fewer when a window holds
                         * fewer steps after its edit (K = min(horizon, L - s - 1): doc/
                         * usage.md, "--report"; report_horizon_note says so) */
    int threads;        /* 0: one per online processor */
    /* Called from the calling thread now and then with the fraction done (0..1). */
    void (*progress)(void *ctx, double done);
    void *progress_ctx;
} gt_report_options;

void report_options_init(gt_report_options *o);

#define REPORT_MAX_GATES 3
#define REPORT_MAX_K 8   /* k = 0, 1, 2, 4, 8, 16, 32, 64 */
/* The classes of inputs the carry gate is averaged by: a space, a newline, the others; a
 * word model's (doc/usage.md, "Word models") punctuation, <eos>, the others. */
enum { REPORT_SPACE, REPORT_NEWLINE, REPORT_OTHER };


typedef struct gt_report_gate {
    const char *name;   /* "i", "f", "o" or "r", "z" */
    int block;          /* its block in the model's gate order */
    double mean, q05, q25, q50, q75, q95;
    double left, right; /* fractions of the values below 0.1 and above 0.9 */
} gt_report_gate;

/* A unit's row of the unit table (doc/measures.md, "The unit table"); NAN where a value
 * does not exist (JSON null). */
typedef struct gt_unit_row {
    double mean[REPORT_MAX_GATES]; /* each gate's mean, in the order of gt_report.gate */
    double halflife;    /* ln 0.5 / ln (mean carry gate); +inf at 1 */
    double halflife_bias; /* ln 0.5 / ln sigmoid(b_ih + b_hh) at the carry gate's row */
    double halflife_measured; /* of the unit's own decay over the perturbation pairs */
    gt_interval measured_ci; /* its 95% interval by the jackknife over the windows; beyond:
                                past the horizon (NAN above), not a decay that is not there */
    double left, right; /* the carry gate's fractions below 0.1 and above 0.9 */
} gt_unit_row;

/* One full window's own pairs (doc/measures.md, "The report"): where it is, how many of its
 * replacements were kept, and the half-lives of their mean curves (NAN: none within K). */
typedef struct gt_report_window {
    size_t start;       /* its first step */
    size_t edited;      /* the step replaced: start + site */
    size_t pairs;
    double hl_measured; /* of the cell's difference for an LSTM, of h's otherwise */
    double hl_forget_only; /* NAN for an RNN */
} gt_report_window;

typedef struct gt_report {
    const gt_model *m;
    int layer;
    size_t window_len, windows, full_windows;
    size_t positions;
    int ngates;
    gt_report_gate gate[REPORT_MAX_GATES];
    int carry;          /* the carry gate's index in gate[]; -1 for an RNN (no gates: the units
                           and by-character tables are NAN) */
    /* RNN: the fractions of h's values (positions x H) below -0.9, above 0.9, and at 0 */
    double h_left, h_right, h_zero;
    /* units: each unit's mean carry gate over the positions */
    double *unit_mean;  /* [H] */
    double mean_min, mean_q05, mean_median, mean_q95, mean_max;
    double hl_min, hl_median, hl_max; /* of ln 0.5 / ln mean per unit (+inf at mean 1) */
    int below_half, halflife_ge10;
    /* mean carry gate over units at positions whose input is a space, newline, other */
    double char_mean[3]; /* NAN when there is no such position */
    size_t char_count[3];
    /* perturbation: step `site` of each full window replaced by each other token */
    int site;           /* L / 4 */
    int replacements;   /* each full window's: V - 1, or a word model's REPORT_WORD_REPS */
    int K;              /* min(the horizon asked for, or REPORT_HORIZON, L - site - 1) */
    long horizon_asked; /* the options' horizon (0: none asked for) */
    size_t pairs;       /* (window, replacement) pairs averaged */
    size_t dropped;     /* pairs left out: no difference at k = 0 */
    int nk;
    int k[REPORT_MAX_K];
    /* mean normalised curves at k[0..nk); NULL when pairs == 0 (cell: for a GRU and an RNN
       too; forget_only: for an RNN too) */
    double *cell, *forget_only, *hidden;
    double hl_cell, hl_forget_only, hl_hidden; /* NAN when none within K */
    double *curve_cell, *curve_forget_only, *curve_hidden; /* the whole mean curves [K+1] */
    gt_loss loss;       /* the readout's mean loss over the windows (count 0 without one) */
    /* the linearized curve (perturb.h) likewise: at k[0..nk), its half-life, the whole */
    double *linearized, hl_linearized, *curve_linearized;
    /* each half-life's 95% interval by the jackknife over the ci_windows full windows that
     * keep pairs (interval.h), and whether it is past the horizon */
    gt_interval ci_cell, ci_forget_only, ci_hidden, ci_linearized;
    size_t ci_windows;
    gt_report_window *window; /* [full_windows]: each window's own pairs */
    gt_unit_row *unit_table; /* [H], in unit order */
    double seconds;     /* time taken */
    int threads;
    /* set by the caller when the model has interventions (intervene.h): what they are, and
     * the loss of the model without them (loss_base.count 0: not given) */
    const char *interventions;
    gt_loss loss_base;
} gt_report;

/* When the horizon asked for is more than a window holds after its edit, the note saying
 * so, into buf (n bytes; "--horizon 400: a window of 128 characters holds 95 steps after
 * its edit (at step 32), so the horizon is 95; --window-len 534 or more holds 400"), and 1;
 * 0 otherwise. */
int report_horizon_note(const gt_report *r, char *buf, size_t n);

/* When `asked` windows (o->windows_asked; 0: none asked for) are more than a text of
 * `steps` holds, so that only `used` of window_len steps of model m are taken, what to say
 * of it in buf ("--windows 500: the text's 43,235 characters make 338 windows of up to
 * 128; all 338 are taken"), and 1; 0 otherwise. */
int report_windows_note(long asked, size_t used, size_t window_len, size_t steps,
                        const gt_model *m, char *buf, size_t n);

/* Computes the report for tokens tok[0..steps) of model m. On failure nothing is left
 * allocated and e says what. */
int report_compute(gt_report *r, const gt_model *m, const uint16_t *tok, size_t steps,
                   const gt_report_options *o, gt_error *e);
void report_free(gt_report *r);

/* The report as aligned tables (text_name names the text in the heading), or as the JSON
 * object of doc/measures.md. Return GT_OK, or GT_EFAIL when writing fails. */
int report_print_text(FILE *f, const gt_report *r, const char *text_name, gt_error *e);
/* The same with its 95% intervals (intervals 1: report_print_text), or without (0: where
 * they do not fit, the screen's narrow stats view: the same lines, the intervals' row
 * saying they are not shown and the units' tables without their column). */
int report_print_text_as(FILE *f, const gt_report *r, const char *text_name, int intervals,
                         gt_error *e);
/* The step a line of report_print_text's window table names (the step it replaced) into
 * *step: 0; -1 for any other line. */
int report_line_step(const char *line, size_t *step);
/* n with thousands separators, as the tables write counts (12,345); returns buf. */
const char *report_commas(size_t n, char *buf, size_t len);
/* n and its noun, plural unless n is 1: "1 prediction", "12,345 predictions" (a noun whose
 * plural takes an s); returns buf. */
const char *report_count(size_t n, const char *noun, char *buf, size_t len);
int report_print_json(FILE *f, const gt_report *r, gt_error *e);

/* The sweep of the forget bias (doc/measures.md, "The sweep"): report[i] for shift d[i].
 * One row per shift: D, mean carry gate, median unit half-life, units with a half-life of
 * 10 or more, measured and forget-only half-lives, loss in bits per character; or JSON
 * {"sweep": [{"forget_bias": D, "report": {...}}, ...]}, each report naming every
 * intervention. `others` (or NULL): the interventions besides the sweep's shift. */
int report_print_sweep_text(FILE *f, const gt_report *r, const double *d, int n,
                            const char *text_name, const char *others, gt_error *e);
int report_print_sweep_json(FILE *f, const gt_report *r, const double *d, int n, gt_error *e);

#endif
