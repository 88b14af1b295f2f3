/* The screen's keys as one table (see keys_table.h), and the keys dispatched from it. */
#include "config.h"

#include <string.h>

#include "screen/keys_table.h"
#include "screen/keys_mouse.h"
#include "screen/keys_run.h"

/* The keys that mean something else in a view over the panels first (they are found
 * first), then the help box's lines (a line without a key says what a panel shows), then
 * the keys documented that it does not list. */
static const gt_keys_table table[] = {
    {NULL, "close the view over the panels", 0, KEY_VIEWS, keys_close_view, NULL, NULL, {K_ESC}},
    {NULL, "scroll the report's tables", 0, KEY_STATS, keys_scroll_tables, "kjKJ", NULL,
     {K_UP, K_DOWN, K_PGUP, K_PGDN}},
    {NULL, "several models: the table's columns left, right; Enter the model shown's whole report, again the table", 0, KEY_STATS, keys_stats_models, "hl", NULL, {K_LEFT, K_RIGHT, K_ENTER}},
    {NULL, "scroll the profile", 0, KEY_PROFILE, keys_scroll_profile, "kjKJ", NULL,
     {K_UP, K_DOWN, K_PGUP, K_PGDN}},
    {NULL, "the derivative's K", 0, KEY_JACOBIAN, keys_derivative_lags, "+=-", NULL, {K_NONE}},
    {NULL, "the unit table: the row above, below; a page", 0, KEY_UNITS, keys_units_table, "kjKJ",
     NULL, {K_UP, K_DOWN, K_PGUP, K_PGDN}},
    {NULL, "the unit table: sort by the column left, right; s reverses", 0, KEY_UNITS,
     keys_units_table, "hls", NULL, {K_LEFT, K_RIGHT}},
    {"Enter", "in the unit table: select the row's unit on the panels", 0, KEY_UNITS,
     keys_units_table, NULL, NULL, {K_ENTER}},
    {"← → h l", "step one character back, forward", 0, KEY_ALL, keys_step, "hl", NULL, {K_LEFT, K_RIGHT}},
    {"PgUp PgDn ^B ^F Space", "a page of text back, forward (Space: forward)", 0, KEY_ALL, keys_page, " ", "bf", {K_PGUP, K_PGDN}},
    {"Home End 0 $ G", "the first, the last step", 0, KEY_ALL, keys_ends, "0$G", NULL, {K_HOME, K_END}},
    {"^E ^Y", "scroll the text a row on, back; the cursor stays", 0, KEY_ALL, keys_scroll_text, NULL, "ey", {K_NONE}},
    {"'' M 'a", "back to the step before the last jump (g, /, n, E, Home, End); mark a step a-z; go to mark a", 0, KEY_ALL, keys_mark, "'M", NULL, {K_NONE}},
    {"↑ ↓ k j", "select the unit above, below", 0, KEY_ALL, keys_unit, "kj", NULL, {K_UP, K_DOWN}},
    {"K J Shift-↑ Shift-↓", "a page of units up, down", 0, KEY_ALL, keys_unit, "KJ", NULL, {K_NONE}},
    {"H L #", "the first, the last unit of the order; a unit by number", 0, KEY_ALL, keys_unit_ends, "HL#", NULL, {K_NONE}},
    {"s S", "sort units (the selected one stays): index, carry gate, mean carry gate, |c|, |Δc|, importance, |r|; reverse", 0, KEY_ALL, keys_sort, "sS", NULL, {K_NONE}},
    {"o", "pick the order: then i g m c d p r (index ... |r|)", 0, KEY_ALL, keys_sort, "o", NULL, {K_NONE}},
    {"[ ]", "the layer below, above", 0, KEY_ALL, keys_layer, "[]", NULL, {K_NONE}},
    {"c", "colour the text by the selected unit's value", 0, KEY_ALL, keys_colour, "c", NULL, {K_NONE}},
    {"g", "go to a step (a number, N%, end)", 0, KEY_ALL, keys_go_to, "g", NULL, {K_NONE}},
    {"/ n N", "search the text (lower case: either case); the next, previous hit of a search, m or v", 0, KEY_ALL, keys_search, "/nN", NULL, {K_NONE}},
    {"", "in a prompt: ← → Home End move, ^U ^W ^K delete, ↑ ↓ earlier lines"},
    {"m v", "match a regular expression (r of every unit); select a stretch", 0, KEY_ALL, keys_find, "mv", NULL, {K_NONE}},
    {"p ; , .", "the unit's profile; the signal of r, v, p; v's threshold -/+", 0, KEY_ALL, keys_find, "p;,.", NULL, {K_NONE}},
    {"e", "edit the character under the cursor (then type it; Enter twice: a newline)", 0, KEY_ALL, keys_edit, "e", NULL, {K_NONE}},
    {"u ^R", "undo the last edit; redo the last undone", 0, KEY_ALL, keys_undo, "u", "r", {K_NONE}},
    {"E", "the next edited step", 0, KEY_ALL, keys_next_edit, "E", NULL, {K_NONE}},
    {"+ = -", "perturbation horizon K: double, halve (4-1024)", 0, KEY_ALL, keys_horizon, "+=-", NULL, {K_NONE}},
    {"d", "gate bars and unit: edited - before the last edit, or values", 0, KEY_ALL, keys_difference, "d", NULL, {K_NONE}},
    {"w", "write the edited text to a new file here", 0, KEY_ALL, keys_write, "w", NULL, {K_NONE}},
    {"r", "report tables of the text (r or Esc closes, arrows scroll)", 0, KEY_ALL, keys_report, "r", NULL, {K_NONE}},
    {"U", "the unit table: mean gates, three half-lives per unit (← → sort, Enter selects; U Esc close)", 0, KEY_ALL, keys_units_open, "U", NULL, {K_NONE}},
    {"D", "dc_T/dc_(T-k) against the carry line at the cursor (+ - its K, D Esc close)", 0, KEY_ALL, keys_derivative, "D", NULL, {K_NONE}},
    {"< >", "the layer's forget bias (GRU: update z) down, up by 0.5", 0, KEY_ALL, keys_bias, "<>", NULL, {K_NONE}},
    {"{ }", "the selected unit's forget bias down, up by 0.5", 0, KEY_ALL, keys_bias, "{}", NULL, {K_NONE}},
    {"a C", "ablate the selected unit (again: back); the carousel f = 1 (LSTM)", 0, KEY_ALL, keys_ablate, "aC", NULL, {K_NONE}},
    {"Z", "remove every intervention (the edits stay)", 0, KEY_ALL, keys_clear_interventions, "Z", NULL, {K_NONE}},
    {"x", "export this frame to a text file", 0, KEY_ALL, keys_export, "x", NULL, {K_NONE}},
    {"Tab S-Tab", "several models: the next, previous one (same step, edits)", 0, KEY_ALL, NULL, NULL, NULL, {K_NONE}},
    {"Esc", "cancel a prompt or a selection, stop a computation", 0, KEY_ALL, keys_escape, NULL, NULL, {K_ESC}},
    {"^L", "draw the screen again", 0, KEY_ALL, keys_redraw, NULL, "l", {K_NONE}},
    {"mouse", "click a unit row or a character; the wheel steps or selects units", 0, KEY_ALL, NULL, NULL, NULL, {K_NONE}},
    {"?", "this help (↑ ↓ PgUp PgDn scroll it, any other key closes it)", 0, KEY_ALL, keys_help_open, "?", NULL, {K_NONE}},
    {"q ^C", "quit (q asks again while edits are not written)", 0, KEY_ALL, keys_quit, "q", "c", {K_NONE}},
    {"", ""},
    {"", "unit rows: #, gate bars and values, c, h, t½ = ln .5 / ln f (steps), Δc = c - c at the step before"},
    {"", "c: text shaded by tanh c: blue -1 .. plain 0 .. red +1"},
    {"", "hidden by o: units with |h| < .1 although |c| > .55"},
    {"", "text marks: ▲ cursor, * edited, × not in the vocabulary"},
    /* documented, not in the help box */
    {"^Z", "suspend (the shell's fg brings the screen back)", 1, KEY_ALL, NULL, NULL, NULL,
     {K_NONE}},
};

