/* The keys documented against the screen's key table (keys_table.h: the panels' lines and
 * every sheet's): every key of the table is in gatetui.1's KEYS, in doc/screen.md's table of
 * keys and in README.md's Keys, and neither of the first two documents a key that is not in
 * the table. Keys are compared by name: arrows, Ctrl-X, Shift-X as words. And the table
 * against itself: the help box lists every line of the table (^Z too), each line lists
 * exactly the keys the line binds; every
 * status line's hints (the panels', after an edit, a selection's, each sheet's) and every
 * name of a key in a panel's or a sheet's note name keys that the line taking them there
 * binds, help and quit last. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "screen/keys_table.h"
#include "screen/sheets.h"
#include "../lib/tap.h"

#define MAXKEYS 2048

typedef struct keyset {
    char name[MAXKEYS][24];
    int n;
} keyset;

static int has(const keyset *s, const char *k)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], k) == 0)
            return 1;
    return 0;
}

/* One word as a key's name: the arrows by name, ^X and Ctrl-x as Ctrl-X, S-Tab as
 * Shift-Tab, 'a as '; words that are not keys ("or", "a", "letter") are dropped. */
static void add(keyset *s, const char *w)
{
    static const char *const from[] = {"←", "→", "↑", "↓", "\\(<-", "\\(->", "\\(ua", "\\(da",
                                       "\\(aq", "\\-"};
    static const char *const to[] = {"Left", "Right", "Up", "Down", "Left", "Right", "Up", "Down",
                                     "'", "-"};
    char k[24] = "";
    size_t n = 0;
    while (*w && n + 8 < sizeof k) {
        size_t i = 0, len = 0;
        for (; i < sizeof from / sizeof from[0]; i++)
            if (strncmp(w, from[i], len = strlen(from[i])) == 0)
                break;
        if (i < sizeof from / sizeof from[0]) {
            n += (size_t)snprintf(k + n, sizeof k - n, "%s", to[i]);
            w += len;
        } else if (*w != '`' && *w != '"' && *w != '(' && *w != ')' && *w != '\\') {
            k[n++] = *w++;
            k[n] = 0;
        } else {
            w++;
        }
    }
    if (!k[0] || !strcmp(k, "or") || !strcmp(k, "a") || !strcmp(k, "letter") ||
        !strcmp(k, "key") || !strcmp(k, "---"))
        return;
    char out[24];
    if (k[0] == '^' && k[1])
        snprintf(out, sizeof out, "Ctrl-%c", k[1]);
    else if (!strncmp(k, "Ctrl-", 5) && k[5] >= 'a' && k[5] <= 'z')
        snprintf(out, sizeof out, "Ctrl-%c", k[5] - 'a' + 'A');
    else if (!strcmp(k, "S-Tab"))
        snprintf(out, sizeof out, "Shift-Tab");
    else if (k[0] == '\'' && k[1] >= 'a' && k[1] <= 'z' && !k[2])
        snprintf(out, sizeof out, "'");
    else
        snprintf(out, sizeof out, "%s", k);
    if (has(s, out))
        return;
    if (s->n == MAXKEYS) { /* a word left out would be a key found missing */
        printf("Bail out! more than %d words in a document's keys\n", MAXKEYS);
        exit(1);
    }
    snprintf(s->name[s->n++], sizeof s->name[0], "%s", out);
}

/* The words of line (separated by spaces and commas) as keys. */
static void add_words(keyset *s, char *line)
{
    for (char *w = strtok(line, " ,\t\n"); w; w = strtok(NULL, " ,\t\n"))
        add(s, w);
}

static char *read_file(const char *top, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", top, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* The part of file `name` from `head` to the next `next` (NUL-terminated inside *text, which
 * the caller frees), or NULL. */
static char *section(const char *top, const char *name, const char *head, const char *next,
                     char **text)
{
    *text = read_file(top, name);
    char *a = *text ? strstr(*text, head) : NULL, *b = a ? strstr(a + 1, next) : NULL;
    if (!b)
        return NULL;
    *b = 0;
    return a;
}

/* gatetui.1: the line after each .TP of the KEYS section, its macro (.B, .BR, .BI) off. */
static int man_keys(const char *top, keyset *s)
{
    char *text, *a = section(top, "gatetui.1", "\n.SH KEYS", "\n.SH ", &text);
    for (char *p = a ? strstr(a, "\n.TP\n") : NULL; p; p = strstr(p + 1, "\n.TP\n")) {
        char line[256], *q = p + 5, *e = strchr(q, '\n');
        snprintf(line, sizeof line, "%.*s", e ? (int)(e - q) : (int)strlen(q), q);
        char *w = strchr(line, ' ');
        if (line[0] == '.' && w)
            add_words(s, w);
    }
    free(text);
    return a != NULL;
}

