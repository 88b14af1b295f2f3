/* The threads a computation uses (see threads.h). */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

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

static _Atomic int background_wanted;

void threads_background_wanted(void)
{
    atomic_store(&background_wanted, 1);
}

void threads_background(void)
{
#ifdef __linux__
    if (!atomic_load(&background_wanted))
        return;
    /* Linux keeps a nice value for each thread: PRIO_PROCESS with a thread's id is that
       thread's alone */
    const id_t self = (id_t)syscall(SYS_gettid);
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, self);
    if (errno == 0)
        setpriority(PRIO_PROCESS, self, now + THREADS_BACKGROUND_NICE);
#endif
}
