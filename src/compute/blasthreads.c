/* The BLAS's own threads (blasthreads.h): OpenBLAS's, found by dlsym so that any BLAS links.
 * OpenBLAS makes its threads as it is loaded; each then waits for work spinning and
 * yielding for about a tenth of a second (its thread timeout) before it sleeps, a processor
 * taken from gatetui's own threads: the program stops them as it starts, before any thread
 * of its own (kernset_blas_idle), and OpenBLAS makes them again when a product asks for
 * them. Not after a change of their number: another thread (the screen's background
 * computations) may then be inside the BLAS. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "compute/blasthreads.h"
#include "gatetui/kernset.h"

#include <dlfcn.h>

void kernset_blas_idle(void)
{
    int (*shutdown)(void);
    *(void **)&shutdown = dlsym(RTLD_DEFAULT, "blas_thread_shutdown_");
    if (shutdown)
        shutdown();
}

int blas_threads(int n)
{
    int (*get)(void);
    void (*set)(int);
    *(void **)&get = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    *(void **)&set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (!get || !set || n < 1)
        return 0;
    const int was = get();
    if (was != n)
        set(n);
    return was;
}
