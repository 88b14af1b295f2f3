/* Shared libraries loaded when first used (doc/architecture.md, "Libraries loaded when
 * used"): a set of them, loaded together once (dlopen), and their functions found by name.
 * A module that calls a library this way defines each function it uses with the library's
 * own prototype, calling LIBSET_REAL(set, i, name)(...): the compiler checks the
 * definition against the library's header, and the program links nothing of it. */
#ifndef GATETUI_LIBSET_H
#define GATETUI_LIBSET_H

#include <pthread.h>
#include <stddef.h>

#include "gatetui/error.h"

#define LIBSET_MAX 4

typedef struct gt_libset {
    const char *const *soname;            /* NULL-terminated, at most LIBSET_MAX */
    /* called before they are loaded, or NULL: nonzero (why said in why[n]) when they
       cannot be (the set then fails with why) */
    int (*before)(char *why, size_t n);
    void (*after)(void *const *handle);   /* called once they are loaded, or NULL */
    pthread_mutex_t mu;
    int state;                            /* 0 not tried, 1 loaded, -1 failed */
    void *handle[LIBSET_MAX];
    char failure[256];
} gt_libset;
#define LIBSET(soname, before, after)                                                      \
    {(soname), (before), (after), PTHREAD_MUTEX_INITIALIZER, 0, {0}, ""}

/* Loads the set (the first call; the others return what it found): GT_OK, or GT_EFAIL
 * naming the library that could not be loaded and why. */
int libset_load(gt_libset *s, gt_error *e);

/* Library i's function name, found once into *cache, the set loaded first. Where it
 * cannot be (the libraries were removed since gatetui was built) the process cannot go
 * on: it says so on standard error and ends with status 1. */
void *libset_symbol(gt_libset *s, int i, const char *name, void **cache);

/* Library i's function name, as a pointer of its own type. */
#define LIBSET_REAL(set, i, name)                                                          \
    ({                                                                                     \
        static void *cache_;                                                               \
        __typeof__(&name) f_;                                                              \
        *(void **)&f_ = libset_symbol((set), (i), #name, &cache_);                         \
        f_;                                                                                \
    })

#endif
