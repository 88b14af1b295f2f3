/* The threads a computation uses (see threads.h). */
#include "config.h"

#include <unistd.h>

#include "compute/threads.h"

int threads_choose(int asked, size_t parts)
{
    long n = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > THREADS_MAX)
        n = THREADS_MAX;
    if (parts >= 1 && (size_t)n > parts)
        n = (long)parts;
    return (int)n;
}
