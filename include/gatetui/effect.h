/* Evidence (doc/measures.md, "The effect"): what an intervention does to the readout's
 * loss where a hypothesis holds and where it does not, over the report's windows, against
 * random sets of the same size. A position t = 0 .. len - 2 of a window is inside when the
 * character it predicts, x_(t+1), lies inside a match of the regular expression (the
 * matches of mask.h over the whole sequence), outside otherwise. Per class: the mean loss
 * without and with the intervention, their difference with a 95% interval by the jackknife
 * over windows, the accuracies; the specificity (inside - outside) with its own interval.
 * When the intervention is units of one layer ablated and nothing else, R control sets of
 * the same size are drawn from the layer's other units (splitmix64 and a partial
 * Fisher-Yates shuffle, so that a reference repeats it) and ablated in its place, each
 * window's text, the tested set and the controls stepped as one batch (batch.h). */
#ifndef GATETUI_EFFECT_H
#define GATETUI_EFFECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/report.h"

#define EFFECT_CONTROLS 20
#define EFFECT_SEED 1

/* One class of positions; losses and delta in bits, NAN where there is none. */
typedef struct gt_effect_class {
    size_t count;
    double loss_without, loss_with, delta, ci_lo, ci_hi;
    double acc_without, acc_with;
} gt_effect_class;

typedef struct gt_effect_options {
    gt_report_options win; /* the windows, their length, the threads, the progress (its layer
                              and horizon are not used) */
    long controls;         /* R (default EFFECT_CONTROLS): drawn only for an ablation alone */
    unsigned long long seed; /* S (default EFFECT_SEED) */
    long regex_seconds;    /* a search's time, 0: MASK_SECONDS */
    /* NULL (the default), or called each time a window's runs are complete, from the worker
     * that completed it, one call at a time: the first expression's classes (in, out) over
     * the `done` windows complete so far of `windows` (done == windows: the final ones) */
    void (*partial)(void *ctx, const gt_effect_class *in,
                    const gt_effect_class *out, size_t done, size_t windows);
    void *partial_ctx;
} gt_effect_options;

void effect_options_init(gt_effect_options *o);

/* What one regular expression found. */
typedef struct gt_effect_one {
    const char *regex;
    gt_effect_class in, out;
    double spec, spec_lo, spec_hi; /* delta inside - delta outside, bits */
    double *control;    /* [controls * 3]: each control set's delta inside, delta outside
                           and specificity, in bits */
    int rank;           /* controls whose specificity is at least the tested set's; -1: none */
    double p;           /* (1 + rank) / (1 + controls); NAN: none */
} gt_effect_one;

typedef struct gt_effect {
    const char *step_noun; /* "character", or a word model's "token" (model_step_noun) */
    const char *step_abbr; /* its short form in tables: "char" or "token" (model_step_abbr) */
    int layer;          /* the layer the intervention changes; -1 when it changes several */
    int set_size;       /* n: the units ablated (an ablation alone), 0 otherwise */
    int *tested;        /* [n] the ablated units, ascending */
    int others;         /* the layer's units not ablated, which the controls are drawn from */
    int controls;       /* R drawn: 0 unless the intervention is an ablation alone */
    int *sets;          /* [controls * n] each set ascending, in the order drawn */
    unsigned long long seed;
    size_t windows, window_len, predictions;
    int nregex;
    gt_effect_one *e;   /* [nregex] */
    int threads;
    double seconds;
} gt_effect;

/* base: the model as loaded; with: base with the interventions iv (session.h's mi). The
 * model needs a readout; iv must change something (GT_EINPUT otherwise); controls need
 * R sets of n from the layer's H - n others (GT_EINPUT when n > H - n and R > 0). */
int effect_compute(gt_effect *r, const gt_model *base, const gt_model *with,
                   const gt_intervention *iv, const uint16_t *tok, size_t steps,
                   const char *const *regex, int nregex, const gt_effect_options *o,
                   gt_error *e);
void effect_free(gt_effect *r);

/* One table per regular expression, in bits; or JSON {"intervention", "layer", "windows",
 * "effects": [{"regex", "inside": {...}, "outside": {...}, "specificity",
 * "specificity_ci", "controls": [{"units", "inside", "outside", "specificity"}...], "rank",
 * "p"}...]}. interventions: what the model has changed (iv_describe). */
int effect_print_text(FILE *f, const gt_effect *r, const char *interventions, gt_error *e);
int effect_print_json(FILE *f, const gt_effect *r, const char *interventions, gt_error *e);

#endif
