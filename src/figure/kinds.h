/* The figures for a paper (doc/figures.md): each kind made from numbers the measures have
 * computed (the report's mean curves or an edit's, the unit table, several models'
 * columns of the compared table, the Lyapunov spectrum, a unit's values along the text),
 * as a chart (plot.h) and the CSV of every number it plots, one row a point. Nothing here
 * computes a measure. */
#ifndef GATETUI_FIGURE_KINDS_H
#define GATETUI_FIGURE_KINDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "figure/plot.h"
#include "gatetui/compare.h"
#include "gatetui/dynamics.h"
#include "gatetui/error.h"
#include "gatetui/interval.h"
#include "gatetui/model.h"
#include "gatetui/perturb.h"
#include "gatetui/report.h"

typedef enum fig_kind {
    FIG_PERTURBATION, FIG_HALFLIVES, FIG_CHECKPOINTS, FIG_LYAPUNOV, FIG_UNIT, FIG_KINDS
} fig_kind;
#define FIG_KINDS_LIST "perturbation, halflives, checkpoints, lyapunov or unit"

/* The kinds' words in order, NULL-terminated; the kind a word names, or -1. */
extern const char *const fig_kind_words[FIG_KINDS + 1];
int fig_kind_of(const char *word);

/* The most models one figure draws (each has a colour and a marker of its own up to the
 * palette's sizes, plot.h). */
#define FIG_MAX_MODELS 12
#define FIG_MAX_CHECKPOINTS PLOT_MAX_NAMES /* the checkpoints figure's: named on its axis */

/* A figure made: its chart and the CSV of its numbers (csv, csv_len), and the memory both
 * point to. */
typedef struct fig_doc {
    plot_figure *plot;
    char *csv;
    size_t csv_len;
    /* private */
    FILE *csvf;
    int digits;          /* the CSV's significant digits */
    int col;             /* fields on the CSV's row so far */
    int failed;          /* memory ran out */
    void **owned;
    size_t nowned, cap;
} fig_doc;

/* What the caption names besides the figure's own: the text (its file name and steps), the
 * layer, and how the numbers were computed. */
typedef struct fig_where {
    const char *text;
    size_t steps;
    int layer;
    const char *what;
    int words; /* 1: a word model's text (doc/usage.md, "Word models"): a step is a token */
} fig_where;

/* perturbation: each model's curves (doc/measures.md, "Perturbation"), k = 0..K, drawn
 * divided by their value at k = 0 on a log scale, with their half-lives and intervals. */
enum { FIG_C, FIG_H, FIG_LIN, FIG_FO, FIG_CURVES };
typedef struct fig_pert {
    const char *model;        /* its file name */
    int K;
    const double *curve[FIG_CURVES]; /* [K+1] each: measured c, measured h, linearized,
                                        forget-only; NULL where the model has none */
    double hl[FIG_CURVES];    /* NAN: none within K */
    gt_interval ci[FIG_CURVES]; /* .has 0: none */
    int update_gate;          /* 1: its carry gate is a GRU's update gate z ("update-only") */
} fig_pert;
int fig_perturbation(fig_doc *d, const fig_pert *m, int n, const fig_where *w, gt_error *e);
/* One edit's curves as the perturbation panel has them (r, of a model of this cell): the
 * curves the cell has, each half-life NAN when none is within K and then marked past the
 * horizon when its curve starts above zero; no interval (one edit, one run). */
void fig_pert_of_edit(fig_pert *p, const char *model, const gt_celltype *cell,
                      const gt_perturb_result *r);

/* What a caption says of the numbers of a report (c, a model's column): its windows, edits
 * and horizon, "95% intervals ..." when intervals, then the interventions (or NULL); into
 * buf, returned (fig_what.c). */
const char *fig_report_what(const gt_compare_col *c, int intervals, const char *interventions,
                            char *buf, size_t n);

/* halflives: each model's unit table (H rows, its perturbation's horizon K). */
typedef struct fig_units {
    const char *model;
    const gt_unit_row *rows;
    int H, K;
    const char *carry;        /* the carry gate's name: "f", "z" */
} fig_units;
int fig_halflives(fig_doc *d, const fig_units *m, int n, const fig_where *w, gt_error *e);

/* checkpoints: the models' columns of the compared table, in the order given. */
int fig_checkpoints(fig_doc *d, const gt_compare_col *c, int n, const fig_where *w,
                    gt_error *e);

/* lyapunov: each model's spectrum. */
typedef struct fig_spectrum {
    const char *model;
    const gt_lyapunov *l;
} fig_spectrum;
int fig_lyapunov(fig_doc *d, const fig_spectrum *m, int n, const fig_where *w, gt_error *e);

/* unit: each model's values of one signal of unit `unit` over steps from..to (v[s - from]),
 * with the text's characters (tok, model m's tokens, indexed by step) beneath. */
typedef struct fig_signal {
    const char *model;
    const float *v;
} fig_signal;
typedef struct fig_unit_span {
    int unit;
    const char *signal;
    size_t from, to;
    const gt_model *m;
    const uint16_t *tok;
} fig_unit_span;
int fig_unit(fig_doc *d, const fig_signal *m, int n, const fig_unit_span *u,
             const fig_where *w, gt_error *e);

void fig_doc_free(fig_doc *d);

/* Refuses path before anything is computed: GT_EINPUT when its ending is not .svg, .pdf or
 * .png, or when it or path.csv exists. */
int fig_check_path(const char *path, gt_error *e);
/* Draws d in the format path's ending asks for and writes it to path and its CSV to
 * path.csv, each a new file (never over one: GT_EINPUT naming it, and the figure written
 * before its CSV was refused removed again). */
int fig_write(const fig_doc *d, const char *path, gt_error *e);
/* Writes d as SVG and its CSV to new files in directory dir: the first name base.svg,
 * base-2.svg, ... whose .svg and .svg.csv are both free; the SVG's name into out. */
int fig_write_new_in(const fig_doc *d, const char *dir, const char *base, char *out, size_t n,
                     gt_error *e);

#endif
