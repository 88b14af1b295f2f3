/* The kernel sets (doc/speed.md, "Kernel sets"): the engine's arithmetic in plain C ("c",
 * the reference, runs anywhere) and vectorised for the processors that have AVX2 and FMA
 * ("avx2") or AVX-512 ("avx512"). The process uses one set, the best this processor runs
 * unless kernset_choose named another first; it is never changed afterwards. */
#ifndef GATETUI_KERNSET_H
#define GATETUI_KERNSET_H

#include "gatetui/error.h"

/* The names of the sets this processor runs, best first, into names[0 ..]; returns how
 * many (at most max). */
int kernset_names(const char **names, int max);

/* Chooses the set the process uses: the one named (NULL or "": the best). GT_EINPUT with a
 * message naming the sets this processor runs when it runs none of that name; GT_EFAIL
 * when another set is already in use. */
int kernset_choose(const char *name, gt_error *e);

/* The name of the set in use. */
const char *kernset_name(void);

#endif
