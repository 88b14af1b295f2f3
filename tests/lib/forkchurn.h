/* A forked child that allocates on two threads, as the screen's computations in a child do
 * (doc/architecture.md, "Forks"): a lock an allocator held in another thread at the fork
 * stays held in the child, whose allocations then wait for ever. */
#ifndef GATETUI_TESTS_FORKCHURN_H
#define GATETUI_TESTS_FORKCHURN_H

/* Allocates and frees 2,000 small blocks (a thread's function; returns NULL). */
void *forkchurn_alloc(void *arg);

/* Forks a child that allocates on two threads and ends; 1 when it ended well within a
 * minute (it is killed after one). */
int forkchurn(void);

#endif
