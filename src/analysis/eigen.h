/* The eigenvalues of a dense real matrix (doc/measures.md, "The eigenvalues at a step"):
 * all of them by LAPACK's dgeev, or the k of largest modulus by ARPACK's implicitly
 * restarted Arnoldi method (dnaupd, dneupd, which = "LM") from products of a power of the
 * matrix with vectors, then the matrix's own in the span ARPACK found; both in one order:
 * by modulus, largest first; moduli within EIGEN_TIE times the largest of them of each
 * other are tied, and a tie is ordered by the imaginary part, largest first (a conjugate
 * pair: + before -), then by the real part, largest first. The k largest are the first k
 * of that order, whichever side of the cut a tie falls. */
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

/* ARPACK's settings: it works on P = (A / s)^EIGEN_POWER (s: the power of two at or above
 * A's largest row sum of moduli; three squarings), whose eigenvalues are A's to that power, in the same order of
 * moduli, with A's slow modes standing further apart (0.9955 and 0.9954 become 0.9645 and
 * 0.9637): Arnoldi needs about as many products with A in all, but 8 times fewer
 * restarts, which were most of its time. Its Krylov basis EIGEN_NCV times the values it is
 * asked for (at most n), each value it returns with a residual within EIGEN_TOL of it. Its
 * Schur vectors Q then give A's eigenvalues, those of Q^T A Q, each with its residual
 * |A x - lambda x| / |lambda|: the first k within EIGEN_PAIR_TOL, every one within
 * EIGEN_MIX_TOL (far above a value not yet converged past the cut, far below one that
 * mixes two of A's eigenvalues of one power, lambda and -lambda), else LAPACK. */
#define EIGEN_POWER 8
#define EIGEN_NCV 3
#define EIGEN_TOL 1e-14
#define EIGEN_PAIR_TOL 1e-10
#define EIGEN_MIX_TOL 1e-6
/* The products with P the spectrum gives ARPACK for k of n before LAPACK: about what
 * LAPACK's whole spectrum costs (13 n^3 flops) less the squarings (6 n^3), against 2 n^2
 * for a product, 6 n ncv for its orthogonalisation and its share of the restarts, 10 ncv^3
 * / (ncv - nev); none below n = EIGEN_FROM (LAPACK's whole spectrum there takes a few
 * milliseconds; doc/speed.md). */
#define EIGEN_FROM 200
long eigen_budget(int n, int k);

/* The c eigenvalues of A (row-major, n x n) in the span of the c orthonormal columns of Q
 * (n x c, column-major): those of H = Q^T A Q, ordered into wr[0..c), wi[0..c), each with
 * its residual |A x - lambda x|_2 / |lambda| (x = Q z, z H's eigenvector of unit length) in
 * res (small for every value when Q is invariant under A; not for a value whose vector
 * mixes two of A's eigenvectors). r: scratch of EIGEN_SPAN_SCRATCH(n, c) doubles. -1 when
 * LAPACK fails. */
#define EIGEN_SPAN_SCRATCH(n, c) ((n) * (c) + 2 * (c) * (c) + (n) + 5 * (c))
int eigen_span(const double *A, int n, const double *Q, int c, double *r, double *wr,
               double *wi, double *res);

/* How eigen_top found them: by ARPACK or LAPACK, and ARPACK's products with P. */
enum { EIGEN_BY_LAPACK = 0, EIGEN_BY_ARPACK = 1 };
typedef struct eigen_how {
    int by;
    long products;
} eigen_how;

/* The k (1 <= k <= n) eigenvalues of largest modulus of A (row-major, n x n; read, not
 * changed) into wr[0..k), wi[0..k), ordered: by ARPACK from a fixed start vector (the same
 * numbers on every run, whatever the threads, which share the squarings; < 1: one per
 * processor) with about `budget` products with P at most (ARPACK's whole
 * restarts: its first basis of ncv, then ncv - nev each; < 0: no bound but EIGEN_RESTARTS
 * restarts; 0: LAPACK at once), or by LAPACK's whole spectrum where ARPACK's basis does
 * not fit in n, where it does not converge within its budget, or where a tie at the cut
 * reaches past what it computed; *how says which. Calls are serialised (ARPACK keeps its
 * state between calls in static memory). GT_EFAIL when neither converges. */
int eigen_top(const double *A, int n, int k, long budget, int threads, double *wr, double *wi,
              eigen_how *how, gt_error *e);

#endif
