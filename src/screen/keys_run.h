/* What each key does (keys.c): the handlers of the table's actions (keys_dispatch.c), each
 * given the view and the key pressed (which of its line's keys it was), and the states
 * handled before the table (the help, a prompt, a mark being named). */
#ifndef GATETUI_KEYS_RUN_H
#define GATETUI_KEYS_RUN_H

#include "screen/keys.h"

/* A handler: the view and the key pressed. */
typedef gt_act (*gt_keyrun)(gt_view *v, const gt_key *k);

/* Before a key of the table: the message line cleared, q's question forgotten (unless q). */
void keys_begin(gt_view *v, const gt_key *k);
/* While the help is up: the arrows scroll it, any other key closes it. */
gt_act keys_help_key(gt_view *v, const gt_key *k);
/* While a prompt is open: its line edited, Enter does what it asks. */
gt_act keys_prompt_key(gt_view *v, const gt_key *k);
/* After M or ': the character names a mark (or ' goes back). */
gt_act keys_mark_pending(gt_view *v, const gt_key *k);

gt_act keys_close_view(gt_view *v, const gt_key *k);
gt_act keys_scroll_tables(gt_view *v, const gt_key *k);
gt_act keys_stats_models(gt_view *v, const gt_key *k);
/* After o: the key that picks the units' order (any other: none). */
gt_act keys_sort_pick(gt_view *v, const gt_key *k);
gt_act keys_scroll_profile(gt_view *v, const gt_key *k);
gt_act keys_profile_go(gt_view *v, const gt_key *k);
gt_act keys_derivative_lags(gt_view *v, const gt_key *k);
gt_act keys_step(gt_view *v, const gt_key *k);
gt_act keys_page(gt_view *v, const gt_key *k);
gt_act keys_ends(gt_view *v, const gt_key *k);
gt_act keys_scroll_text(gt_view *v, const gt_key *k);
gt_act keys_mark(gt_view *v, const gt_key *k);
gt_act keys_unit(gt_view *v, const gt_key *k);
gt_act keys_unit_ends(gt_view *v, const gt_key *k);
gt_act keys_sort(gt_view *v, const gt_key *k);
gt_act keys_layer(gt_view *v, const gt_key *k);
gt_act keys_colour(gt_view *v, const gt_key *k);
gt_act keys_go_to(gt_view *v, const gt_key *k);
gt_act keys_search(gt_view *v, const gt_key *k);
gt_act keys_find(gt_view *v, const gt_key *k);
gt_act keys_edit(gt_view *v, const gt_key *k);
gt_act keys_undo(gt_view *v, const gt_key *k);
gt_act keys_next_edit(gt_view *v, const gt_key *k);
gt_act keys_horizon(gt_view *v, const gt_key *k);
gt_act keys_pert_all(gt_view *v, const gt_key *k);
gt_act keys_ratio_k(gt_view *v, const gt_key *k);
gt_act keys_difference(gt_view *v, const gt_key *k);
gt_act keys_write(gt_view *v, const gt_key *k);
gt_act keys_figure(gt_view *v, const gt_key *k);
gt_act keys_report(gt_view *v, const gt_key *k);
gt_act keys_derivative(gt_view *v, const gt_key *k);
gt_act keys_bias(gt_view *v, const gt_key *k);
gt_act keys_ablate(gt_view *v, const gt_key *k);
gt_act keys_clear_interventions(gt_view *v, const gt_key *k);
gt_act keys_export(gt_view *v, const gt_key *k);
gt_act keys_escape(gt_view *v, const gt_key *k);
gt_act keys_redraw(gt_view *v, const gt_key *k);
gt_act keys_help_open(gt_view *v, const gt_key *k);
gt_act keys_quit(gt_view *v, const gt_key *k);
/* the unit table's (keys_units.c): U opens and closes it; the keys in it */
gt_act keys_units_open(gt_view *v, const gt_key *k);
gt_act keys_units_table(gt_view *v, const gt_key *k);

#endif
