/* The whole state's dynamics of one layer (doc/measures.md, "The whole state's dynamics"):
 * the state s = (c, h) of an LSTM layer (2H numbers), h of a GRU (H), its step's exact
 * Jacobian J_t = ds_t / ds_(t-1) with the layer's input fixed (formed from the tangent map's
 * rows, tangent.h), and from it the Lyapunov spectrum along a text (the QR method) and the
 * eigenvalues at one step. The steps are run in double precision from the zero state. */
#ifndef GATETUI_DYNAMICS_H
#define GATETUI_DYNAMICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/interval.h"
#include "gatetui/model.h"

/* The Lyapunov spectrum: M exponents per character, largest first, each with its standard
 * error by batch means (the summed steps cut into LYAPUNOV_BATCHES in turn, the last taking
 * the remainder: sd_b of the batches' means / sqrt(LYAPUNOV_BATCHES), NAN when fewer steps
 * than batches are summed), and their half-lives ln 1/2 / lambda (NAN when lambda >= 0) with
 * the half-width of a 95% interval, LYAPUNOV_Z95 SE carried to first order
 * (-ln 1/2 / lambda^2 LYAPUNOV_Z95 SE). */
#define LYAPUNOV_BATCHES 10
#define LYAPUNOV_Z95 INTERVAL_Z95
typedef struct gt_lyapunov {
    int layer, modes;
    const char *step_noun; /* "character", or a word model's "token" (model_step_noun) */
    size_t steps, warmup; /* N and W: J_1..J_N, summed over t = W+1..N */
    double *exponent, *se, *halflife, *halflife_hw; /* [modes] */
} gt_lyapunov;

/* The step's state size of model m's layer `layer` (in range): 2H_k (a cell state's (c, h))
 * or H_k (GRU, plain RNN). */
int dyn_state_size(const gt_model *m, int layer);

/* Steps 0..steps of tok (steps + 1 tokens) through layers 0..layer: step 0, from the zero
 * state, sets the state the first Jacobian is taken from; J_t = ds_t / ds_(t-1) of the
 * steps t = 1..steps carry M tangents by the exact tangent map as one product per step (an
 * LSTM's one for every 16, split among up to `threads` threads: the same numbers on any
 * number; < 1: one per processor), each step's QR by LAPACK; the exponents are the means of
 * ln R_t,ii over t = warmup+1..steps (doc/measures.md, "The whole state's dynamics").
 * GT_EINPUT when M is not in 1..state size or warmup >= steps. */
int lyapunov_compute(gt_lyapunov *l, const gt_model *m, int layer, int M, const uint16_t *tok,
                     size_t steps, size_t warmup, int threads, gt_error *e);
void lyapunov_free(gt_lyapunov *l);

/* The eigenvalues of J_T (the step reading tok[T]), by modulus, largest first (ties as
 * doc/measures.md, "The eigenvalues at a step", orders them: by the imaginary part, then the
 * real part, largest first), all of them by LAPACK or the k largest by ARPACK, and the carry
 * gates at T (f of an LSTM, z of a GRU, none of a plain RNN), largest first. */
typedef struct gt_spectrum {
    int layer, n, H;
    int count;                        /* the eigenvalues held: n, or the k largest */
    size_t step;
    double *re, *im, *abs, *halflife; /* [count]; half-life ln 1/2 / ln |lambda|, NAN at >= 1 */
    double *carry;                    /* [H]; NAN for a plain RNN (no carry gate) */
} gt_spectrum;

int spectrum_compute(gt_spectrum *s, const gt_model *m, int layer, const uint16_t *tok,
                     size_t T, gt_error *e);
/* The same for the step reading tok from the state before it, h and c of every layer
 * ([hidden_total] each, as the trace keeps them; c ignored for a GRU); T is its step's
 * number, for s->step and the messages. */
int spectrum_from(gt_spectrum *s, const gt_model *m, int layer, const float *h,
                  const float *c, uint16_t tok, size_t T, gt_error *e);
/* The k largest of them alone (1 <= k < n; k <= 0 or k >= n: all), from the same state, by
 * ARPACK's implicitly restarted Arnoldi method on a power of J (what the derivative sheet
 * shows: tens of milliseconds where the whole spectrum takes a tenth of a second or more),
 * the power's squarings shared among `threads` threads (< 1: one per processor; the same
 * numbers on any). */
