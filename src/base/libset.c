/* Shared libraries loaded when first used (gatetui/libset.h). */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "gatetui/libset.h"

int libset_load(gt_libset *s, gt_error *e)
{
    int state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (!state) {
        pthread_mutex_lock(&s->mu);
        if (!(state = s->state)) {
            state = 1;
            if (s->before && s->before(s->failure, sizeof s->failure))
                state = -1;
            for (int i = 0; s->soname[i] && state == 1; i++)
                if (!(s->handle[i] = dlopen(s->soname[i], RTLD_NOW | RTLD_LOCAL))) {
                    const char *why = dlerror();
                    snprintf(s->failure, sizeof s->failure, "cannot load %s: %s",
                             s->soname[i], why ? why : "no reason given");
                    state = -1;
                }
            if (state == 1 && s->after)
                s->after(s->handle);
            __atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&s->mu);
    }
    return state == 1 ? GT_OK : gt_fail(e, GT_EFAIL, "%s", s->failure);
}

void *libset_symbol(gt_libset *s, int i, const char *name, void **cache)
{
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (f)
        return f;
    gt_error e = {0};
    if (libset_load(s, &e)) {
        fprintf(stderr, "gatetui: %s\n", e.msg);
        exit(GT_EFAIL);
    }
    if (!(f = dlsym(s->handle[i], name))) {
        fprintf(stderr, "gatetui: %s has no function %s\n", s->soname[i], name);
        exit(GT_EFAIL);
    }
    __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}