/* doc/screen.md: the first column of the table under "## Keys"; the mouse by its section. */
static int md_keys(const char *top, keyset *s)
{
    char *text, *a = section(top, "doc/screen.md", "\n## Keys\n", "\n## ", &text);
    for (char *p = a ? strstr(a, "\n| ") : NULL; p; p = strstr(p + 1, "\n| ")) {
        char line[256], *q = p + 3, *e = strstr(q, " |");
        snprintf(line, sizeof line, "%.*s", e ? (int)(e - q) : 0, q);
        add_words(s, line);
    }
    if (a && strstr(a, "\n### The mouse\n"))
        add(s, "mouse");
    free(text);
    return a != NULL;
}

/* README.md: the words of its "## Keys" section, which is prose: a span in backquotes is
 * one word (`/`, `(`), and outside them words are split at blanks and at , ; ( ) /
 * (←/→ (h/l)), and at : (the mouse:). */
static int readme_keys(const char *top, keyset *s)
{
    char *text, *a = section(top, "README.md", "\n## Keys\n", "\n## ", &text);
    int quoted = 0;
    char word[64];
    size_t n = 0;
    for (const char *p = a ? a + 9 : ""; *p; p++) {
        int split = *p == '`' || (!quoted && strchr(" \n\t,;:()/", *p)) || (quoted && *p == ' ');
        if (split || n + 1 >= sizeof word) {
            word[n] = 0;
            if (n)
                add(s, word);
            n = 0;
            quoted ^= *p == '`';
            continue;
        }
        word[n++] = *p;
    }
    free(text);
    return a != NULL;
}

/* Every key of a that b lacks, in the message; 1 when there is none. */
static int all_in(const keyset *a, const keyset *b, char *missing, size_t n)
{
    missing[0] = 0;
    for (int i = 0; i < a->n; i++)
        if (!has(b, a->name[i])) {
            size_t len = strlen(missing);
            snprintf(missing + len, n - len, " %s", a->name[i]);
        }
    return !missing[0];
}

/* ---- the key table against itself: what the help box lists, what the lines bind, how the
 * hints and the notes name the keys ---- */

/* A key as a name ("Left", "PgDn", "Ctrl-R", "Shift-Up", "Space", "mouse", "q"). */
static void bind_name(const gt_keybind *b, char *out, size_t n)
{
    static const char *const sym[] = {
        [K_LEFT] = "Left", [K_RIGHT] = "Right", [K_UP] = "Up", [K_DOWN] = "Down",
        [K_PGUP] = "PgUp", [K_PGDN] = "PgDn", [K_HOME] = "Home", [K_END] = "End",
        [K_ENTER] = "Enter", [K_ESC] = "Esc", [K_TAB] = "Tab", [K_CLICK] = "mouse",
        [K_WHEEL_UP] = "mouse", [K_WHEEL_DOWN] = "mouse"};
    if (b->sym == K_CHAR && b->cp == ' ')
        snprintf(out, n, "Space");
    else if (b->sym == K_CHAR && b->ctrl)
        snprintf(out, n, "Ctrl-%c", (char)(b->cp - 'a' + 'A'));
    else if (b->sym == K_CHAR)
        snprintf(out, n, "%c", (char)b->cp);
    else
        snprintf(out, n, "%s%s", b->shift ? "Shift-" : "", sym[b->sym] ? sym[b->sym] : "?");
}

/* The keys a line binds, by name; with base, a shifted key by its key's name too. */
static void bound(const gt_keyline *l, keyset *s, int base)
{
    for (int i = 0; i < KEYS_BINDS && l->bind[i].sym != K_NONE; i++) {
        char name[24];
        bind_name(&l->bind[i], name, sizeof name);
        if (!has(s, name))
            snprintf(s->name[s->n++], sizeof s->name[0], "%s", name);
        if (base && !strncmp(name, "Shift-", 6) && !has(s, name + 6))
            snprintf(s->name[s->n++], sizeof s->name[0], "%s", name + 6);
    }
}

/* One word of a line's keys in the help box, or of a key's name, as a key's name ("↑" Up,
 * "^B" Ctrl-B, "S-Tab" Shift-Tab, "''" and "'a" ', "up" Up, "Dn" after "PgUp" PgDn). */
