/* The panels' keys as one table, and finding a key's line where the screen is (see
 * keys_table.h). */
#include "config.h"

#include <stddef.h>

#include "screen/keys_find.h"
#include "screen/keys_run.h"
#include "screen/keys_table.h"

/* The help box lists these first, then the sheets' keys (sheets.c), then those below; a
 * line without keys ("") says what the screen shows. */
static const gt_keyline before[] = {
    {"← → h l", "step one character back, forward", 0, 0, keys_step,
     {KB_SYM(K_LEFT, -1), KB_SYM(K_RIGHT, 1), KB_CHAR('h', -1), KB_CHAR('l', 1)}},
    {"PgUp PgDn ^B ^F Space", "a page of text back, forward (Space: forward)", 0, 0, keys_page,
     {KB_SYM(K_PGUP, -1), KB_SYM(K_PGDN, 1), KB_CTRL('b', -1), KB_CTRL('f', 1),
      KB_CHAR(' ', 1)}},
    {"Home End 0 $ G", "the first, the last step", 0, 0, keys_ends,
     {KB_SYM(K_HOME, KEYS_HOME), KB_SYM(K_END, KEYS_END), KB_CHAR('0', KEYS_ZERO),
      KB_CHAR('$', KEYS_END), KB_CHAR('G', KEYS_END)}},
    {"^E ^Y", "scroll the text a row on, back; the cursor stays", 0, 0, keys_scroll_text,
     {KB_CTRL('e', 1), KB_CTRL('y', -1)}},
    {"'' M 'a", "back to the step before the last jump (g, /, n, N, E, Ctrl-R, Home, End, $, G, a mark, ''); mark a step a-z; go to mark a",
     0, 0, keys_mark, {KB_CHAR('\'', KEYS_QUOTE), KB_CHAR('M', KEYS_MARK)}},
    {"↑ ↓ k j", "select the unit above, below", 0, 0, keys_unit,
     {KB_SYM(K_UP, -1), KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1)}},
    {"K J Shift-↑ Shift-↓", "a page of units up, down", 0, 0, keys_unit,
     {KB_CHAR('K', -KEYS_PAGE), KB_CHAR('J', KEYS_PAGE), KB_SHIFT(K_UP, -KEYS_PAGE),
      KB_SHIFT(K_DOWN, KEYS_PAGE)}},
    {"H L #", "the first, the last unit of the order; a unit by number", 0, 0, keys_unit_ends,
     {KB_CHAR('H', KEYS_FIRST), KB_CHAR('L', KEYS_LAST), KB_CHAR('#', KEYS_BY_NUMBER)}},
    {"s S", "sort units (the selected one stays): index, carry gate, mean carry gate, |c|, |Δc|, importance, |r|; reverse",
     0, 0, keys_sort, {KB_CHAR('s', KEYS_NEXT), KB_CHAR('S', KEYS_REVERSE)}},
    {"o", "pick the order: then i g m c d p r (index ... |r|)", 0, 0, keys_sort,
     {KB_CHAR('o', KEYS_PICK)}},
    {"[ ]", "the layer below, above", 0, 0, keys_layer, {KB_CHAR('[', -1), KB_CHAR(']', 1)}},
    {"c P", "colour the text by the selected unit's c, h, i, f, g, o in turn; by the probe, components 1-3 in turn", 0,
     0, keys_colour, {KB_CHAR('c', KEYS_UNIT_SIGNALS), KB_CHAR('P', KEYS_MANY_UNITS)}},
    {"g", "go to a step (a number, N%, end)", 0, 0, keys_go_to, {KB_CHAR('g', 0)}},
    {"/ n N", "search the text (lower case: either case); the next, previous hit of a search, m or v",
     0, 0, keys_search, {KB_CHAR('/', 0), KB_CHAR('n', 1), KB_CHAR('N', -1)}},
    {.keys = "", .what = "in a prompt: ← → Home End move, ^U ^W ^K delete, ↑ ↓ earlier lines"},
    {"m v", "match a regular expression (r of every unit, then its probe's AUC); select a stretch", 0,
     0, keys_find_key, {KB_CHAR('m', FIND_KEY_MATCH), KB_CHAR('v', FIND_KEY_SELECT)}},
    {"; , .", "the signal of r, v, p; v's threshold -/+", 0, 0, keys_find_key,
     {KB_CHAR(';', FIND_KEY_SIGNAL), KB_CHAR(',', FIND_KEY_LOWER),
      KB_CHAR('.', FIND_KEY_HIGHER)}},
    {"e", "edit the character under the cursor (then type it; Enter twice: a newline); a word "
          "model's token: type it, Tab completes", 0, 0,
     keys_edit, {KB_CHAR('e', 0)}},
    {"u ^R", "undo the last edit; redo the last undone", 0, 0, keys_undo,
     {KB_CHAR('u', KEYS_UNDO), KB_CTRL('r', KEYS_REDO)}},
    {"E", "the next edited step", 0, 0, keys_next_edit, {KB_CHAR('E', 0)}},
    {"+ = -", "perturbation horizon K: double, halve (4-1024)", 0, 0, keys_horizon,
     {KB_CHAR('+', 1), KB_CHAR('=', 1), KB_CHAR('-', -1)}},
    {"A", "perturbation: every edit at once against the text as loaded, or the last edit", 0, 0,
     keys_pert_all, {KB_CHAR('A', 0)}},
    {"b", "perturbation: pin this edit's curves, the next edit's drawn beside them (again: let go)",
     0, 0, keys_pin, {KB_CHAR('b', 0)}},
    {"( )", "perturbation: read the ratio measured / forget-only at half, twice the k (up to K)", 0,
     0, keys_ratio_k, {KB_CHAR('(', -1), KB_CHAR(')', 1)}},
    {"d", "gate bars and unit: edited - before the last edit, or values", 0, 0, keys_difference,
     {KB_CHAR('d', 0)}},
    {"w", "write the edited text to a new file here, its edits' list beside it", 0, 0,
     keys_write, {KB_CHAR('w', 0)}},
    {"W", "write the session (models, text, edits, this screen) to NAME.gatetui-session.json",
     0, 0, keys_session, {KB_CHAR('W', 0)}},
};