int keys_help(const gt_keys_table **out)
{
    *out = table;
    return (int)(sizeof table / sizeof table[0]);
}

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
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if ((table[i].where & here) && binds(&table[i], k))
            return &table[i];
    return NULL;
}

gt_act keys_handle(gt_view *v, const gt_key *k)
{
    if (v->ui->help) /* the arrows scroll the help, any other key closes it */
        return keys_help_key(v, k);
    if (v->ui->prompt != PROMPT_NONE)
        return keys_prompt_key(v, k);
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
    if (v->ui->sort_pick) /* after o: the order */
        return keys_sort_pick(v, k);
    const gt_keys_table *r = line_of(v, k);
    /* after M or ': the next character names a mark, unless a view or m v p takes it */
    if (k->sym == K_CHAR && !k->ctrl && (v->ui->mark_next || v->ui->quote) &&
        !(r && (!(r->where & KEY_PANELS) || r->run == keys_find)))
        return keys_mark_pending(v, k);
    return r && r->run ? r->run(v, k) : ACT_NONE;
}

gt_act keys_handle_models(gt_models *ms, const gt_key *k)
{
    gt_view *v = models_view(ms);
    if (k->sym == K_TAB && !v->ui->help && v->ui->prompt == PROMPT_NONE) {
        v->ui->msg[0] = 0;
        models_switch(ms, k->shift ? -1 : 1);
        return ACT_REDRAW;
    }
    gt_act a = keys_handle(v, k);
    models_sync(ms);
    return a;
}
