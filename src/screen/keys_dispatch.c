/* The keys dispatched from the table (keys_table.h): each line's action to its handler. */
#include "config.h"

#include <string.h>

#include "screen/keys_table.h"
#include "screen/keys_mouse.h"
#include "screen/keys_run.h"

static const gt_keyrun run_of[KA_COUNT] = {
    [KA_CLOSE_VIEW] = keys_close_view,
    [KA_SCROLL_TABLES] = keys_scroll_tables,
    [KA_SCROLL_PROFILE] = keys_scroll_profile,
    [KA_PROFILE_GO] = keys_profile_go,
    [KA_DERIVATIVE_LAGS] = keys_derivative_lags,
    [KA_STEP] = keys_step,
    [KA_PAGE] = keys_page,
    [KA_ENDS] = keys_ends,
    [KA_SCROLL_TEXT] = keys_scroll_text,
    [KA_MARK] = keys_mark,
    [KA_UNIT] = keys_unit,
    [KA_UNIT_ENDS] = keys_unit_ends,
    [KA_SORT] = keys_sort,
    [KA_LAYER] = keys_layer,
    [KA_COLOUR] = keys_colour,
    [KA_GO_TO] = keys_go_to,
    [KA_SEARCH] = keys_search,
    [KA_FIND] = keys_find,
    [KA_EDIT] = keys_edit,
    [KA_UNDO] = keys_undo,
    [KA_NEXT_EDIT] = keys_next_edit,
    [KA_HORIZON] = keys_horizon,
    [KA_PERT_ALL] = keys_pert_all,
    [KA_RATIO_K] = keys_ratio_k,
    [KA_DIFFERENCE] = keys_difference,
    [KA_WRITE] = keys_write,
    [KA_REPORT] = keys_report,
    [KA_DERIVATIVE] = keys_derivative,
    [KA_BIAS] = keys_bias,
    [KA_ABLATE] = keys_ablate,
    [KA_CLEAR_INTERVENTIONS] = keys_clear_interventions,
    [KA_EXPORT] = keys_export,
    [KA_FIGURE] = keys_figure,
    [KA_ESCAPE] = keys_escape,
    [KA_UNITS_OPEN] = keys_units_open,
    [KA_UNITS_TABLE] = keys_units_table,
    [KA_STATS_MODELS] = keys_stats_models,
    [KA_REDRAW] = keys_redraw,
    [KA_HELP_OPEN] = keys_help_open,
    [KA_QUIT] = keys_quit,
};

/* 1 when k is one of r's keys. */
static int binds(const gt_keys_table *r, const gt_key *k)
{
    if (k->sym == K_CHAR) {
        const char *set = k->ctrl ? r->ctrl : r->chars;
        return set && k->cp > 0 && k->cp < 0x80 && strchr(set, (int)k->cp);
    }
    for (int i = 0; i < 4 && r->sym[i] != K_NONE; i++)
        if (r->sym[i] == k->sym)
            return 1;
    return 0;
}

/* The first line of the table whose keys include k where the screen is, or NULL. */
static const gt_keys_table *line_of(const gt_view *v, const gt_key *k)
{
    unsigned here = 1u << v->ui->overlay;
    const gt_keys_table *table;
    int n = keys_help(&table);
    for (int i = 0; i < n; i++)
        if ((table[i].where & here) && binds(&table[i], k))
            return &table[i];
    return NULL;
}

gt_act keys_handle(gt_view *v, const gt_key *k)
{
    switch (v->ui->input) { /* what the key is for */
    case INPUT_KEYS: break;
    case INPUT_HELP: return keys_help_key(v, k); /* the arrows scroll it, others close it */
    case INPUT_ORDER: keys_begin(v, k); return keys_sort_pick(v, k);
    case INPUT_MARK:
    case INPUT_QUOTE: keys_begin(v, k); return keys_mark_pending(v, k);
    case INPUT_GOTO:
    case INPUT_SEARCH:
    case INPUT_EDIT:
    case INPUT_MATCH:
    case INPUT_UNIT:
    case INPUT_NEWLINE: return keys_prompt_key(v, k);
    }
    if (k->sym == K_CLICK || k->sym == K_WHEEL_UP || k->sym == K_WHEEL_DOWN) {
        gt_key arrow;
        gt_act a = keys_mouse(v, k, &arrow);
        if (arrow.sym == K_NONE)
            return a;
        for (int i = 0; i < KEYS_WHEEL_STEPS; i++)
            keys_handle(v, &arrow);
        return ACT_REDRAW;
    }
    keys_begin(v, k);
    const gt_keys_table *r = line_of(v, k);
    gt_keyrun run = r ? run_of[r->act] : NULL;
    return run ? run(v, k) : ACT_NONE;
}

gt_act keys_handle_models(gt_models *ms, const gt_key *k)
{
    gt_view *v = models_view(ms);
    if (k->sym == K_TAB && v->ui->input == INPUT_KEYS) {
        v->ui->msg[0] = 0;
        models_switch(ms, k->shift ? -1 : 1);
        return ACT_REDRAW;
    }
    gt_act a = keys_handle(v, k);
    models_sync(ms);
    return a;
}
