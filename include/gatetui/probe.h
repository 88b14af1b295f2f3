/* Meaning carried by many units (doc/measures.md, "Probes and components"): a linear probe,
 * a cross-validated L2 logistic regression of a regular expression's mask on every unit of
 * one signal of a layer, against the best single unit; and the principal components of the
 * signal over the steps. Both over one run from the zero state over the first `steps`
 * steps, printed as text for people or JSON for programs. */
#ifndef GATETUI_PROBE_H
#define GATETUI_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/interval.h"
#include "gatetui/model.h"
#include "gatetui/signals.h"
#include "gatetui/text.h"

#define PROBE_DEFAULT_FOLDS 5
/* The bounds on what --probe and --components may be asked, so that they finish (doc/usage.md):
 * the folds (each fits the probe again, and units_for_95 fits up to H probes of them all),
 * and the signal's matrix of steps x units float32 values (4 GiB). */
#define PROBE_MAX_FOLDS 20
#define PROBE_MAX_VALUES (1ull << 30)
#define PROBE_DEFAULT_L2 1e-3
#define COMPONENTS_TOP 10 /* loadings listed per component */

typedef enum gt_probe_mode { PROBE_FIT, PROBE_COMPONENTS } gt_probe_mode;

typedef struct gt_probe_options {
    gt_probe_mode mode;
    const char *arg;     /* the regex, or the number of components */
    const char *signal;  /* NULL: h */
    const char *l2;      /* NULL: PROBE_DEFAULT_L2 */
    long folds;          /* 0: PROBE_DEFAULT_FOLDS */
    long steps;          /* -1: SIGNALS_DEFAULT_STEPS */
    long regex_seconds;  /* 0: MASK_SECONDS */
    int layer, json, threads; /* threads: the run's */
    int fit_threads;          /* the fits': > 1 for two; 0: two where there are two
                               * processors (threads_choose) */
    void (*progress)(void *ctx, double done);
    void *progress_ctx;
} gt_probe_options;

/* The signal's values over steps [0, n): x[t * H + j], as the run computed them. */
typedef struct gt_signal_matrix {
    float *x;
    size_t n;
    int H;
} gt_signal_matrix;

int probe_matrix(gt_signal_matrix *out, const gt_model *m, const uint16_t *tok, size_t n,
                 int signal, const gt_pass_options *o, gt_error *e);

/* The rows a fit is over: n x d values v (row-major), each column standardised by its
 * mean and scale: the fit's x is (v - mean) * scale, in double. */
typedef struct gt_probe_rows {
    const float *v;
    const double *mean, *scale; /* [d] */
    size_t n;
    int d;
} gt_probe_rows;

/* Minimises the mean log-loss of sigmoid(x w + b) against y over the rows of x
 * + (lambda/2)|w|^2 by Newton's method (the exact gradient, a Hessian that steers:
 * doc/measures.md, "The probe") to a gradient norm below 1e-8, on two threads when
 * threads > 1 and the rows hold at least PROBE_FIT_THREADED values, n (d + 1) (the same
 * numbers as on one); w has d weights and then the bias. GT_EFAIL when it does not
 * converge. */
#define PROBE_FIT_THREADED 1048576
int probe_logistic(const gt_probe_rows *x, const unsigned char *y, double lambda, int threads,
                   double *w, gt_error *e);
/* The same, with the work it took into *work (unless NULL), for the benchmarks: the passes
 * over the rows (each a score and a gradient sum a row: 4 n d floating-point operations)
 * and the rows of its Hessians (d^2 each). */
typedef struct gt_probe_work {
    size_t passes, hessian_rows;
} gt_probe_work;
int probe_logistic_counted(const gt_probe_rows *x, const unsigned char *y, double lambda,
                           int threads, double *w, gt_probe_work *work, gt_error *e);
/* The same from the weights start (d + 1): a warm start, where a fit on nearly the same
 * columns and rows is known. The minimum is the same; fewer steps reach it. */
int probe_logistic_from(const gt_probe_rows *x, const unsigned char *y, double lambda,
                        int threads, const double *start, double *w, gt_probe_work *work,
                        gt_error *e);
/* The area under the ROC curve of score s for labels y over the n steps, ties counted a
 * half; NAN when y is constant. */
double probe_auc(const double *s, const unsigned char *y, size_t n);

typedef struct gt_probe_fold {
    double auc, accuracy;   /* held out; auc NAN when the held-out fold is of one class */
    int best_unit;          /* the best single unit on the training folds */
    double best_unit_auc;   /* its held-out AUC, oriented as on the training folds */
} gt_probe_fold;

typedef struct gt_probe_weight {
    int unit;
    double w;
} gt_probe_weight;

typedef struct gt_probe {
    const gt_model *m;
    int layer, signal, nfolds, nweights;
    size_t steps, inside;
    double lambda, auc, accuracy, best_unit_auc; /* means over the folds */
    gt_interval auc_ci;        /* the mean AUC's 95% interval: mean +- 1.96 sd / sqrt(K),
                                  sd the folds' sample deviation (interval_mean) */
    gt_probe_fold *folds;      /* [nfolds] */
    gt_probe_weight *weights;  /* [nweights]: the fit on every step, largest |w| first */
    double bias;
    double *prob;              /* [steps]: the fit on every step's probability at each step */
    int units_for_95;          /* -1 when the mean AUC is not defined */
} gt_probe;

typedef struct gt_components {
    const gt_model *m;
    int layer, signal, k, H;
    size_t steps;
    double *explained;   /* [k] */
    double *loading;     /* [k * H] */
    double *score;       /* [k * steps]: each step's score on each component */
} gt_components;

/* On failure nothing is left allocated in p (probe_free on it is harmless). */
int probe_compute(gt_probe *p, const gt_signal_matrix *x, const unsigned char *y,
                  int folds, double lambda, int threads, gt_error *e);
void probe_free(gt_probe *p);
int components_compute(gt_components *c, const gt_signal_matrix *x, int k, gt_error *e);
void components_free(gt_components *c);

/* Printing (probe_print.c). */
int probe_print(FILE *f, const gt_probe *p, const char *regex, const char *text_name,
                int json);
int components_print(FILE *f, const gt_components *c, const char *text_name, int json);

/* Runs the mode on model m and text t and prints its result to out. */
int probe_main(FILE *out, const gt_model *m, const gt_text *t, const gt_probe_options *o,
               gt_error *e);

#endif
