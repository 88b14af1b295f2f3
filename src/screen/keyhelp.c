/* The screen's keys as the help box lists them (see keyhelp.h). */
#include "config.h"

#include "screen/keyhelp.h"

/* The help box's lines first (a line without a key says what a panel shows), then the keys
 * documented that it does not list. */
static const gt_keyhelp table[] = {
    {"← → h l", "step one character back, forward"},
    {"PgUp PgDn ^B ^F Space", "a page of text back, forward (Space: forward)"},
    {"Home End 0 $ G", "the first, the last step"},
    {"^E ^Y", "scroll the text a row on, back; the cursor stays"},
    {"'' M 'a", "back to the step before the last jump (g, /, n, E, Home, End); mark a step a-z; go to mark a"},
    {"↑ ↓ k j", "select the unit above, below"},
    {"K J Shift-↑ Shift-↓", "a page of units up, down"},
    {"H L #", "the first, the last unit of the order; a unit by number"},
    {"s S", "sort units (the first selected): index, carry gate, |c|, |Δc|, importance, |r|; reverse"},
    {"[ ]", "the layer below, above"},
    {"c", "colour the text by the selected unit's value"},
    {"g", "go to a step (a number, N%, end)"},
    {"/ n N", "search the text (lower case: either case); the next, previous hit of a search, m or v"},
    {"", "in a prompt: ← → Home End move, ^U ^W ^K delete, ↑ ↓ earlier lines"},
    {"m v", "match a regular expression (r of every unit); select a stretch"},
    {"p ; , .", "the unit's profile; the signal of r, v, p; v's threshold -/+"},
    {"e", "edit the character under the cursor (then type it; Enter twice: a newline)"},
    {"u ^R", "undo the last edit; redo the last undone"},
    {"E", "the next edited step"},
    {"+ = -", "perturbation horizon K: double, halve (4-1024)"},
    {"d", "gate bars and unit: edited - before the last edit, or values"},
    {"w", "write the edited text to a new file here"},
    {"r", "report tables of the text (r or Esc closes, arrows scroll)"},
    {"D", "dc_T/dc_(T-k) against the carry line at the cursor (+ - its K, D Esc close)"},
    {"< >", "the layer's forget bias (GRU: update z) down, up by 0.5"},
    {"{ }", "the selected unit's forget bias down, up by 0.5"},
    {"a C", "ablate the selected unit (again: back); the carousel f = 1 (LSTM)"},
    {"Z", "remove every intervention (the edits stay)"},
    {"x", "export this frame to a text file"},
    {"Tab S-Tab", "several models: the next, previous one (same step, edits)"},
    {"Esc", "cancel a prompt or a selection, stop a computation"},
    {"^L", "draw the screen again"},
    {"mouse", "click a unit row or a character; the wheel steps or selects units"},
    {"?", "this help (↑ ↓ PgUp PgDn scroll it, any other key closes it)"},
    {"q ^C", "quit (q asks again while edits are not written)"},
    {"", ""},
    {"", "unit rows: #, gate bars and values, c, h, t½ = ln .5 / ln f (steps), Δc = c - c at the step before"},
    {"", "c: text shaded by tanh c: blue -1 .. plain 0 .. red +1"},
    {"", "hidden by o: units with |h| < .1 although |c| > .55"},
    {"", "text marks: ▲ cursor, * edited, × not in the vocabulary"},
    /* documented, not in the help box */
    {"^Z", "suspend (the shell's fg brings the screen back)", 1},
};

int keys_help(const gt_keyhelp **out)
{
    *out = table;
    return (int)(sizeof table / sizeof table[0]);
}
