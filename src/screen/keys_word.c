/* A word model's edit at a prompt (see keys_word.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/report.h"
#include "gatetui/utf8.h"
#include "screen/keys_word.h"

/* The bytes that every one of the count tokens from word_sorted[first] begins with. */
static size_t common(const gt_model *m, int first, int count)
{
    const int t0 = m->word_sorted[first];
    size_t n = m->vocab_len[t0];
    for (int i = 1; i < count; i++) {
        const int t = m->word_sorted[first + i];
        size_t k = 0;
        while (k < n && k < m->vocab_len[t] && m->vocab_word[t][k] == m->vocab_word[t0][k])
            k++;
        n = k;
    }
    while (n > 0 && ((unsigned char)m->vocab_word[t0][n] & 0xC0) == 0x80 &&
           n < m->vocab_len[t0])
        n--; /* not inside a character */
    return n;
}

int keys_word_complete(gt_view *v)
{
    const gt_model *m = v->m;
    char *line = v->ui->prompt;
    int first;
    const int count = model_word_prefix(m, line, strlen(line), &first);
    if (!count)
        return 0;
    const size_t n = common(m, first, count);
    if (n >= PROMPT_LINE)
        return 1;
    memcpy(line, m->vocab_word[m->word_sorted[first]], n);
    line[n] = 0;
    v->ui->line.pos = n;
    return 1;
}

int keys_word_token(gt_view *v, const char *line)
{
    char shown[80];
    if (!line[0]) {
        view_say(v, 0, "no token typed; nothing changed");
        return -1;
    }
    const int tok = model_word_token(v->m, line, strlen(line));
    if (tok < 0)
        view_say(v, 1, "\"%s\" is not in the vocabulary; nothing changed",
                 utf8_printable(shown, sizeof shown, line));
    return tok;
}

void keys_word_candidates(const gt_view *v, const char *line, char *buf, size_t n)
{
    const gt_model *m = v->m;
    int first;
    const int count = model_word_prefix(m, line, strlen(line), &first);
    char c[32];
    size_t k = (size_t)snprintf(buf, n, "%s token%s", report_commas((size_t)count, c, sizeof c),
                                count == 1 ? "" : "s");
    for (int i = 0; i < count && i < 4 && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%.24s", i ? ", " : ": ",
                              m->vocab_word[m->word_sorted[first + i]]);
    if (count > 4 && k < n)
        snprintf(buf + k, n - k, ", ...");
}
