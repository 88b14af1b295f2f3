/* The derivative sheet's dynamics (doc/screen.md, "The derivative against the carry line"):
 * the moduli of the DATA_EIG_K eigenvalues of largest modulus of the whole state's step
 * Jacobian at the cursor's step T (spectrum_top_from: ARPACK, or LAPACK where it does not
 * pay; doc/measures.md, "The eigenvalues at a step"), against the carry gates at T sorted;
 * the fixed point the state would settle towards under T's character (Newton from the
 * state at T, held DATA_EIG_HOLD steps) and the state's distance from it; and the Lyapunov
 * half-lives of the layer along the text as loaded (the Jacobians of its steps
 * 1..DATA_EIG_LY_STEPS). Each takes from milliseconds to a good part of a second at H =
 * 256, so each is computed by a child process of its own (bgjob.h), the first two from the
 * state before T as edited; moving on ends them and starts the next; the Lyapunov
 * half-lives are computed once per layer (again when the model changes). */
#ifndef GATETUI_DATA_EIG_H
#define GATETUI_DATA_EIG_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

#define DATA_EIG_K 16          /* the eigenvalues computed and shown: the largest */
#define DATA_EIG_HOLD 100      /* the held character's steps before Newton */
#define DATA_EIG_LY_STEPS 2000 /* the Lyapunov spectrum's N (J_1..J_N), at most */
#define DATA_EIG_LY_MODES 8    /* and its modes, at most */

typedef struct gt_data_eig {
    int valid;          /* abs and carry hold step's and layer's */
    size_t step;
    int layer;
    int n, H;           /* the state's size; the carry gates' number (the layer's) */
    int count;          /* the moduli computed: DATA_EIG_K, or n when it is smaller */
    double *abs;        /* [count] the moduli, largest first */
    double *carry;      /* [H] the carry gates, largest first */
    char error[256];    /* why the last computation failed, or "" */
    int threads;        /* the eigenvalues' (0: one per processor) */
    /* the fixed point under step fp_step's character, on layer fp_layer, when fp_valid */
    int fp_valid, fp_found, fp_layer;
    size_t fp_step;
    double fp_dist, fp_max_abs, fp_halflife; /* |s_T - s*|, its largest |eigenvalue| */
    char fp_error[256];
    /* the Lyapunov half-lives of layer ly_layer, when ly_valid: ly_modes of them, over
       the Jacobians of steps ly_warmup+1..ly_steps of the text as loaded (NAN: not
       decaying), each with its 95% half-width (dynamics.h: NAN when unknown) */
    int ly_valid, ly_layer, ly_modes;
    size_t ly_steps, ly_warmup;
    double ly_hl[DATA_EIG_LY_MODES], ly_hw[DATA_EIG_LY_MODES];
    char ly_error[256];
    /* private */
    const gt_model *m;
    const gt_text *text; /* the text as loaded, for the Lyapunov spectrum */
    float *h0, *c0;     /* [hidden_total]: the state before the step */
    gt_bgjob job, fp_job, ly_job; /* the computations */
    size_t job_step;
    int job_layer, job_tok, ly_job_layer;
} gt_data_eig;

int data_eig_init(gt_data_eig *de, const gt_model *m, gt_error *e);
void data_eig_free(gt_data_eig *de);
/* The edits changed: what was computed at a step is dropped, its computations ended. */
void data_eig_invalidate(gt_data_eig *de);
/* The model changed: the Lyapunov half-lives too. */
void data_eig_model_changed(gt_data_eig *de);
/* Asks for step t of layer: starts computing it unless it is known or on its way (another
 * computation is ended), and the layer's Lyapunov half-lives unless known or on their way. */
void data_eig_want(gt_data_eig *de, gt_trace *tr, int layer, size_t t);
/* Reads what the child sent; 1 when the view should be redrawn. */
int data_eig_tick(gt_data_eig *de);
/* 1 while a computation runs. */
int data_eig_busy(const gt_data_eig *de);

#endif
