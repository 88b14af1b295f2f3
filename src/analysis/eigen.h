/* The eigenvalues of a dense real matrix (doc/measures.md, "The eigenvalues at a step"):
 * all of them by LAPACK's dgeev, or the k of largest modulus by ARPACK's implicitly
 * restarted Arnoldi method (dnaupd, dneupd, which = "LM") from products of the matrix with
 * vectors, both in one order: by modulus, largest first; moduli within EIGEN_TIE times the
 * largest of them of each other are tied, and a tie is ordered by the imaginary part,
 * largest first (a conjugate pair: + before -), then by the real part, largest first. The
 * k largest are the first k of that order, whichever side of the cut a tie falls. */
#ifndef GATETUI_ANALYSIS_EIGEN_H
#define GATETUI_ANALYSIS_EIGEN_H

#include "gatetui/error.h"

#define EIGEN_TIE 1e-9
/* ARPACK's wanted values beyond the k asked for: a tie at the cut of up to this many more
 * is settled from what it computes, a longer one by LAPACK */
#define EIGEN_EXTRA 4

/* Orders wr[0..n), wi[0..n) as above (NaN last); scratch holds 3n doubles. */
void eigen_order(double *wr, double *wi, int n, double *scratch);

/* All n eigenvalues of the n x n matrix A (row-major; overwritten) into wr, wi, ordered;
 * GT_EFAIL when LAPACK's QR does not converge. */
int eigen_all(double *A, int n, double *wr, double *wi, gt_error *e);

/* ARPACK's settings: its Krylov basis EIGEN_NCV times the values it is asked for (at most
 * n), each value it returns with a residual within EIGEN_TOL of it. */
#define EIGEN_NCV 5
#define EIGEN_TOL 1e-12
/* The products with A the spectrum gives ARPACK for k of n before LAPACK: about what
 * LAPACK's whole spectrum costs (13 n^3 flops, against 2 n^2 for a product, 6 n ncv for
 * its orthogonalisation and its share of the restarts, 10 ncv^3 / (ncv - nev)), none
 * below n = EIGEN_FROM (LAPACK's whole spectrum there takes a few tens of milliseconds;
 * doc/speed.md). */
#define EIGEN_FROM 400
long eigen_budget(int n, int k);

/* How eigen_top found them: by ARPACK or LAPACK, and ARPACK's products with A. */
enum { EIGEN_BY_LAPACK = 0, EIGEN_BY_ARPACK = 1 };
typedef struct eigen_how {
    int by;
    long products;
} eigen_how;

/* The k (1 <= k <= n) eigenvalues of largest modulus of A (row-major, n x n; read, not
 * changed) into wr[0..k), wi[0..k), ordered: by ARPACK from a fixed start vector (the same
 * numbers on every run) with about `budget` products with A at most (ARPACK's whole
 * restarts: its first basis of ncv, then ncv - nev each; < 0: no bound but EIGEN_RESTARTS
 * restarts; 0: LAPACK at once), or by LAPACK's whole spectrum where ARPACK's basis does
 * not fit in n, where it does not converge within its budget, or where a tie at the cut
 * reaches past what it computed; *how says which. Calls are serialised (ARPACK keeps its
 * state between calls in static memory). GT_EFAIL when neither converges. */
int eigen_top(const double *A, int n, int k, long budget, double *wr, double *wi,
              eigen_how *how, gt_error *e);

#endif
