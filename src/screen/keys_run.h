/* What the panels' keys do (keys_run.c): the handlers that the key table's lines hold
 * (keys_table.c), each given the argument its line binds the key to; and the handlers of
 * the keys a prompt, o, M and ' wait for (gt_shared.input), which the dispatch (keys.c)
 * gives the key itself. */
#ifndef GATETUI_KEYS_RUN_H
#define GATETUI_KEYS_RUN_H

#include "screen/key.h"
#include "screen/keys_line.h"
#include "screen/view.h"

/* The arguments the lines give some handlers, besides steps (1, -1, KEYS_PAGE). */
enum {
    KEYS_ZERO = 0, KEYS_HOME, KEYS_END,      /* keys_ends: 0, Home, End $ G */
    KEYS_MARK = 0, KEYS_QUOTE,               /* keys_mark: M, ' */
    KEYS_FIRST = 0, KEYS_LAST, KEYS_BY_NUMBER, /* keys_unit_ends: H, L, # */
    KEYS_NEXT = 0, KEYS_REVERSE, KEYS_PICK,  /* keys_sort: s, S, o */
    KEYS_UNIT_SIGNALS = 0, KEYS_MANY_UNITS,  /* keys_colour: c, P */
    KEYS_UNDO = 0, KEYS_REDO,                /* keys_undo: u, Ctrl-R */
    KEYS_ABLATE = 0, KEYS_CAROUSEL,          /* keys_ablate: a, C */
    KEYS_ASK = 0, KEYS_NOW,                  /* keys_quit: q, Ctrl-C */
};

/* The units in order o (asking for what it needs: the report's mean carry gates, the
 * importance); the selected unit stays (the gate panel scrolls to it). */
void keys_set_sort(gt_view *v, gt_sort o);

/* Before a key of the table: the message line cleared, q's question forgotten. */
void keys_begin(gt_view *v);
/* While a prompt is open: its line edited, Enter does what it asks. */
gt_act keys_prompt_key(gt_view *v, const gt_key *k);
/* After o: the key that picks the units' order (any other: none). */
gt_act keys_sort_pick(gt_view *v, const gt_key *k);
/* After M or ': the key names a mark (or ' goes back). */
gt_act keys_mark_pending(gt_view *v, const gt_key *k);

gt_act keys_step(gt_view *v, int d);
gt_act keys_page(gt_view *v, int d);
gt_act keys_ends(gt_view *v, int which);
gt_act keys_scroll_text(gt_view *v, int d);
gt_act keys_mark(gt_view *v, int which);
gt_act keys_unit(gt_view *v, int d);
gt_act keys_unit_ends(gt_view *v, int which);
gt_act keys_sort(gt_view *v, int which);
gt_act keys_layer(gt_view *v, int d);
gt_act keys_colour(gt_view *v, int which);
gt_act keys_go_to(gt_view *v, int arg);
gt_act keys_search(gt_view *v, int dir);
gt_act keys_edit(gt_view *v, int arg);
gt_act keys_undo(gt_view *v, int which);
gt_act keys_next_edit(gt_view *v, int arg);
gt_act keys_horizon(gt_view *v, int d);
gt_act keys_pert_all(gt_view *v, int arg);
gt_act keys_ratio_k(gt_view *v, int d);
gt_act keys_difference(gt_view *v, int arg);
gt_act keys_write(gt_view *v, int arg);
gt_act keys_session(gt_view *v, int arg);
gt_act keys_pin(gt_view *v, int arg);
gt_act keys_figure(gt_view *v, int arg);
gt_act keys_paper(gt_view *v, int arg);
gt_act keys_bias(gt_view *v, int which);
gt_act keys_ablate(gt_view *v, int which);
gt_act keys_clear_interventions(gt_view *v, int arg);
gt_act keys_export(gt_view *v, int arg);
gt_act keys_escape(gt_view *v, int arg);
gt_act keys_redraw(gt_view *v, int arg);
gt_act keys_help_open(gt_view *v, int arg);
gt_act keys_quit(gt_view *v, int which);

#endif
