/* How many threads a computation uses: the one rule every computation follows
 * (doc/architecture.md, "Where work runs concurrently"). */
#ifndef GATETUI_THREADS_H
#define GATETUI_THREADS_H

#include <stddef.h>

/* The most threads any computation starts. */
#define THREADS_MAX 64

/* The threads for a computation of `parts` independent parts: `asked` when it is above 0
 * (GATETUI_THREADS, passed down), otherwise one per online processor; at most THREADS_MAX
 * and at most `parts` (at least 1). */
int threads_choose(int asked, size_t parts);

#endif
