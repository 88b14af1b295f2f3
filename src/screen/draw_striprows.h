/* The text strip's rows: which character of the text is at which cell, for the strip's
 * drawing (panel_strip.c) and the mouse (keys_mouse.c) alike. The text is wrapped into rows
 * of W cells from a fixed anchor, the start of the cursor's line (after the last newline),
 * or the start of the STRIP_BLOCK-byte block holding the cursor when the line began before
 * it; rows break after spaces and keep words whole, a word longer than a row is cut. The
 * row holding the cursor is shown in the middle, moved by whole rows by the strip's
 * scrolling (doc/screen.md). */
#ifndef GATETUI_SCREEN_DRAW_STRIPROWS_H
#define GATETUI_SCREEN_DRAW_STRIPROWS_H

#include <stddef.h>
#include <stdint.h>

#include "screen/view.h"

/* Rows always break at a multiple of STRIP_BLOCK bytes (at the first character starting
 * there): finding a row's start reads at most this many bytes back, however long the line. */
#define STRIP_BLOCK 4096

typedef struct gt_strip_cell {
    size_t off;  /* the character's byte offset in the text */
    long step;   /* its step, -1 when it is not fed to the model */
    uint32_t cp; /* the text's character (an edit may show another) */
    int row;     /* 0 .. pairs - 1, the shown rows from the top */
    int col;     /* its first cell, 0 .. W - 1 */
    int w;       /* the cells it takes */
    int decoded; /* a byte model's: 1 at the first byte of a character of several bytes, cp
                  * that character; 2 at the bytes after it (cells of no width at its col) */
} gt_strip_cell;

typedef struct gt_strip_rows {
    gt_strip_cell *c; /* in the text's order */
    size_t n;
} gt_strip_rows;

/* Lays out the characters the strip shows in its pairs rows of W cells (the cursor's row
 * the middle one, pairs / 2, when it is not scrolled). Returns 0, or -1 when out of memory
 * (r empty). */
int strip_rows(const gt_view *v, int pairs, int W, gt_strip_rows *r);
void strip_rows_free(gt_strip_rows *r);

/* The glyph the strip draws for the character at off (its step: step, -1 when it is not fed)
 * into g (at least 16 bytes); returns its width in cells. */
int strip_glyph(const gt_view *v, long step, uint32_t cp, char *g);

#endif