static void word_name(const char *w, const char *before, char *out, size_t n)
{
    static const char *const from[] = {"←", "→", "↑", "↓"};
    static const char *const to[] = {"Left", "Right", "Up", "Down"};
    for (int i = 0; i < 4; i++)
        if (!strncmp(w, "Shift-", 6) && !strcmp(w + 6, from[i])) {
            snprintf(out, n, "Shift-%s", to[i]);
            return;
        } else if (!strcmp(w, from[i])) {
            snprintf(out, n, "%s", to[i]);
            return;
        }
    if (w[0] == '^' && w[1] && !w[2])
        snprintf(out, n, "Ctrl-%c", w[1] >= 'a' && w[1] <= 'z' ? w[1] - 'a' + 'A' : w[1]);
    else if (!strcmp(w, "S-Tab"))
        snprintf(out, n, "Shift-Tab");
    else if (w[0] == '\'' && w[1] && !w[2])
        snprintf(out, n, "'");
    else if (!strcasecmp(w, "up") || !strcasecmp(w, "down"))
        snprintf(out, n, "%s", !strcasecmp(w, "up") ? "Up" : "Down");
    else if (!strcmp(w, "Dn") && before && !strcmp(before, "PgUp"))
        snprintf(out, n, "PgDn");
    else
        snprintf(out, n, "%s", w);
}

/* The keys a text names, its words split at blanks (and at / with slash), two arrows side
 * by side ("←→") each a word. */
static void text_keys(const char *text, int slash, keyset *s)
{
    char buf[512], spaced[512], prev[24] = "";
    size_t k = 0;
    for (const char *p = text; *p && k + 8 < sizeof spaced; p++) {
        if (!strncmp(p, "\xe2\x86", 2) && p[2]) { /* an arrow: a word of its own */
            spaced[k++] = ' ';
            memcpy(spaced + k, p, 3);
            k += 3;
            spaced[k++] = ' ';
            p += 2;
        } else
            spaced[k++] = slash && *p == '/' && p[1] ? ' ' : *p;
    }
    spaced[k] = 0;
    snprintf(buf, sizeof buf, "%s", spaced);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        char name[24];
        if (!strcmp(w, "Shift-") && (w = strtok(NULL, " "))) { /* "Shift- ↑": the arrow split */
            char whole[24];
            snprintf(whole, sizeof whole, "Shift-%s", w);
            word_name(whole, prev, name, sizeof name);
        } else
            word_name(w, prev, name, sizeof name);
        snprintf(prev, sizeof prev, "%s", name);
        if (!has(s, name))
            snprintf(s->name[s->n++], sizeof s->name[0], "%s", name);
    }
}

/* Every line of the help box lists exactly the keys it binds. */
static void check_lines(const gt_sheet *const *sheets, int n)
{
    const gt_keyline *l[256];
    int m = keys_help_lines(sheets, n, l, 256), bad = 0, lines = 0, hidden = 0;
    for (int i = 0; i < m; i++) {
        if (l[i]->doc_only) {
            printf("# \"%s\" is documented but left out of the help box\n", l[i]->keys);
            hidden++;
        }
        if (!l[i]->keys[0]) /* a line of what the screen shows */
            continue;
        keyset said = {0}, binds = {0};
        char miss[512];
        text_keys(l[i]->keys, 0, &said);
        bound(l[i], &binds, 0);
        lines++;
        if (!all_in(&said, &binds, miss, sizeof miss) || !all_in(&binds, &said, miss, sizeof miss)) {
            printf("# \"%s\": the help box and its bindings differ:%s\n", l[i]->keys, miss);
            bad++;
        }
    }
    tap_ok(lines > 40 && !bad, "the help box's %d lines of keys each list exactly the keys they bind",
           lines);
    tap_ok(!hidden, "the help box lists every key of the table (%d left out)", hidden);
}

/* name names only keys that the line taking its key (while `up` covers the panels) binds. */
static int name_bound(const gt_keyname *name, const gt_sheet *up, const gt_sheet *const *sheets,
                      int n, const char *where)
{
    const gt_keybind *b;
    gt_key k = {name->of.sym, name->of.cp, name->of.ctrl, name->of.shift, 0, 0};
    const gt_keyline *l = keys_line_for(up, sheets, n, &k, &b);
    keyset said = {0}, binds = {0};
    char miss[256] = " (no line takes it)";
    text_keys(name->text, 1, &said);
    if (name->ascii)
        text_keys(name->ascii, 1, &said);
    if (l)
        bound(l, &binds, 1);
    int ok = l && all_in(&said, &binds, miss, sizeof miss);
    if (!ok)
        printf("# %s: \"%s\"%s%s names keys its line does not bind:%s\n", where, name->text,
               name->ascii ? " / " : "", name->ascii ? name->ascii : "", miss);
    return ok;
}

