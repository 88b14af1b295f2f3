/* The vectorised kernels are compiled for x86-64 with GCC or clang, each function for its
 * instruction set (target attributes), so that one binary runs anywhere and chooses at run
 * time (compute/kernels.h). */
#ifndef GATETUI_X86_H
#define GATETUI_X86_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GT_X86 1
#endif

/* A function compiled twice on x86-64, for AVX2 and for the baseline, the one this processor
 * runs chosen as the program starts (target_clones); once elsewhere, and under
 * ThreadSanitizer, which starts after the clones' resolver has run. Without contraction
 * (the build's -ffp-contract=off), the two compute the same numbers. clang makes the
 * dispatcher of even a static function a global symbol: each such function needs a name
 * of its own in the whole program. */
#if defined(__SANITIZE_THREAD__)
#define GT_NO_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GT_NO_CLONES 1
#endif
#endif
#if defined(GT_X86) && !defined(GT_NO_CLONES)
#define GT_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define GT_CLONES_AVX2
#endif

/* Products and sums kept apart (no fused multiply-add where the source writes a * b + c):
 * for the cells' state update, which the plain C loops compute with both products
 * rounded. */
#if defined(__clang__)
#define NO_CONTRACT
#else
#define NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#endif

#endif
