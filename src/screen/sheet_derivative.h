/* The derivative's sheet (sheet_derivative.c): its row of the table of sheets, and what the
 * tests read of it. */
#ifndef GATETUI_SHEET_DERIVATIVE_H
#define GATETUI_SHEET_DERIVATIVE_H

#include "screen/data_eig.h"
#include "screen/data_jac.h"
#include "screen/sheet.h"

extern const gt_sheet sheet_derivative;

/* Its state for each model. */
typedef struct gt_derivative_data {
    gt_data_jac jac;  /* the derivative against the carry line at the cursor */
    gt_data_eig eig;  /* the step's eigenvalues at the cursor, the fixed point, the Lyapunov
                       * half-lives, each by a child */
} gt_derivative_data;

/* Its state every model shares. */
typedef struct gt_derivative_ui {
    int K;            /* its lags 1..K (+ and - change it while it is up) */
} gt_derivative_ui;

gt_derivative_data *sheet_derivative_data(const gt_view *v);
gt_derivative_ui *sheet_derivative_ui(const gt_view *v);

#endif
