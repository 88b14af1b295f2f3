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
    size_t distinct; /* the text's distinct tokens, counted to 3 (loss_text; 0: not counted) */
    int first_tok;   /* the text's first token (when distinct is 1 or 2: naming them) */
    int other_tok;   /* the first token unlike it (-1: none) */
} gt_loss;

/* The text's distinct tokens into l, 1, 2, or 3 for more (for loss_warning: a text of one
 * or two tokens over and over is unlike any text a model of many tokens learns from,
 * whatever its vocabulary's order). */
void loss_text(gt_loss *l, const uint16_t *tok, size_t steps);

/* How many windows of window_len (at most `windows`, at least one) about 2e9 multiply-adds
 * allow: the screen's quick measure, so that a wide model starts at once. */
size_t loss_quick_windows(const gt_model *m, size_t window_len, size_t windows);

/* threads: 0 for one per online processor. */
int loss_measure(gt_loss *out, const gt_model *m, const uint16_t *tok, size_t steps,
                 size_t window_len, size_t windows, int threads, gt_error *e);

/* The same for windows run elsewhere (the report's): the readout packed once (NULL and a
 * message when out of memory); the predictions taken a block of LOSS_BLOCK at a time, the
 * readout's product with the block's states one matrix product (doc/speed.md: the readout is
 * a word model's largest product), each -ln p(next) then added to the window's sum in step
 * order; the windows' sums, in window order, into out. */
#define LOSS_BLOCK 16
typedef struct gt_loss_steps gt_loss_steps;
gt_loss_steps *loss_steps_new(const gt_model *m, gt_error *e);
void loss_steps_free(gt_loss_steps *ls);

/* A block of predictions waiting for their product: the last layer's h after each step, the
 * token that follows it, the step (NULL and a message when out of memory). */
typedef struct gt_loss_block gt_loss_block;
gt_loss_block *loss_block_new(const gt_model *m, gt_error *e);
void loss_block_free(gt_loss_block *b);
/* Adds the prediction after step `step` (h: the last layer's) of token next to the block,
 * its loss going to *sum and *count: taken when the block is full (or the sum changes), and
 * by loss_block_flush. Either returns GT_OK, or GT_EINPUT with e saying at which step the
 * readout overflowed (a logit past float32's range: run_readout_overflow). */
int loss_block_add(const gt_loss_steps *ls, gt_loss_block *b, const float *h, int next,
                   size_t step, double *sum, size_t *count, gt_error *e);
int loss_block_flush(const gt_loss_steps *ls, gt_loss_block *b, gt_error *e);
/* A step's states found past float32 (rc, with e saying so): the block's predictions taken
 * first, so that a readout that overflowed at an earlier step is what e says, as when each
 * prediction was taken at its step. Returns the error to give. */
int loss_block_failed(const gt_loss_steps *ls, gt_loss_block *b, int rc, gt_error *e);
void loss_from_sums(gt_loss *out, const gt_model *m, const double *sum, const size_t *count,
                    size_t nwin);

static inline double loss_bits(const gt_loss *l) { return l->nats / 0.69314718055994530942; }

/* 1 when the loss is no better than a uniform guess: the vocabulary's order or the
 * readout's layer is probably wrong. */
static inline int loss_suspect(const gt_loss *l) { return l->count && !(l->nats < l->uniform); }

/* The one-line warning for a suspect loss of model m, into buf: 1 when it says the
 * vocabulary or the readout is probably wrong, 0 when it names the text (one or two tokens
 * over and over). */
int loss_warning(const gt_model *m, const gt_loss *l, char *buf, size_t n);

#endif