int spectrum_top_from(gt_spectrum *s, const gt_model *m, int layer, const float *h,
                      const float *c, uint16_t tok, size_t T, int k, int threads, gt_error *e);
void spectrum_free(gt_spectrum *s);

/* Fixed points of layers 0..layer under a held token (Newton's method, doc/measures.md,
 * "Fixed points"): the starts are N states of the text's run in double, after steps
 * floor((i + 1) steps / N) - 1, each then moved on by `hold` steps reading the held token;
 * Newton stops when |F(s) - s|_2 <= FIXED_TOL and gives up
 * after FIXED_ITERS steps (or at a singular step or a state not finite); points within
 * FIXED_SAME of each other (the stack's state, Euclidean) are one. */
#define FIXED_ITERS 50
#define FIXED_TOL 1e-10
#define FIXED_SAME 1e-6
#define FIXED_HALVINGS 30

typedef struct gt_fixed_point {
    double residual;   /* |F(s*) - s*|_2 of the stack's state */
    double max_abs;    /* the largest |eigenvalue| of the stack's step Jacobian at s* */
    double halflife;   /* ln 1/2 / ln max_abs; NAN when max_abs >= 1 */
    int stable;        /* max_abs < 1 */
    size_t found_from; /* how many starts reached it */
    size_t first;      /* the first of them */
    double *state;     /* [n]: the layer's s*, (c, h) or h */
} gt_fixed_point;

typedef struct gt_fixed_options {
    size_t steps, starts, hold; /* the text's steps the starts come from, their number, and
                                   the held token's steps from each before Newton */
    int threads;                /* 0: one per online processor; the numbers do not depend
                                   on it */
} gt_fixed_options;

typedef struct gt_fixed {
    int layer, n, lstm;
    int words;             /* a word model's: the held input is a token */
    uint16_t tok;
    size_t starts, hold, not_converged, count;
    gt_fixed_point *point; /* [count]: by found_from, most first */
    double *store;
} gt_fixed;

/* The bounds on what --fixed-points may be asked, so that it finishes (doc/usage.md): the
 * held character's steps from each start, the starts, and the held steps in all. */
#define FIXED_MAX_HOLD 1000000
#define FIXED_MAX_STARTS 4096
#define FIXED_MAX_HELD 10000000
/* GT_EINPUT when layer is not the model's, o->starts is not in 1..o->steps, or a bound
 * above is passed (the bound named). */
int fixed_compute(gt_fixed *f, const gt_model *m, int layer, uint16_t tok,
                  const uint16_t *text, const gt_fixed_options *o, gt_error *e);
/* The fixed point the state would settle towards under tok: from the state after the step
 * reading tok from (h, c) (every layer's, [hidden_total] each as the trace keeps them; c
 * ignored but for an LSTM), moved on by `hold` more steps of it, Newton as above (one start;
 * f->count 0 when it does not converge); *dist the distance of that state after the step
 * from the point, layer `layer`'s part (Euclidean), NAN when there is none. */
int fixed_from(gt_fixed *f, double *dist, const gt_model *m, int layer, uint16_t tok,
               const float *h, const float *c, size_t hold, gt_error *e);
void fixed_free(gt_fixed *f);

/* As text (the slowest half-life beside others given by the caller: the report's measured,
 * linearized and forget-only, NAN when unknown) or as JSON {"layer", "steps", "warmup",
 * "modes", "exponents", "halflives"} and {"step", "layer", "eigenvalues": [{"re", "im",
 * "abs", "halflife"}, ...], "carry_sorted"}. GT_EFAIL when writing fails. */
int lyapunov_print_text(FILE *f, const gt_lyapunov *l, const double report_hl[3],
                        gt_error *e);
int lyapunov_print_json(FILE *f, const gt_lyapunov *l, gt_error *e);
int spectrum_print_text(FILE *f, const gt_spectrum *s, gt_error *e);
int spectrum_print_json(FILE *f, const gt_spectrum *s, gt_error *e);
/* As text, or as JSON {"layer", "char", "starts", "hold", "not_converged", "fixed_points":
 * [{"residual", "max_abs_eigenvalue", "stable", "halflife", "found_from", "state"}, ...]};
 * ch is the held character as UTF-8. */
int fixed_print_text(FILE *f, const gt_fixed *x, const char *ch, gt_error *e);
int fixed_print_json(FILE *f, const gt_fixed *x, const char *ch, gt_error *e);

#endif
