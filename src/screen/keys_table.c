/* The screen's keys as one table (see keys_table.h): data, calling nothing. */
#include "config.h"

#include <stddef.h>

#include "screen/keys_table.h"

/* A hint: its keys, their ASCII form (NULL: the same), what they do, its place in each
 * context (P = 3: third on the panels' status line). */
#define HINT(keys, ascii, what, ...) {keys, ascii, what, NULL, 0, {__VA_ARGS__}}
#define P [HINT_PANELS]
#define E [HINT_EDITED]
#define S [HINT_STATS]
#define F [HINT_PROFILE]
#define V [HINT_SELECT]
#define J [HINT_DERIV]
#define U [HINT_UNITS]
#define M [HINT_MODELS]

/* The keys that mean something else in a view over the panels first (they are found
 * first), then the help box's lines (a line without a key says what a panel shows), then
 * the keys documented that it does not list. */
static const gt_keys_table table[] = {
    {NULL, "close the report's tables", 0, KEY_STATS, KA_CLOSE_VIEW, NULL, NULL, {K_ESC},
     {HINT("r Esc", NULL, "close", S = 6, M = 5)}},
    {NULL, "close the profile", 0, KEY_PROFILE, KA_CLOSE_VIEW, NULL, NULL, {K_ESC},
     {HINT("p Esc", NULL, "close", F = 4)}},
    {NULL, "close the derivative", 0, KEY_JACOBIAN, KA_CLOSE_VIEW, NULL, NULL, {K_ESC},
     {HINT("D Esc", NULL, "close", J = 5)}},
    {NULL, "scroll the report's tables", 0, KEY_STATS, KA_SCROLL_TABLES, "kjKJ", NULL,
     {K_UP, K_DOWN, K_PGUP, K_PGDN},
     {HINT("↑↓", "j/k", "scroll", S = 1), HINT("PgUp/Dn", NULL, "page", S = 2)}},
    {NULL, "the report: go to the edited step of the window's line marked ▶ (the first shown)", 0,
     KEY_STATS, KA_STATS_MODELS, NULL, NULL, {K_ENTER}, {HINT("Enter", NULL, "go to ▶", S = 5)}},
    {NULL, "several models: the table's columns left, right; Enter the model shown's whole report, again the table",
     0, KEY_STATS, KA_STATS_MODELS, "hl", NULL, {K_LEFT, K_RIGHT, K_ENTER},
     {HINT("←→", "h/l", "models", M = 1), HINT("Enter", NULL, "one's report", M = 2)}},
    {NULL, "scroll the profile", 0, KEY_PROFILE, KA_SCROLL_PROFILE, "kjKJ", NULL,
     {K_UP, K_DOWN, K_PGUP, K_PGDN},
     {HINT("↑↓", "j/k", "scroll", F = 1), HINT("PgUp/Dn", NULL, "page", F = 2)}},
    {NULL, "the profile: go to the step of the line marked ▶ (the first step's at the top)", 0,
     KEY_PROFILE, KA_PROFILE_GO, NULL, NULL, {K_ENTER}, {HINT("Enter", NULL, "go there", F = 5)}},
    {NULL, "the derivative's K", 0, KEY_JACOBIAN, KA_DERIVATIVE_LAGS, "+=-", NULL, {K_NONE},
     {HINT("+/-", NULL, "K", J = 3)}},
    {NULL, "close the unit table", 0, KEY_UNITS, KA_CLOSE_VIEW, NULL, NULL, {K_ESC},
     {HINT("U Esc", NULL, "close", U = 5)}},
    {NULL, "the unit table: the row above, below; a page", 0, KEY_UNITS, KA_UNITS_TABLE, "kjKJ",
     NULL, {K_UP, K_DOWN, K_PGUP, K_PGDN}, {HINT("↑↓", "j/k", "row", U = 1)}},
    {NULL, "the unit table: sort by the column left, right; s reverses", 0, KEY_UNITS,
     KA_UNITS_TABLE, "hls", NULL, {K_LEFT, K_RIGHT},
     {HINT("←→", "h/l", "column", U = 2), HINT("s", NULL, "reverse", U = 3)}},
    {"← → h l", "step one character back, forward", 0, KEY_ALL, KA_STEP, "hl", NULL,
     {K_LEFT, K_RIGHT},
     {HINT("←→", "h/l", "step", P = 1, E = 1, S = 4, J = 1), HINT("←→", "h/l", "extend", V = 1)}},
    {"PgUp PgDn ^B ^F Space", "a page of text back, forward (Space: forward)", 0, KEY_ALL,
     KA_PAGE, " ", "bf", {K_PGUP, K_PGDN}, {HINT("PgUp/Dn", NULL, "page", P = 2, V = 2)}},
    {"Home End 0 $ G", "the first, the last step", 0, KEY_ALL, KA_ENDS, "0$G", NULL,
     {K_HOME, K_END}, {{0}}},
    {"^E ^Y", "scroll the text a row on, back; the cursor stays", 0, KEY_ALL, KA_SCROLL_TEXT,
     NULL, "ey", {K_NONE}, {{0}}},
    {"'' M 'a", "back to the step before the last jump (g, /, n, E, Home, End); mark a step a-z; go to mark a",
     0, KEY_ALL, KA_MARK, "'M", NULL, {K_NONE}, {{0}}},
    {"↑ ↓ k j", "select the unit above, below", 0, KEY_ALL, KA_UNIT, "kj", NULL, {K_UP, K_DOWN},
     {HINT("↑↓", "j/k", "unit", P = 3, J = 2)}},
    {"K J Shift-↑ Shift-↓", "a page of units up, down", 0, KEY_ALL, KA_UNIT, "KJ", NULL,
     {K_NONE}, {{0}}},
    {"H L #", "the first, the last unit of the order; a unit by number", 0, KEY_ALL,
     KA_UNIT_ENDS, "HL#", NULL, {K_NONE}, {{0}}},
    {"s S", "sort units (the selected one stays): index, carry gate, mean carry gate, |c|, |Δc|, importance, |r|; reverse",
     0, KEY_ALL, KA_SORT, "sS", NULL, {K_NONE}, {HINT("s", NULL, "sort", P = 4)}},
    {"o", "pick the order: then i g m c d p r (index ... |r|)", 0, KEY_ALL, KA_SORT, "o", NULL,
     {K_NONE}, {{0}}},
    {"[ ]", "the layer below, above", 0, KEY_ALL, KA_LAYER, "[]", NULL, {K_NONE},
     {{"[ ]", NULL, "layer", NULL, 1, {P = 5, E = 7, S = 3, J = 4, M = 3}}}},
    {"c P", "colour the text by the selected unit's c, h, i, f, g, o in turn; by the probe, components 1-3 in turn", 0,
     KEY_ALL, KA_COLOUR, "cP", NULL,
     {K_NONE}, {HINT("c", NULL, "colour", P = 12)}},
    {"g", "go to a step (a number, N%, end)", 0, KEY_ALL, KA_GO_TO, "g", NULL, {K_NONE},
     {HINT("g", NULL, "go to", P = 8)}},
    {"/ n N", "search the text (lower case: either case); the next, previous hit of a search, m or v",
     0, KEY_ALL, KA_SEARCH, "/nN", NULL, {K_NONE}, {HINT("/", NULL, "search", P = 9)}},
    {.keys = "", .what = "in a prompt: ← → Home End move, ^U ^W ^K delete, ↑ ↓ earlier lines"},
    {"m v", "match a regular expression (r of every unit, then its probe's AUC); select a stretch", 0, KEY_ALL,
     KA_FIND, "mv", NULL, {K_NONE},
     {HINT("m", NULL, "match", P = 13), HINT("v", NULL, "select", P = 14, V = 3)}},
    {"p ; , .", "the unit's profile; the signal of r, v, p; v's threshold -/+", 0, KEY_ALL,
     KA_FIND, "p;,.", NULL, {K_NONE},
     {HINT("p", NULL, "profile", P = 15), HINT(";", NULL, "signal", F = 3)}},
    {"e", "edit the character under the cursor (then type it; Enter twice: a newline)", 0,
     KEY_ALL, KA_EDIT, "e", NULL, {K_NONE}, {HINT("e", NULL, "edit", P = 6, E = 2)}},
    {"u ^R", "undo the last edit; redo the last undone", 0, KEY_ALL, KA_UNDO, "u", "r",
     {K_NONE}, {HINT("u", NULL, "undo", P = 7, E = 3)}},
    {"E", "the next edited step", 0, KEY_ALL, KA_NEXT_EDIT, "E", NULL, {K_NONE}, {{0}}},
    {"+ = -", "perturbation horizon K: double, halve (4-1024)", 0, KEY_ALL, KA_HORIZON, "+=-",
     NULL, {K_NONE}, {HINT("+/-", NULL, "K", E = 4)}},
    {"A", "perturbation: every edit at once against the text as loaded, or the last edit", 0,
     KEY_ALL, KA_PERT_ALL, "A", NULL, {K_NONE}, {{0}}},
    {"( )", "perturbation: read the ratio measured / forget-only at half, twice the k (up to K)", 0,
     KEY_ALL, KA_RATIO_K, "()", NULL, {K_NONE}, {{0}}},
    {"d", "gate bars and unit: edited - before the last edit, or values", 0, KEY_ALL,
     KA_DIFFERENCE, "d", NULL, {K_NONE}, {{"d", NULL, "difference", "values", 0, {E = 5}}}},
    {"w", "write the edited text to a new file here, its edits' list beside it", 0, KEY_ALL, KA_WRITE, "w", NULL,
     {K_NONE}, {HINT("w", NULL, "write text", E = 6)}},
    {"r", "report tables of the text (r or Esc closes, arrows scroll)", 0, KEY_ALL, KA_REPORT,
     "r", NULL, {K_NONE}, {HINT("r", NULL, "report", P = 10, E = 8)}},
    {"U", "the unit table: mean gates, three half-lives per unit (← → sort, Enter selects; U Esc close)",
     0, KEY_ALL, KA_UNITS_OPEN, "U", NULL, {K_NONE}, {{0}}},
    {"Enter", "in the unit table: select the row's unit on the panels", 0, KEY_UNITS,
     KA_UNITS_TABLE, NULL, NULL, {K_ENTER}, {HINT("Enter", NULL, "select", U = 4)}},
    {"D", "dc_T/dc_(T-k) against the carry line at the cursor (+ - its K, D Esc close)", 0,
     KEY_ALL, KA_DERIVATIVE, "D", NULL, {K_NONE}, {HINT("D", NULL, "derivative", P = 16)}},
    {"< >", "the layer's forget bias (GRU: update z) down, up by 0.5", 0, KEY_ALL, KA_BIAS,
     "<>", NULL, {K_NONE}, {{0}}},
    {"{ }", "the selected unit's forget bias down, up by 0.5", 0, KEY_ALL, KA_BIAS, "{}", NULL,
     {K_NONE}, {{0}}},
    {"a C", "ablate the selected unit (again: back); the carousel f = 1 (LSTM)", 0, KEY_ALL,
     KA_ABLATE, "aC", NULL, {K_NONE}, {{0}}},
    {"Z", "remove every intervention (the edits stay)", 0, KEY_ALL, KA_CLEAR_INTERVENTIONS,
     "Z", NULL, {K_NONE}, {{0}}},
    {"X", "the HTML figure of the selected unit (in c's signal) around the cursor, to a new file here",
     0, KEY_ALL, KA_FIGURE, "X", NULL, {K_NONE}, {{0}}},
    {"x", "export this frame to a text file", 0, KEY_ALL, KA_EXPORT, "x", NULL, {K_NONE},
     {HINT("x", NULL, "export", P = 11, E = 9)}},
    {"Tab S-Tab", "several models: the next, previous one (same step, edits)", 0, KEY_ALL,
     KA_NONE, NULL, NULL, {K_NONE}, {HINT("Tab", NULL, "model", M = 4)}},
    {"Esc", "cancel a prompt or a selection, stop a computation", 0, KEY_ALL, KA_ESCAPE, NULL,
     NULL, {K_ESC}, {HINT("Esc", NULL, "cancel", V = 4)}},
    {"^L", "draw the screen again", 0, KEY_ALL, KA_REDRAW, NULL, "l", {K_NONE}, {{0}}},
    {"mouse", "click a unit row or a character; the wheel steps or selects units", 0, KEY_ALL,
     KA_NONE, NULL, NULL, {K_NONE}, {{0}}},
    {"?", "this help (↑ ↓ PgUp PgDn scroll it, any other key closes it)", 0, KEY_ALL,
     KA_HELP_OPEN, "?", NULL, {K_NONE},
     {HINT("?", NULL, "help", P = 17, E = 10, S = 7, F = 6, V = 5, J = 6, U = 6, M = 6)}},
    {"q ^C", "quit (q asks again while edits are not written)", 0, KEY_ALL, KA_QUIT, "q", "c",
     {K_NONE}, {HINT("q", NULL, "quit", P = 18, E = 11, S = 8, F = 7, V = 6, J = 7, U = 7, M = 7)}},
    {.keys = "", .what = ""},
    {.keys = "", .what = "unit rows: #, gate bars and values, c, h, t½ = ln .5 / ln f (steps), Δc = c - c at the step before"},
    {.keys = "", .what = "c: text shaded by tanh c: blue -1 .. plain 0 .. red +1"},
    {.keys = "", .what = "hidden by o: units with |h| < .1 although |c| > .55"},
    {.keys = "", .what = "text marks: ▲ cursor, * edited, × not in the vocabulary"},
    /* documented, not in the help box */
    {"^Z", "suspend (the shell's fg brings the screen back)", 1, KEY_ALL, KA_NONE, NULL, NULL,
     {K_NONE}, {{0}}},
};

#undef P
#undef E
#undef S
#undef F
#undef V
#undef J

#define LINES (sizeof table / sizeof table[0])

int keys_help(const gt_keys_table **out)
{
    *out = table;
    return (int)LINES;
}

int keys_hints(gt_hintctx c, const gt_keyhint **out)
{
    int n = 0;
    for (int i = 0; i < KEYS_HINTS_MAX; i++)
        out[i] = NULL;
    for (size_t i = 0; i < LINES; i++)
        for (int j = 0; j < KEYS_HINTS; j++) {
            const gt_keyhint *h = &table[i].hint[j];
            int at = h->at[c];
            if (h->key && at > 0 && at <= KEYS_HINTS_MAX) {
                out[at - 1] = h;
                n = at > n ? at : n;
            }
        }
    int k = 0; /* places left free close up */
    for (int i = 0; i < n; i++)
        if (out[i])
            out[k++] = out[i];
    return k;
}
