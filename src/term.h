/* The terminal: ncursesw set up and torn down, each role's colour, and a surface shown on
 * the screen. The terminal is restored on every way out, a crash included. */
#ifndef GATETUI_TERM_H
#define GATETUI_TERM_H

#include <stdio.h>

#include "surface.h"

/* Starts curses on the terminal (out: NULL for stdout, or a stream such as /dev/null for a
 * benchmark, with term the terminal type). color: 0 monochrome, 1 when the terminal has
 * colours. Returns 0, or -1 when the terminal cannot be used. */
int term_start(FILE *out, const char *term, int color);
/* Restores the terminal (idempotent). */
void term_stop(void);
int term_cols(void);
int term_rows(void);
/* Takes the terminal's new size after SIGWINCH. */
void term_resize(void);
/* Shows s on the screen (s must have the screen's size). */
void term_show(const gt_surface *s);

#endif
