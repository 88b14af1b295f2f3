/* The BLAS's own threads (blasthreads.h): OpenBLAS's, found by name so that any BLAS
 * serves. Loading OpenBLAS starts its threads, which numlibs.c stops at once; OpenBLAS
 * makes them again when a product asks for them. Not after a change of their number:
 * another thread (the screen's background computations) may then be inside the BLAS. */
#include "compute/blasthreads.h"
#include "compute/blas.h"

int blas_threads(int n)
{
    int (*get)(void);
    void (*set)(int);
    *(void **)&get = numlibs_blas_symbol("openblas_get_num_threads");
    *(void **)&set = numlibs_blas_symbol("openblas_set_num_threads");
    if (!get || !set || n < 1)
        return 0;
    const int was = get();
    if (was != n)
        set(n);
    return was;
}
