/* The prompts' line: editing as a shell does (the cursor moved by the arrows, Home and End,
 * Ctrl-A and Ctrl-E; Backspace, Ctrl-U, Ctrl-W, Ctrl-K) and a history of what was entered
 * in each kind of prompt (the up and down arrows). Changes only the line it is given. */
#ifndef GATETUI_PROMPT_H
#define GATETUI_PROMPT_H

#include <stddef.h>

struct gt_key;

#define PROMPT_LINE 256
#define PROMPT_HISTORY 32

typedef struct gt_history {
    char line[PROMPT_HISTORY][PROMPT_LINE]; /* oldest first */
    int n;
} gt_history;

typedef struct gt_promptline {
    char *buf;          /* the line, NUL-terminated, PROMPT_LINE bytes */
    size_t pos;         /* the cursor's byte offset */
    gt_history *hist;   /* NULL: none */
    int at;             /* the history line shown (hist->n: the line being typed) */
    char typed[PROMPT_LINE]; /* the line being typed while the history is shown */
} gt_promptline;

/* Starts an empty line over buf with history h (may be NULL). */
void prompt_start(gt_promptline *p, char *buf, gt_history *h);
/* The key's edit of the line: 1 when it was one (the line may be unchanged), 0 otherwise. */
int prompt_edit(gt_promptline *p, const struct gt_key *k);
/* Adds line to h (not an empty one, nor the same as the last). */
void prompt_remember(gt_history *h, const char *line);

#endif
