/* What the screen's interventions do where the hypothesis holds (effect.h; doc/measures.md,
 * "The effect"): with a hypothesis matched (m) and an intervention on (a, < > { }, C), the
 * loss of the positions predicting a character inside its matches against the others, with
 * and without the intervention, over the report's windows of the text as loaded, exactly
 * as gatetui --effect REGEX with the same intervention computes it (an ablation alone with
 * its 20 control sets). The status line shows delta inside and outside with their 95%
 * intervals, the effect's sheet (I) the table with its controls. A child process computes
 * it (bgjob.h): another hypothesis or intervention ends the computation at once and starts
 * the next; Esc stops it. */
#ifndef GATETUI_DATA_EFFECT_H
#define GATETUI_DATA_EFFECT_H

#include <stddef.h>

#include "gatetui/effect.h"
#include "screen/bgjob.h"
#include "screen/data_interv.h"

/* The state of the result (as data_carriers.h's). */
enum {
    EFFECT_NONE = BG_NONE, EFFECT_COMPUTING = BG_COMPUTING, EFFECT_KNOWN = BG_KNOWN,
    EFFECT_FAILED = BG_FAILED, EFFECT_STOPPED = BG_STOPPED
};

typedef struct gt_data_effect {
    int state;             /* EFFECT_* */
    /* what is known or computing: the hypothesis, the interventions (iv_describe) */
    char regex[256], what[512];
    /* the result, when known */
    gt_effect_class in, out;
    double spec, spec_lo, spec_hi;
    int controls, rank;    /* rank -1: no controls */
    double p;
    char *text;            /* the table (effect_print_text) */
    int lines;
    char error[256];
    /* while computing: delta inside and outside over the windows complete so far (the
     * first `part_done` of `part_windows`; part_done 0: none yet) */
    gt_effect_class part_in, part_out;
    size_t part_done, part_windows;
    /* private */
    const gt_data_interv *ivs;
    gt_bgjob job;
} gt_data_effect;

void data_effect_init(gt_data_effect *d);
void data_effect_free(gt_data_effect *d);

/* The effect of the interventions ivs (NULL: none can be made) for the hypothesis regex:
 * nothing when it is known,
 * computing or stopped for them; else computed by a child. Without a hypothesis ("") or an
 * intervention, forgotten. */
void data_effect_want(gt_data_effect *d, const gt_data_interv *ivs, const char *regex);

/* 1 when the effect applies: a hypothesis (regex not "") and an intervention, with a
 * readout to measure the loss by. */
int data_effect_applies(const gt_data_interv *ivs, const char *regex);
/* 1 when there is something to show: a hypothesis and an intervention. */
int data_effect_on(const gt_data_effect *d);
/* The model changed: what is known forgotten, a computation ended. */
void data_effect_forget(gt_data_effect *d);
/* Esc: a computation ended, not started again until what it is for changes (or
 * data_effect_again). 1 when one was running. */
int data_effect_stop(gt_data_effect *d);
void data_effect_again(gt_data_effect *d);
int data_effect_tick(gt_data_effect *d);
int data_effect_busy(const gt_data_effect *d);
double data_effect_progress(const gt_data_effect *d);

#endif