static const gt_keyline after[] = {
    {"< >", "the layer's forget bias (GRU: update z) down, up by 0.5", 0, 0, keys_bias,
     {KB_CHAR('<', -1), KB_CHAR('>', 1)}},
    {"{ }", "the selected unit's forget bias down, up by 0.5", 0, 0, keys_bias,
     {KB_CHAR('{', -2), KB_CHAR('}', 2)}},
    {"a C", "ablate the selected unit (again: back); the carousel f = 1 (LSTM)", 0, 0,
     keys_ablate, {KB_CHAR('a', KEYS_ABLATE), KB_CHAR('C', KEYS_CAROUSEL)}},
    {"Z", "remove every intervention (the edits stay)", 0, 0, keys_clear_interventions,
     {KB_CHAR('Z', 0)}},
    {"X", "the HTML figure of the selected unit (in c's signal) around the cursor, to a new file here",
     0, 0, keys_figure, {KB_CHAR('X', 0)}},
    {"F", "a figure of what is shown (the edit's curves; U's units; r's models) to new SVG and CSV files here",
     0, 0, keys_paper, {KB_CHAR('F', 0)}},
    {"x", "export this frame to a text file, once what it shows is computed", 0, 0, keys_export, {KB_CHAR('x', 0)}},
    {"Tab S-Tab", "several models: the next, previous one (same step, edits)", 0, 0, NULL,
     {KB_SYM(K_TAB, 0), KB_SHIFT(K_TAB, 0)}},
    {"Esc", "cancel a prompt or a selection, stop a computation, close the sheet", 0, 0, keys_escape,
     {KB_SYM(K_ESC, 0)}},
    {"^L", "draw the screen again", 0, 0, keys_redraw, {KB_CTRL('l', 0)}},
    {"mouse", "click a unit row or a character; the wheel steps or selects units", 0, 0, NULL,
     {KB_SYM(K_CLICK, 0), KB_SYM(K_WHEEL_UP, 0), KB_SYM(K_WHEEL_DOWN, 0)}},
    {"?", "this help (↑ ↓ j k PgUp PgDn scroll it, any other key closes it)", 0, 0, keys_help_open,
     {KB_CHAR('?', 0)}},
    {"q ^C", "quit (asks again while edits are not written)", 0, 0, keys_quit,
     {KB_CHAR('q', KEYS_ASK), KB_CTRL('c', KEYS_NOW)}},
    {"^Z", "suspend (the shell's fg brings the screen back)", 0, 0, NULL, {KB_CTRL('z', 0)}},
    {.keys = "", .what = ""},
    {.keys = "", .what = "unit rows: #, gate bars and values, c, h, t½ = ln .5 / ln f (steps), Δc = c - c at the step before"},
    {.keys = "", .what = "c: text shaded by tanh c: blue -1 .. plain 0 .. red +1"},
    {.keys = "", .what = "hidden by o: units with |h| < .1 although |c| > .55"},
    {.keys = "", .what = "text marks: ▲ cursor, * edited, × not in the vocabulary, ‾ a match of m, ═ a selection of v (≡ both)"},
};

#define NBEFORE ((int)(sizeof before / sizeof before[0]))
#define NAFTER ((int)(sizeof after / sizeof after[0]))

int keys_table(const gt_keyline **b, const gt_keyline **a, int *nafter)
{
    *b = before;
    *a = after;
    *nafter = NAFTER;
    return NBEFORE;
}

/* The first of lines[0..n) that binds k (keys_line_bind) and applies: `here` lines only
 * when here is set, the others only when it is not. */
