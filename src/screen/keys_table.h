/* The screen's keys as one table: the panels' lines here (keys_table.c), each sheet's in its
 * own file (sheet.h). Each line binds its keys to its handler, each with an argument. Which
 * line a key goes to where the screen is (keys_line_for), the status line's hints
 * (keys_hints) and the help box's lines (keys_help_lines) are all read from it, and
 * tests/unit/t_keydoc holds gatetui.1's KEYS, doc/screen.md's Keys and README.md's Keys to it,
 * and every name of a key in a hint or a note to the keys its line binds. */
#ifndef GATETUI_KEYS_TABLE_H
#define GATETUI_KEYS_TABLE_H

#include "screen/keys_line.h"
#include "screen/sheet.h"
#include "screen/view.h"

/* The panels' lines: those before the sheets' in the help box (*before, their number
 * returned) and those after (*after, *nafter). */
int keys_table(const gt_keyline **before, const gt_keyline **after, int *nafter);

/* The line that takes key k while sheet `up` covers the panels (NULL: none), among the
 * panels' lines and those of sheets[0..n): up's own lines first (keys_line.h), then the
 * panels' lines and the sheets' lines that apply everywhere, in that order; within each, a
 * key bound with its Shift as pressed before one bound without. Its binding in *bind.
 * NULL: none. */
const gt_keyline *keys_line_for(const gt_sheet *up, const gt_sheet *const *sheets, int n,
                                const gt_key *k, const gt_keybind **bind);

/* The help box's lines in its order: the panels' with the sheets' lines that have keys
 * between them; into out (at most max), their number. */
int keys_help_lines(const gt_sheet *const *sheets, int n, const gt_keyline **out, int max);

/* The panels' status lines: without an edit, after one, and while a stretch is selected. */
typedef enum gt_hintctx { HINT_PANELS, HINT_EDITED, HINT_SELECT, HINT_COUNT } gt_hintctx;

#define KEYS_HINTS_MAX 24 /* hints in one status line */

/* The hints of the panels' status line c with the keys that open the sheets[0..n) at their
 * places (gt_sheet.panels_at, edited_at), in order, into out (at most KEYS_HINTS_MAX); their
 * number. */
int keys_panels_hints(gt_hintctx c, const gt_sheet *const *sheets, int n, const gt_hint **out);
/* The hints of the status line where v is: the sheet up's, or the panels' (a selection
 * being made, after an edit, or without one); into out (at most KEYS_HINTS_MAX). */
int keys_hints(const gt_view *v, const gt_hint **out);

#endif
