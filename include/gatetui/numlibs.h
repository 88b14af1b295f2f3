/* The numerical libraries, loaded when first used (doc/architecture.md, "Libraries loaded
 * when used"): LAPACK's C interface (LAPACKE, with the LAPACK and the BLAS under it) and
 * ARPACK. The program links none of them: the functions it calls (those of lapacke.h and
 * arpack.h it uses, and the BLAS's in compute/blas.h) are defined in numlibs.c, each
 * calling the library's own, which the first call loads (dlopen) for every thread. A mode
 * that never calls them (the Jacobian, the dump, the run) starts without loading them. */
#ifndef GATETUI_NUMLIBS_H
#define GATETUI_NUMLIBS_H

#include "gatetui/error.h"

/* Loads them (once; later calls return at once): GT_OK, or GT_EFAIL naming what could not
 * be loaded. A process that forks calls it first, so that no child loads a library. A
 * function called when they cannot be loaded prints that message and ends the process. */
int numlibs_load(gt_error *e);

#endif
