/* Random access to every step of a run: the gates, c and h of every layer and the readout,
 * at any step of the text (or of the text with edits), without keeping every step.
 *
 * States are checkpointed every `interval` steps, the interval chosen so that the
 * checkpoints stay within a fixed budget (16 MB by default) whatever the text's length.
 * The values of a window of consecutive steps around the one looked at are kept in full;
 * moving the window costs at most one interval plus the window's new part. A background
 * pass (a thread) fills the checkpoints to the end of the text, with progress and
 * cancellation; afterwards every step is reached within one interval.
 *
 * Edits replace the token of one step; they stack and are undone in reverse order. Every
 * value the trace gives is that of the edited sequence. The text is never written: the edits
 * are kept beside it (the steps edited, sorted, with their tokens now), so editing a text of
 * any length copies nothing and takes memory for the edits only. Only the main thread calls
 * these functions; the background pass is private. */
#ifndef GATETUI_TRACE_H
#define GATETUI_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/text.h"

#define TRACE_CHECKPOINT_BUDGET ((size_t)16 << 20) /* bytes of checkpointed states */
#define TRACE_WINDOW_BUDGET ((size_t)32 << 20)     /* bytes of the window of full values */
#define TRACE_MIN_INTERVAL 32
#define TRACE_MIN_WINDOW 64
#define TRACE_MAX_WINDOW 2048

typedef struct gt_trace gt_trace;

typedef struct gt_trace_limits {
    size_t checkpoint_budget; /* 0: TRACE_CHECKPOINT_BUDGET */
    size_t window_budget;     /* 0: TRACE_WINDOW_BUDGET */
    size_t min_interval;      /* 0: TRACE_MIN_INTERVAL */
    int pass_threads;         /* the background pass's: N > 0; < 0: one or two, whichever is
                               * faster now; 0: that choice on a model large enough, else 1 */
} gt_trace_limits;

typedef struct gt_edit {
    size_t step;
    int old_tok, new_tok;
} gt_edit;

/* A trace of model m over text t's steps (both must outlive it; t is only read). lim may be
 * NULL. */
int trace_open(gt_trace **out, const gt_model *m, const gt_text *t, const gt_trace_limits *lim,
               gt_error *e);
/* The same for a model whose vocabulary holds the characters of t's model in another order:
 * map[v] is its token for t's token v (vocabmap.h; it must outlive the trace). Every token
 * the trace takes and gives is then the model's own. */
int trace_open_mapped(gt_trace **out, const gt_model *m, const gt_text *t, const uint16_t *map,
                      const gt_trace_limits *lim, gt_error *e);
void trace_close(gt_trace *tr); /* stops the background pass first */

const gt_model *trace_model(const gt_trace *tr);
const gt_text *trace_text(const gt_trace *tr); /* the text as loaded */
size_t trace_steps(const gt_trace *tr);
size_t trace_interval(const gt_trace *tr);
size_t trace_window_len(const gt_trace *tr);  /* steps the window holds */
size_t trace_checkpoint_bytes(const gt_trace *tr); /* memory the checkpoints take */

/* Step s's token as edited (-1 when s is past the end): a search among the edited steps. */
int trace_token(const gt_trace *tr, size_t s);
/* Steps [a, a + n) as edited into out (a + n <= steps). */
void trace_read(const gt_trace *tr, size_t a, size_t n, uint16_t *out);
/* Step s's token as in the text before any edit (-1 when s is past the end). */
int trace_original_at(const gt_trace *tr, size_t s);
/* 1 when step s's token differs from the text's. */
int trace_edited(const gt_trace *tr, size_t s);
/* The first step at or after s whose token differs from the text's (steps when none). */
size_t trace_next_edited(const gt_trace *tr, size_t s);

/* Replaces step s's token (stopping the background pass, which the caller may restart).
 * GT_EINPUT when s or tok is out of range, GT_EFAIL when out of memory; either leaves the
 * edits as they were. */
int trace_edit(gt_trace *tr, size_t s, int tok, gt_error *e);
/* Undoes the last edit; 0 when there was none, 1 otherwise (*undone, if not NULL, says
 * which). */
int trace_undo(gt_trace *tr, gt_edit *undone);
size_t trace_edit_count(const gt_trace *tr);
const gt_edit *trace_edit_at(const gt_trace *tr, size_t i); /* 0: the oldest */

/* The model's weights changed in place (the same gt_model, its interventions made again,
 * intervene.h): stops the background pass and forgets every state computed; the edits
 * stay. */
void trace_model_changed(gt_trace *tr);

/* Makes the window hold steps [a, b) (b - a <= trace_window_len, b <= steps): computed from
 * the nearest known state, synchronously. GT_EFAIL only when out of memory. */
int trace_load(gt_trace *tr, size_t a, size_t b, gt_error *e);
/* 1 when step s is in the window. */
int trace_has(const gt_trace *tr, size_t s);
/* Layer k's values after reading step s (s must be in the window): the gates after their
 * nonlinearity ([G*H], blocks in PyTorch's order), c ([H], zeros for a GRU) and h ([H]). */
const float *trace_gates(const gt_trace *tr, size_t s, int k);
const float *trace_c(const gt_trace *tr, size_t s, int k);
const float *trace_h(const gt_trace *tr, size_t s, int k);
/* The readout's next-token probabilities after step s (in the window; needs a readout). */
void trace_probs(gt_trace *tr, size_t s, float *p /* [V] */);

/* The state before step s (0 <= s <= steps): h and c of every layer ([hidden_total] each, c
 * zeros for a GRU), that is after steps 0..s-1. States before s do not depend on edits at s or
 * later. */
int trace_state_before(gt_trace *tr, size_t s, float *h, float *c, gt_error *e);

/* 1 when step s can be loaded now within about a frame's time: its checkpoint is known, or
 * close enough to the last one known. */
int trace_reachable(const gt_trace *tr, size_t s);
/* Steps before which every state is checkpointed (steps when the text is covered). */
size_t trace_known(const gt_trace *tr);

/* Starts the background pass filling checkpoints up to step `target` (clamped to the
 * text's end); nothing when they already are, or when a pass runs. */
int trace_pass_start(gt_trace *tr, size_t target, gt_error *e);
/* Stops the pass and waits for it; what it computed is kept. */
void trace_pass_cancel(gt_trace *tr);
/* 1 while the pass runs (and collects it when it has ended). */
int trace_pass_running(gt_trace *tr);
/* The share of the text whose states are known, from 0 to 1: from its first step, however
 * late the pass started (while it runs: of the text up to where it goes). */
double trace_pass_progress(const gt_trace *tr);

#endif
