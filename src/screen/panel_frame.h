/* What the panels and the sheets share: a panel's title row, and rows of text, items and
 * fields that never cut a number. The panels themselves (panel_header.h ... panel_status.h)
 * each draw one rectangle of the frame from a const view and change nothing; the sheets over
 * them are in sheet_*.c. */
#ifndef GATETUI_PANEL_FRAME_H
#define GATETUI_PANEL_FRAME_H

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/keys_line.h"
#include "screen/view.h"

/* A panel's title row: a rule with the title on the left and a note on the right. Right-hand
 * panels (x > 0) also draw a rule down their left edge; *inner gets the rest. */
void panel_frame(gt_surface *s, gt_rect r, const char *title, const char *note, gt_rect *inner);

/* Whether title and note both fit in r's title row (panel_frame draws the note only where
 * it fits beside the title). */
int panel_frame_fits(gt_rect r, const char *title, const char *note);

/* Writes text in one row of w cells from (x, y); when it is wider, its whole items (up to a
 * comma, semicolon or colon) that fit, or else its whole words, and an ellipsis (" …", or
 * " ~" in ASCII) after them, so that no number is cut nor parted from its name (a single
 * word wider than w, a name, is cut before the ellipsis). Returns the cells used. */
int panel_line(gt_surface *s, int x, int y, int w, gt_role role, const char *text);

/* Items on one row of w cells from (x, y), each with its separator before it: all when
 * they fit, else as many whole ones as fit with " …" after them (the first one's whole
 * words when not even it fits). Returns the cells used. */
int panel_items(gt_surface *s, int x, int y, int w, gt_role role, const char *const *items,
                int n);

/* Writes text into w x h cells from (x, y), broken at spaces; returns the rows used. */
int panel_wrap(gt_surface *s, int x, int y, int w, int h, gt_role role, const char *text);

/* Fields on one row of w columns from (x, y), never cut: `gap` spaces between them (1 or 2)
 * when all fit so, else one, else only the first ones that fit whole. Returns the columns
 * used. */
int panel_fields(gt_surface *s, int x, int y, int w, gt_role role, const char *const *fields,
                 int n, int gap);

/* A character as the header and messages name it: 'a', '\n', ' ', U+00AD; a word model's
 * token 'the', <eos> (steptext_name, as the terminal shows it). */
void panel_char_name(const gt_view *v, int tok, char *buf, size_t n);

#endif
