/* The screen's keys as one table: each line's keys and what they do. The help box (?) is
 * drawn from it, and tests/t_keydoc holds gatetui.1's KEYS and doc/screen.md's Keys to it
 * (every key in the table is in both, and they document no other). */
#ifndef GATETUI_KEYHELP_H
#define GATETUI_KEYHELP_H

typedef struct gt_keyhelp {
    const char *keys; /* as the help box shows them ("^B" for Ctrl-B); "": a line of what the
                       * screen shows */
    const char *what;
    int doc_only;     /* documented, not listed in the help box */
} gt_keyhelp;

/* The table (*out) and its number of lines. */
int keys_help(const gt_keyhelp **out);

#endif
