/* Finding the units that mean something, on the screen (doc/screen.md): a hypothesis as a
 * regular expression (m: its matches underlined in the strip, every unit's r with it in
 * the gate rows and a sort by |r|), a stretch of text selected (v: the units on throughout
 * it and its other matches), a unit's profile (p: a sheet over the panels). Each is computed over one run
 * from the zero state over the first `steps` steps of the text as edited, on the layer
 * shown, by a child process (bgjob.h): progress shown, keys answering. An edit, an undo or
 * another layer computes again what is shown. */
#ifndef GATETUI_DATA_FIND_H
#define GATETUI_DATA_FIND_H

#include <stddef.h>

#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

/* What n and N go through: the last thing searched or matched. */
typedef enum gt_find_last { FIND_LAST_SEARCH, FIND_LAST_MATCH, FIND_LAST_SELECT } gt_find_last;

/* The state of a result. */
enum { FIND_NONE, FIND_COMPUTING, FIND_KNOWN, FIND_FAILED };

#define FIND_THRESHOLD_STEP 0.05

typedef struct gt_data_find {
    /* what the keys set */
    int signal;              /* of the r column, the selection and the profile */
    double threshold;        /* of the selection */
    size_t steps;            /* the first steps searched */
    gt_find_last last;
    char regex[256];         /* the hypothesis, "" for none */
    int selecting;           /* v pressed once: the cursor is the other end */
    size_t anchor;           /* the end v marked */
    int prof_wanted;         /* the profile is over the panels: kept computed */

    /* the hypothesis: the matches and every unit's r with them, for hyp_layer */
    int hyp_state, hyp_layer;
    double *r;               /* [nsig * H], NAN where it does not exist */
    size_t nmatch, inside, searched;
    size_t *mfrom, *mto;     /* [nmatch] */

    /* the selection */
    int sel_state, sel_layer, sel_signal;
    size_t sel_a, sel_b;
    double sel_threshold;
    int nsel;
    int *sel_units;
    double *sel_min;
    size_t nsm;
    size_t *sfrom, *sto;     /* [nsm] */

    /* the profile: the text of gatetui --profile */
    int prof_state, prof_unit, prof_layer, prof_signal;
    char *prof_text;
    int prof_lines;

    /* a line for the status line when a computation ends (taken by the view) */
    char msg[256];
    int msg_error, msg_new;

    /* private */
    const gt_model *m;
    gt_trace *tr;
    int nsig;
    int want;                /* the computations waiting their turn */
    int quiet;               /* those asked for again by data_find_changed (an edit, an
                              * intervention, another layer), whose results do not take the
                              * message line from what the key said; their errors do */
    int want_layer, want_unit;
    gt_bgjob job;
} gt_data_find;

int data_find_init(gt_data_find *f, const gt_model *m, gt_trace *tr, size_t steps, gt_error *e);
void data_find_free(gt_data_find *f);

/* The hypothesis: computed for layer (regex "" removes it). GT_EINPUT, with e filled, when
 * the expression is not valid. */
int data_find_set_regex(gt_data_find *f, const char *regex, int layer, gt_error *e);
/* The hypothesis f holds checked at once against the steps it searches (as edited):
 * GT_EINPUT, with e filled, when it matches none of them or every one (a session's). */
int data_find_check(const gt_data_find *f, gt_error *e);
/* The selection of steps a..b (in either order), computed for layer. */
void data_find_select(gt_data_find *f, size_t a, size_t b, int layer);
/* The profile of unit on layer, shown (or hidden when it is shown). */
void data_find_profile(gt_data_find *f, int unit, int layer, int show);
/* The next signal (i f g o c h, r z n h) or threshold +-FIND_THRESHOLD_STEP: what is shown is
 * computed again. */
void data_find_next_signal(gt_data_find *f, int layer, int unit);
void data_find_change_threshold(gt_data_find *f, int dir, int layer);
/* The edits or the layer changed: what is shown is computed again. */
void data_find_changed(gt_data_find *f, int layer, int unit);

/* Follows the computation; 1 when the screen should be redrawn. */
int data_find_tick(gt_data_find *f);
int data_find_busy(const gt_data_find *f);
/* The running computation's name ("the correlations", "the selection", "the profile") and
 * progress from 0 to 1, or NULL when none runs. */
const char *data_find_progress(const gt_data_find *f, double *done);
/* Ends the running computation and forgets what waits. */
void data_find_cancel(gt_data_find *f);

/* The first line of the profile from line `from` on that names a step (its table's rows:
 * "  17046   +0.7335  context"): 0, the step and (line may be NULL) the line's number; -1
 * when there is none, or no profile. */
int data_find_profile_step(const gt_data_find *f, int from, size_t *step, int *line);

/* Where n (dir > 0) or N goes from step t through the matches of the last hypothesis or
 * selection (around the end; *wrapped: it went around): 1 and *to, the match's number from 0
 * in *index of the *count; -1 when there is no match; 0 when the last thing was a search
 * (or is not known yet). */
int data_find_jump(const gt_data_find *f, size_t t, int dir, size_t *to, int *wrapped,
                   size_t *index, size_t *count);

/* For drawing: step s inside a match of the hypothesis, of the selection; inside the span
 * being selected (cursor at t). */
int data_find_in_match(const gt_data_find *f, size_t s);
int data_find_in_selection(const gt_data_find *f, size_t s);
int data_find_in_span(const gt_data_find *f, size_t s, size_t t);
/* The r column: 1 when r is known for layer, and unit's r with the signal chosen. */
int data_find_has_r(const gt_data_find *f, int layer);
double data_find_r(const gt_data_find *f, int unit);
const char *data_find_signal_name(const gt_data_find *f);

#endif
