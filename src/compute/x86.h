/* The vectorised kernels are compiled for x86-64 with GCC or clang, each function for its
 * instruction set (target attributes), so that one binary runs anywhere and chooses at run
 * time (compute/kernels.h). */
#ifndef GATETUI_X86_H
#define GATETUI_X86_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GT_X86 1
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
