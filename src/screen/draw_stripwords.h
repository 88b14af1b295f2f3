/* A word model's text strip (doc/usage.md): its rows laid out from its steps, not from
 * the text's bytes, each token as edited shown whole (a token wider than the row cut at its
 * end), tokens apart by a space, "<eos>" as ↵ ending its row. draw_striprows.c lays out
 * the rows from these as it does a character model's from the bytes (draw_striprows.h).
 * A position here is a step. */
#ifndef GATETUI_SCREEN_DRAW_STRIPWORDS_H
#define GATETUI_SCREEN_DRAW_STRIPWORDS_H

#include <stddef.h>
#include <stdint.h>

#include "screen/view.h"

/* Rows always break at a multiple of STRIPWORDS_BLOCK steps, as a character model's at a
 * multiple of STRIP_BLOCK bytes. */
#define STRIPWORDS_BLOCK 1024

/* One character of a row being wrapped: where it is, its step and the step count at it. */
typedef struct strip_char {
    size_t off;
    long step, next; /* its step (-1: none), the step of the first one from it */
    uint32_t cp;
    int col, w;
    int decoded; /* as gt_strip_cell's */
} strip_char;

/* Wraps one row of tokens from step s, stopping before step limit, into c (room for W
 * characters): returns the next row's first step (*step too), *n the row's characters. */
size_t stripwords_wrap(const gt_view *v, int W, size_t s, size_t limit, long *step,
                       strip_char *c, int *n);
/* The step the rows around step s are wrapped from: after the last <eos> before it in its
 * block of STRIPWORDS_BLOCK steps, or the block's first. */
size_t stripwords_anchor(const gt_view *v, size_t s);

#endif
