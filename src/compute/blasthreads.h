/* The BLAS's own threads: where gatetui's threads each call the BLAS, or where a result must
 * not depend on how the BLAS splits its work, its threads are set to one for the time. */
#ifndef GATETUI_BLASTHREADS_H
#define GATETUI_BLASTHREADS_H

/* Sets OpenBLAS's threads to n (openblas_set_num_threads, found at run time) and returns how
 * many it had (0: another BLAS, nothing done); blas_threads(was) gives them back. */
int blas_threads(int n);

#endif
