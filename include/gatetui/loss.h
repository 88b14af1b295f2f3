/* The readout's mean loss on a text (doc/measures.md): how well the model predicts each
 * next character, the sanity check that the vocabulary order and the readout's layer are
 * right. Over the report's windows: the token sequence cut into windows of window_len from
 * its start, the first `windows` of them, each run from the zero state; in each window the
 * prediction made after step t of the token at t + 1, for t = 0 .. len - 2. */
#ifndef GATETUI_LOSS_H
#define GATETUI_LOSS_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

typedef struct gt_loss {
    double nats;     /* mean -ln p(next character); NAN when count is 0 */
    size_t count;    /* predictions averaged; 0 without a readout */
    double uniform;  /* ln V: the loss of a uniform guess */
} gt_loss;

/* How many windows of window_len (at most `windows`, at least one) about 2e9 multiply-adds
 * allow: the screen's quick measure, so that a wide model starts at once. */
size_t loss_quick_windows(const gt_model *m, size_t window_len, size_t windows);

/* threads: 0 for one per online processor. */
int loss_measure(gt_loss *out, const gt_model *m, const uint16_t *tok, size_t steps,
                 size_t window_len, size_t windows, int threads, gt_error *e);

/* The same a step at a time, for windows run elsewhere (the report's): the readout packed
 * once (NULL and a message when out of memory); a step's -ln p(next) from the last layer's
 * h, with loss_scratch(m) doubles of room (NAN when a logit passes float32's range: the
 * readout overflows, run_readout_overflow); the windows' sums, in window order, into out. */
typedef struct gt_loss_steps gt_loss_steps;
gt_loss_steps *loss_steps_new(const gt_model *m, gt_error *e);
void loss_steps_free(gt_loss_steps *ls);
size_t loss_scratch(const gt_model *m);
double loss_step(const gt_loss_steps *ls, const float *h, double *scratch, int next);
void loss_from_sums(gt_loss *out, const gt_model *m, const double *sum, const size_t *count,
                    size_t nwin);

static inline double loss_bits(const gt_loss *l) { return l->nats / 0.69314718055994530942; }

/* 1 when the loss is no better than a uniform guess: the vocabulary's order or the
 * readout's layer is probably wrong. */
static inline int loss_suspect(const gt_loss *l) { return l->count && !(l->nats < l->uniform); }

/* The one-line warning for a suspect loss of model m, into buf. */
void loss_warning(const gt_model *m, const gt_loss *l, char *buf, size_t n);

#endif
