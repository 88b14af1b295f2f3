/* The keys documented against the screen's key table (keys_table.h): every key of the table
 * is in gatetui.1's KEYS and in doc/screen.md's table of keys, and neither documents a key
 * that is not in the table. Keys are compared by name: arrows, Ctrl-X, Shift-X as words.
 * And the status line's hints in the table: each context's places taken once each, from 1
 * with none left out, help and quit last. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/keys_table.h"
#include "tap.h"

#define MAXKEYS 256

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
    if (!has(s, out) && s->n < MAXKEYS)
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

/* Context c's hints: every place 1..n taken by one hint, ? then q last. */
static void check_hints(gt_hintctx c)
{
    static const char *const name[HINT_COUNT] = {"the panels", "after an edit", "the report",
                                                 "the profile", "a selection", "the derivative"};
    const gt_keys_table *k;
    int n = keys_help(&k), taken[KEYS_HINTS_MAX + 1] = {0}, most = 0, ok = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < KEYS_HINTS; j++) {
            int at = k[i].hint[j].at[c];
            ok = ok && at <= KEYS_HINTS_MAX && (!at || k[i].hint[j].key);
            if (at > 0 && at <= KEYS_HINTS_MAX) {
                taken[at]++;
                most = at > most ? at : most;
            }
        }
    for (int i = 1; i <= most; i++)
        ok = ok && taken[i] == 1;
    const gt_keyhint *h[KEYS_HINTS_MAX];
    int m = keys_hints(c, h);
    ok = ok && m == most && m >= 2 && strcmp(h[m - 2]->key, "?") == 0 &&
         strcmp(h[m - 1]->key, "q") == 0;
    tap_ok(ok, "%s: %d hints, each place taken once, ? and q last", name[c], m);
}

int main(void)
{
    for (int c = 0; c < HINT_COUNT; c++)
        check_hints((gt_hintctx)c);
    const char *top = getenv("top_srcdir");
    top = top ? top : ".";
    keyset table = {0}, man = {0}, md = {0}, readme = {0};
    const gt_keys_table *k;
    int n = keys_help(&k);
    for (int i = 0; i < n; i++) {
        char line[128];
        if (!k[i].keys) /* the keys of another line, in a view over the panels */
            continue;
        snprintf(line, sizeof line, "%s", k[i].keys);
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
