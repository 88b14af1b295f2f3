/* The prompts' line editing and history (see prompt.h). */
#include "config.h"

#include <string.h>

#include "gatetui/utf8.h"
#include "screen/key.h"
#include "screen/prompt.h"

void prompt_start(gt_promptline *p, char *buf, gt_history *h)
{
    buf[0] = 0;
    p->buf = buf;
    p->pos = 0;
    p->hist = h;
    p->at = h ? h->n : 0;
    p->typed[0] = 0;
}

void prompt_remember(gt_history *h, const char *line)
{
    if (!line[0] || (h->n && strcmp(h->line[h->n - 1], line) == 0))
        return;
    if (h->n == PROMPT_HISTORY) {
        memmove(h->line[0], h->line[1], sizeof h->line[0] * (PROMPT_HISTORY - 1));
        h->n--;
    }
    size_t n = strlen(line) < PROMPT_LINE - 1 ? strlen(line) : PROMPT_LINE - 1;
    memcpy(h->line[h->n], line, n);
    h->line[h->n++][n] = 0;
}

static int cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

static size_t prev_char(const char *b, size_t pos)
{
    while (pos > 0 && cont(b[--pos]))
        ;
    return pos;
}

static size_t next_char(const char *b, size_t pos)
{
    if (!b[pos])
        return pos;
    pos++;
    while (b[pos] && cont(b[pos]))
        pos++;
    return pos;
}

/* Removes bytes [a, b) of the line; the cursor at a. */
static void cut(gt_promptline *p, size_t a, size_t b)
{
    memmove(p->buf + a, p->buf + b, strlen(p->buf + b) + 1);
    p->pos = a;
}

static void insert(gt_promptline *p, uint32_t cp)
{
    char u[8];
    int n = utf8_encode(cp, u);
    size_t len = strlen(p->buf);
    if (n <= 0 || len + (size_t)n >= PROMPT_LINE)
        return;
    memmove(p->buf + p->pos + n, p->buf + p->pos, len - p->pos + 1);
    memcpy(p->buf + p->pos, u, (size_t)n);
    p->pos += (size_t)n;
}

/* Shows history line `at` (hist->n: the line that was being typed). */
static void recall(gt_promptline *p, int at)
{
    if (!p->hist || at < 0 || at > p->hist->n || at == p->at)
        return;
    if (p->at == p->hist->n)
        memcpy(p->typed, p->buf, PROMPT_LINE);
    memcpy(p->buf, at == p->hist->n ? p->typed : p->hist->line[at], PROMPT_LINE);
    p->at = at;
    p->pos = strlen(p->buf);
}

int prompt_edit(gt_promptline *p, const gt_key *k)
{
    char *b = p->buf;
    switch (k->sym) {
    case K_LEFT: p->pos = prev_char(b, p->pos); return 1;
    case K_RIGHT: p->pos = next_char(b, p->pos); return 1;
    case K_HOME: p->pos = 0; return 1;
    case K_END: p->pos = strlen(b); return 1;
    case K_UP: recall(p, p->at - 1); return 1;
    case K_DOWN: recall(p, p->at + 1); return 1;
    case K_BACKSPACE:
        if (p->pos > 0)
            cut(p, prev_char(b, p->pos), p->pos);
        return 1;
    case K_CHAR: break;
    default: return 0;
    }
    if (!k->ctrl) {
        insert(p, k->cp);
        return 1;
    }
    switch (k->cp) {
    case 'a': p->pos = 0; return 1;
    case 'e': p->pos = strlen(b); return 1;
    case 'b': p->pos = prev_char(b, p->pos); return 1;
    case 'f': p->pos = next_char(b, p->pos); return 1;
    case 'u': cut(p, 0, p->pos); return 1;
    case 'k': b[p->pos] = 0; return 1;
    case 'h':
        if (p->pos > 0)
            cut(p, prev_char(b, p->pos), p->pos);
        return 1;
    case 'w': { /* the word before the cursor, and the spaces after it */
        size_t a = p->pos;
        while (a > 0 && b[a - 1] == ' ')
            a--;
        while (a > 0 && b[a - 1] != ' ')
            a--;
        cut(p, a, p->pos);
        return 1;
    }
    default: return 0;
    }
}
