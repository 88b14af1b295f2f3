/* The names of the panels' keys, and a key against a line's bindings (see keys_line.h). */
#include "config.h"

#include <stddef.h>

#include "screen/keys_line.h"

#define NAME(sym, cp, text, ascii) {{(sym), (cp), 0, 0, 0}, (text), (ascii), 0}

const gt_keyname keys_names[KN_COUNT] = {
    [KN_STEP] = NAME(K_LEFT, 0, "←→", "h/l"),
    [KN_PAGE] = NAME(K_PGUP, 0, "PgUp/Dn", NULL),
    [KN_UNIT] = NAME(K_UP, 0, "↑↓", "j/k"),
    [KN_UNIT_NOTE] = NAME(K_UP, 0, "↑↓", "up/down"),
    [KN_SORT] = NAME(K_CHAR, 's', "s", NULL),
    [KN_LAYER] = {{K_CHAR, '[', 0, 0, 0}, "[ ]", NULL, 1},
    [KN_COLOUR] = NAME(K_CHAR, 'c', "c", NULL),
    [KN_COLOUR_MORE] = NAME(K_CHAR, 'P', "P", NULL),
    [KN_GOTO] = NAME(K_CHAR, 'g', "g", NULL),
    [KN_SEARCH] = NAME(K_CHAR, '/', "/", NULL),
    [KN_MATCH] = NAME(K_CHAR, 'm', "m", NULL),
    [KN_SELECT] = NAME(K_CHAR, 'v', "v", NULL),
    [KN_SIGNAL] = NAME(K_CHAR, ';', ";", NULL),
    [KN_EDIT] = NAME(K_CHAR, 'e', "e", NULL),
    [KN_UNDO] = NAME(K_CHAR, 'u', "u", NULL),
    [KN_HORIZON] = NAME(K_CHAR, '+', "+/-", NULL),
    [KN_DIFF] = NAME(K_CHAR, 'd', "d", NULL),
    [KN_WRITE] = NAME(K_CHAR, 'w', "w", NULL),
    [KN_EXPORT] = NAME(K_CHAR, 'x', "x", NULL),
    [KN_MODEL] = NAME(K_TAB, 0, "Tab", NULL),
    [KN_CANCEL] = NAME(K_ESC, 0, "Esc", NULL),
    [KN_HELP] = NAME(K_CHAR, '?', "?", NULL),
    [KN_QUIT] = NAME(K_CHAR, 'q', "q", NULL),
    [KN_EFFECT] = NAME(K_CHAR, 'I', "I", NULL),
    [KN_CARRIERS] = NAME(K_CHAR, 'B', "B", NULL),
    [KN_PIN] = NAME(K_CHAR, 'b', "b", NULL),
};

const char *keys_name_text(const gt_keyname *n, int utf8)
{
    return utf8 || !n->ascii ? n->text : n->ascii;
}

/* Whether b is k: the same key, a character with Ctrl or not as b is; with exact, Shift as
 * b is too, else a key b binds without Shift also with it. */
static int bind_is(const gt_keybind *b, const gt_key *k, int exact)
{
    if (b->sym != k->sym)
        return 0;
    if (k->sym == K_CHAR)
        return b->cp == k->cp && !b->ctrl == !k->ctrl;
    return exact ? !b->shift == !k->shift : !b->shift || k->shift;
}

const gt_keybind *keys_line_bind(const gt_keyline *l, const gt_key *k, int exact)
{
    for (int i = 0; i < KEYS_BINDS && l->bind[i].sym != K_NONE; i++)
        if (bind_is(&l->bind[i], k, exact))
            return &l->bind[i];
    return NULL;
}
