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

/* The calling thread's priority lowered by THREADS_BACKGROUND_NICE (its nice value raised;
 * the threads it starts inherit it), once threads_background_wanted() was called: the work
 * the screen does in the background (its pass, its children, the derivative's thread), so
 * that the screen's own thread takes a processor first when a key comes. Nothing in a
 * batch mode, which waits for that work, nor where the system has no per-thread nice
 * value (doc/architecture.md, "Concurrency"). */
#define THREADS_BACKGROUND_NICE 5
void threads_background(void);
/* The screen is up: from now on threads_background lowers. Called before any thread. */
void threads_background_wanted(void);

#endif
