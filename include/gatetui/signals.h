/* The values a unit takes along one run (doc/measures.md, "Finding the units that mean
 * something"): the signals of one layer, i, f, g, o, c, h for an LSTM and r, z, n, h for a
 * GRU, step after step from the zero state, handed to a consumer as the run goes. Nothing
 * is kept: what a consumer needs it accumulates. */
#ifndef GATETUI_SIGNALS_H
#define GATETUI_SIGNALS_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/run.h"

#define SIGNALS_MAX 6
#define SIGNALS_DEFAULT_STEPS 100000

/* How many signals the model's layers have (6, 4 or 2) and the name of signal s. */
int signals_count(const gt_model *m);
const char *signals_name(const gt_model *m, int s);
/* The signal called name, or -1. */
int signals_parse(const gt_model *m, const char *name);
/* The list of the model's signal names, "i, f, g, o, c, h", for messages. */
const char *signals_list(const gt_model *m);
/* The index of h. */
int signals_h(const gt_model *m);
/* 1 for a gate (a sigmoid between 0 and 1: i, f, o, r, z), 0 for g, n, c, h. */
int signals_is_gate(const gt_model *m, int s);
/* 1 for a signal without bounds shown as tanh of its value (an LSTM's c, an RNN's a). */
int signals_tanh_shown(const gt_model *m, int s);

/* Signal s of layer k ([H] values) as the run holds them after its last step. */
const float *signals_of(const gt_run *r, int k, int s);

/* Called after each step t (0, 1, ...) with the run; a nonzero return ends the pass. */
typedef int (*gt_signals_fn)(void *ctx, size_t t, const gt_run *r);

typedef struct gt_pass_options {
    int layer;
    int threads;        /* threads sharing each step's products; < 2: one */
    /* called now and then with the fraction done (0..1) */
    void (*progress)(void *ctx, double done);
    void *progress_ctx;
} gt_pass_options;

/* Runs layers 0..o->layer through tok[0..n) from the zero state, calling fn (when not NULL)
 * after every step. GT_EFAIL when out of memory. */
int signals_pass(const gt_model *m, const uint16_t *tok, size_t n, const gt_pass_options *o,
                 gt_signals_fn fn, void *ctx, gt_error *e);

/* Unit `unit`'s signal s on layer o->layer at steps from..to (inclusive) of one run from the
 * zero state over tok[0..to], into v[0 .. to - from]: the values --dump prints. */
int signals_collect(const gt_model *m, const uint16_t *tok, const gt_pass_options *o, int s,
                    int unit, size_t from, size_t to, float *v, gt_error *e);

#endif