/* A status line's hints: at least two, each naming keys its line binds where it shows,
 * ? then q last. */
static int check_hints(const gt_hint *const *h, int m, const gt_sheet *up,
                       const gt_sheet *const *sheets, int n, const char *where)
{
    int ok = m >= 2 && h[m - 2]->name == &keys_names[KN_HELP] &&
             h[m - 1]->name == &keys_names[KN_QUIT];
    for (int i = 0; i < m; i++)
        ok &= h[i]->name && h[i]->what && name_bound(h[i]->name, up, sheets, n, where);
    return ok;
}

static void check_contexts(const gt_sheet *const *sheets, int n)
{
    static const char *const name[HINT_COUNT] = {"the panels", "after an edit", "a selection"};
    for (int c = 0; c < HINT_COUNT; c++) {
        const gt_hint *h[KEYS_HINTS_MAX];
        int m = keys_panels_hints((gt_hintctx)c, sheets, n, h), places = 1;
        for (int i = 0; i < n; i++) /* the sheets' places, each taken once, within the line */
            for (int j = 0; j < n; j++) {
                int a = c == HINT_PANELS ? sheets[i]->panels_at : c == HINT_EDITED ? sheets[i]->edited_at : 0;
                int b = c == HINT_PANELS ? sheets[j]->panels_at : c == HINT_EDITED ? sheets[j]->edited_at : 0;
                places &= a <= m && (i == j || !a || a != b);
            }
        tap_ok(places && check_hints(h, m, NULL, sheets, n, name[c]),
               "%s: %d hints, the sheets' at their places, each naming keys its line binds, ? and q last",
               name[c], m);
    }
    for (int i = 0; i < n; i++) {
        int ok = sheets[i]->contexts && sheets[i]->contexts[0], lists = 0;
        for (int c = 0; ok && sheets[i]->contexts[c]; c++, lists++) {
            const gt_hint *h[KEYS_HINTS_MAX];
            int m = 0;
            for (const gt_hint *p = sheets[i]->contexts[c]; p->name && m < KEYS_HINTS_MAX; p++)
                h[m++] = p;
            ok &= check_hints(h, m, sheets[i], sheets, n, sheets[i]->name);
        }
        for (int k = 0; sheets[i]->names && sheets[i]->names[k]; k++)
            ok &= name_bound(sheets[i]->names[k], sheets[i], sheets, n, sheets[i]->name);
        if (sheets[i]->panels_hint)
            ok &= name_bound(sheets[i]->panels_hint->name, NULL, sheets, n, "the panels");
        tap_ok(ok, "%s: its %d status lines and its notes name keys their lines bind there, ? and q last",
               sheets[i]->name, lists);
    }
    int ok = 1;
    for (int k = 0; k < KN_COUNT; k++)
        ok &= name_bound(&keys_names[k], NULL, sheets, n, "the panels");
    tap_ok(ok, "the panels' %d names of keys (hints, notes) name keys their lines bind", KN_COUNT);
}

int main(void)
{
    const gt_sheet *const *sheets;
    int ns = sheets_all(&sheets);
    check_contexts(sheets, ns);
    check_lines(sheets, ns);
    const char *top = getenv("top_srcdir");
    top = top ? top : ".";
    keyset table = {0}, man = {0}, md = {0}, readme = {0};
    const gt_keyline *k[256];
    int n = keys_help_lines(sheets, ns, k, 256);
    for (int i = 0; i < n; i++) {
        char line[128];
        snprintf(line, sizeof line, "%s", k[i]->keys);
        add_words(&table, line);
    }
    tap_ok(table.n > 40, "the key table names %d keys", table.n);
    tap_ok(man_keys(top, &man) && md_keys(top, &md), "gatetui.1 and doc/screen.md have their keys");
    const keyset *from[4] = {&table, &table, &man, &md}, *into[4] = {&man, &md, &table, &table};
    const char *what[4] = {"every key of the table is in gatetui.1",
                           "every key of the table is in doc/screen.md",
                           "gatetui.1 documents no other key", "doc/screen.md documents no other key"};
    char rmiss[1024];
    int rok = readme_keys(top, &readme) && all_in(&table, &readme, rmiss, sizeof rmiss);
    tap_ok(rok, "every key of the table is in README.md's Keys%s%s", rok ? "" : "; not:", rmiss);
    for (int i = 0; i < 4; i++) {
        char miss[1024];
        int ok = all_in(from[i], into[i], miss, sizeof miss);
        tap_ok(ok, "%s%s%s", what[i], ok ? "" : i < 2 ? "; not:" : "; not in the table:", miss);
    }
    return tap_done();
}