static const gt_keyline *find(const gt_keyline *lines, int n, int here, const gt_key *k,
                              int exact, const gt_keybind **bind)
{
    for (int i = 0; i < n; i++) {
        const int own = lines[i].here || !lines[i].keys;
        if (own == here && (*bind = keys_line_bind(&lines[i], k, exact)) != NULL)
            return &lines[i];
    }
    return NULL;
}

const gt_keyline *keys_line_for(const gt_sheet *up, const gt_sheet *const *sheets, int n,
                                const gt_key *k, const gt_keybind **bind)
{
    const gt_keyline *l = NULL;
    for (int exact = 1; up && !l && exact >= 0; exact--) /* the sheet's own keys first */
        l = find(up->keys, up->nkeys, 1, k, exact, bind);
    for (int exact = 1; !l && exact >= 0; exact--) {
        l = find(before, NBEFORE, 0, k, exact, bind);
        if (!l)
            l = find(after, NAFTER, 0, k, exact, bind);
        for (int i = 0; i < n && !l; i++)
            l = find(sheets[i]->keys, sheets[i]->nkeys, 0, k, exact, bind);
    }
    return l;
}

int keys_help_lines(const gt_sheet *const *sheets, int n, const gt_keyline **out, int max)
{
    int k = 0;
    for (int i = 0; i < NBEFORE && k < max; i++)
        out[k++] = &before[i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < sheets[i]->nkeys && k < max; j++)
            if (sheets[i]->keys[j].keys)
                out[k++] = &sheets[i]->keys[j];
    for (int i = 0; i < NAFTER && k < max; i++)
        out[k++] = &after[i];
    return k;
}

/* ---- the status line's hints ---- */

#define HINT(name, what) {&keys_names[name], (what), NULL}
#define END {NULL, NULL, NULL}

static const gt_hint panels[] = {
    HINT(KN_STEP, "step"), HINT(KN_PAGE, "page"), HINT(KN_UNIT, "unit"), HINT(KN_SORT, "sort"),
    HINT(KN_LAYER, "layer"), HINT(KN_EDIT, "edit"), HINT(KN_UNDO, "undo"),
    HINT(KN_GOTO, "go to"), HINT(KN_SEARCH, "search"), HINT(KN_EXPORT, "export"),
    HINT(KN_COLOUR, "colour"), HINT(KN_MATCH, "match"), HINT(KN_SELECT, "select"),
    HINT(KN_HELP, "help"), HINT(KN_QUIT, "quit"), END,
};
static const gt_hint edited[] = {
    HINT(KN_STEP, "step"), HINT(KN_EDIT, "edit"), HINT(KN_UNDO, "undo"), HINT(KN_HORIZON, "K"),
    {&keys_names[KN_DIFF], "difference", "values"}, HINT(KN_WRITE, "write text"),
    HINT(KN_LAYER, "layer"), HINT(KN_EXPORT, "export"), HINT(KN_HELP, "help"),
    HINT(KN_QUIT, "quit"), END,
};
static const gt_hint selecting[] = {
    HINT(KN_STEP, "extend"), HINT(KN_PAGE, "page"), HINT(KN_SELECT, "select"),
    HINT(KN_CANCEL, "cancel"), HINT(KN_HELP, "help"), HINT(KN_QUIT, "quit"), END,
};

/* The hints of list into out from out[at] on; the number after them. */
static int copy_hints(const gt_hint *list, const gt_hint **out, int at)
{
    for (; list && list->name && at < KEYS_HINTS_MAX; list++)
        out[at++] = list;
    return at;
}

int keys_panels_hints(gt_hintctx c, const gt_sheet *const *sheets, int n, const gt_hint **out)
{
    const gt_hint *list = c == HINT_EDITED ? edited : c == HINT_SELECT ? selecting : panels;
    int k = copy_hints(list, out, 0);
    for (int place = 1; place <= KEYS_HINTS_MAX; place++) /* each sheet's key at its place */
        for (int i = 0; i < n; i++) {
            const gt_sheet *s = sheets[i];
            int at = c == HINT_PANELS ? s->panels_at : c == HINT_EDITED ? s->edited_at : 0;
            if (at != place || !s->panels_hint || k >= KEYS_HINTS_MAX)
                continue;
            at = at - 1 < k ? at - 1 : k;
            for (int j = k; j > at; j--)
                out[j] = out[j - 1];
            out[at] = s->panels_hint;
            k++;
        }
    return k;
}

int keys_hints(const gt_view *v, const gt_hint **out)
{
    const gt_sheet *up = v->ui->sheet;
    const gt_hint *own = up && up->hints ? up->hints(v) : NULL;
    if (own)
        return copy_hints(own, out, 0);
    gt_hintctx c = v->find.selecting           ? HINT_SELECT
                   : trace_edit_count(v->tr) ? HINT_EDITED
                                             : HINT_PANELS;
    return keys_panels_hints(c, v->sheets, v->nsheets, out);
}
