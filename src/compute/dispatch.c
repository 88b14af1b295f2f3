/* The kernel sets, best first, and the choice of the one the process uses (kernels.h):
 * made once, by the first caller, with a compare-and-swap, so that any thread may be
 * first and every thread sees the same set. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "compute/variants.h"
#include "gatetui/kernset.h"

#ifdef GT_X86
static int runs_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("fma");
}

static int runs_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

static int runs_c(void)
{
    return 1;
}

static const kern_set sets[] = {
#ifdef GT_X86
    {.name = "avx512", .runs = runs_avx512,
     .gemv = gemv_avx512, .act = act_avx512, .lstm = lstm_avx512,
     .gemm64 = gemm64_avx2, .act64 = act64_avx512, .lstm64 = lstm64_avx512,
     .gru64 = gru64_avx512,
     .gemm32 = gemm32_avx512, .gemm32_t = gemm32_t_avx512, .gemv64 = gemv64_avx512,
     .moments = moments_avx512, .interleave = 1},
    {.name = "avx2", .runs = runs_avx2,
     .gemv = gemv_avx2, .act = act_avx2, .lstm = cell32_lstm,
     .gemm64 = gemm64_avx2, .act64 = act64_avx2, .lstm64 = lstm64_avx2, .gru64 = gru64_avx2,
     .gemm32 = gemm32_avx2, .gemm32_t = gemm32_t_c, .gemv64 = gemv64_avx2,
     .moments = moments_avx2, .interleave = 0},
#endif
    {.name = "c", .runs = runs_c,
     .gemv = gemv_c, .act = act_c, .lstm = cell32_lstm,
     .gemm64 = gemm64_c, .act64 = act64_c, .lstm64 = cell64_lstm, .gru64 = cell64_gru,
     .gemm32 = gemm32_c, .gemm32_t = gemm32_t_c, .gemv64 = gemv64_c,
     .moments = moments_c, .interleave = 0},
};
#define NSETS (sizeof sets / sizeof sets[0])

static const kern_set *_Atomic chosen;

size_t kern_sets(const kern_set **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NSETS && n < max; i++)
        if (sets[i].runs())
            out[n++] = &sets[i];
    return n;
}

/* The set of that name if this processor runs it, else NULL. */
static const kern_set *kern_find(const char *name)
{
    for (size_t i = 0; i < NSETS; i++)
        if (strcmp(sets[i].name, name) == 0 && sets[i].runs())
            return &sets[i];
    return NULL;
}

/* Makes k the set in use unless one is already; returns the set in use. */
static const kern_set *choose(const kern_set *k)
{
    const kern_set *none = NULL;
    if (atomic_compare_exchange_strong(&chosen, &none, k))
        return k;
    return none;
}

const kern_set *kern(void)
{
    const kern_set *k = atomic_load_explicit(&chosen, memory_order_acquire);
    if (k)
        return k;
    kern_sets(&k, 1);
    return choose(k);
}

int kern_init(const char *name)
{
    const kern_set *k = NULL;
    if (name)
        k = kern_find(name);
    else
        kern_sets(&k, 1);
    return k && choose(k) == k ? 0 : -1;
}

int kernset_names(const char **names, int max)
{
    const kern_set *k[NSETS];
    size_t n = kern_sets(k, NSETS);
    for (size_t i = 0; i < n && (int)i < max; i++)
        names[i] = k[i]->name;
    return (int)n < max ? (int)n : max;
}

int kernset_choose(const char *name, gt_error *e)
{
    if (!name || !*name) { /* the best, unless a set is in use already */
        (void)kern();
        return GT_OK;
    }
    if (kern_find(name)) {
        if (kern_init(name) == 0)
            return GT_OK;
        return gt_fail(e, GT_EFAIL, "kernel set %s: the set %s is in use already", name,
                       kern()->name);
    }
    char list[64] = "";
    const char *names[NSETS];
    int n = kernset_names(names, (int)NSETS);
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 names[i]);
    return gt_fail(e, GT_EINPUT, "no kernel set \"%s\" on this processor (it runs %s)", name,
                   list);
}

const char *kernset_name(void)
{
    return kern()->name;
}
