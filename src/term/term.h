/* The terminal: ncursesw set up and torn down, each role's colour, and a surface shown on
 * the screen. The terminal is restored on every way out, a crash included. */
#ifndef GATETUI_TERM_H
#define GATETUI_TERM_H

#include <stdio.h>

#include "screen/draw_surface.h"

/* Starts curses on the terminal (out: NULL for stdout, or a stream such as /dev/null for a
 * benchmark, with term the terminal type). color: 0 monochrome, 1 when the terminal has
 * colours. mouse: the terminal reports clicks and the wheel (on stdout only). Returns 0, or
 * -1 when the terminal cannot be used. */
int term_start(FILE *out, const char *term, int color, int mouse);
/* Whether term (the value of TERM, or NULL) names a terminal that can show the screen
 * (known, with cursor addressing); if not, why goes to why. */
int term_usable(const char *term, char *why, size_t n);
/* Restores the terminal (idempotent). */
void term_stop(void);
/* Gives the terminal back before the process stops (SIGTSTP), and takes it again after
 * (the next frame shown repaints everything). */
void term_suspend(void);
void term_resume(void);
int term_cols(void);
int term_rows(void);
/* Takes the terminal's new size after SIGWINCH. */
void term_resize(void);
/* The colours the screen uses: 0 (none: NO_COLOR or a terminal without), 8 or 256. */
int term_colors(void);
/* How a role looks with `colors` colours (0: none, 8, 256): its pair's colours (-1: the
 * terminal's own) and attributes. */
void term_role_look(int role, int colors, short *fg, short *bg, unsigned long *attr);
/* Shows s on the screen (s must have the screen's size). */
void term_show(const gt_surface *s);

#endif
