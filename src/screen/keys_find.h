/* The keys that find units (doc/screen.md, "Finding units"): m a hypothesis as a regular
 * expression, v a selection, ; the signal, , and . the threshold, n and N through the
 * matches of the last hypothesis or selection, Esc (a unit's profile is a sheet:
 * sheet_profile.c). */
#ifndef GATETUI_KEYS_FIND_H
#define GATETUI_KEYS_FIND_H

#include "screen/key.h"
#include "screen/view.h"

/* What keys_find_key does: its line's argument. */
enum { FIND_KEY_MATCH, FIND_KEY_SELECT, FIND_KEY_SIGNAL, FIND_KEY_LOWER, FIND_KEY_HIGHER };

/* The handler of the key table's lines of m, v, ;, , and . (FIND_KEY_*). */
gt_act keys_find_key(gt_view *v, int what);
/* Enter in the prompt of m. */
void keys_find_enter(gt_view *v);
/* n (dir > 0) and N when the last thing was a hypothesis or a selection; 0 otherwise (a
 * search then repeats). */
int keys_find_jump(gt_view *v, int dir);
/* Esc: ends a selection being made, or the computation running; 1 when it did. */
int keys_find_escape(gt_view *v);
/* The next sort of s: |r| only while there is an r column. */
gt_sort keys_find_next_sort(const gt_view *v);

#endif
