/* The BLAS's own threads (blasthreads.h): OpenBLAS's, found by dlsym so that any BLAS links. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "compute/blasthreads.h"

#include <dlfcn.h>

int blas_threads(int n)
{
    int (*get)(void);
    void (*set)(int);
    *(void **)&get = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    *(void **)&set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (!get || !set || n < 1)
        return 0;
    const int was = get();
    set(n);
    return was;
}
