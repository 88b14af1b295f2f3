/* The keys that find units (doc/screen.md): m a hypothesis as a regular expression, v a
 * selection, p a unit's profile, ; the signal, , and . the threshold, n and N through the
 * matches of the last hypothesis or selection. Each returns 1 when it took the key. */
#ifndef GATETUI_KEYS_FIND_H
#define GATETUI_KEYS_FIND_H

#include "screen/keys.h"
#include "screen/view.h"

/* m, v, p, ;, , and . (not with Ctrl). */
int keys_find_char(gt_view *v, const gt_key *k);
/* Enter in the prompt of m. */
void keys_find_enter(gt_view *v);
/* n (dir > 0) and N when the last thing was a hypothesis or a selection; 0 otherwise (a
 * search then repeats). */
int keys_find_jump(gt_view *v, int dir);
/* The keys of the profile while it is over the panels: its scrolling. */
int keys_find_overlay(gt_view *v, const gt_key *k);
/* Esc: ends a selection being made, or the computation running. */
int keys_find_escape(gt_view *v);
/* The next sort of s: |r| only while there is an r column. */
gt_sort keys_find_next_sort(const gt_view *v);

#endif
