/* The status line (the keys that matter now, a prompt, a message or the background pass's
 * progress) and the help screen. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/keys_table.h"
#include "screen/panel.h"
#include "screen/draw_plot.h"

#define UP_HIST "Up: earlier"

/* The hints of context c that fit, in order (the last two always); [ ] only with more
 * than one layer. */
static void put_hints(gt_surface *s, int x, int y, int end, gt_hintctx c, const gt_view *v)
{
    const gt_keyhint *h[KEYS_HINTS_MAX];
    int n = keys_hints(c, h), u = s->utf8;
    const char *key[KEYS_HINTS_MAX], *what[KEYS_HINTS_MAX];
    for (int i = 0; i < n; i++) {
        key[i] = u || !h[i]->ascii ? h[i]->key : h[i]->ascii;
        what[i] = h[i]->on && v->ui->diff ? h[i]->on : h[i]->what;
    }
    for (int i = 0; i < n; i++) {
        if (v->m->layers == 1 && h[i]->layers)
            continue;
        int w = surf_width(key[i]) + 1 + surf_width(what[i]) + 2;
        /* keep room for the last two (help, quit) */
        int reserve = 0;
        if (i < n - 2)
            for (int k = n - 2; k < n; k++)
                reserve += surf_width(key[k]) + 1 + surf_width(what[k]) + 2;
        if (x + w + reserve > end)
            continue;
        x += surf_text(s, x, y, end - x, R_KEY, key[i]);
        x += surf_text(s, x, y, end - x, R_STATUS, " ");
        x += surf_text(s, x, y, end - x, R_STATUS, what[i]);
        x += surf_text(s, x, y, end - x, R_STATUS, "  ");
    }
}

/* what, a progress bar, the percentage and "Esc stops". */
static void progress_line(gt_surface *s, int x, int y, int end, const char *what, double done,
                          int stops)
{
    char buf[32];
    x += surf_text(s, x, y, end - x, R_NORMAL, what);
    int bw = end - x - 20 > 40 ? 40 : end - x - 20;
    if (bw > 4) {
        surf_text(s, x, y, 1, R_DIM, "[");
        plot_bar(s, x + 1, y, bw, done, R_PROGRESS);
        surf_text(s, x + 1 + bw, y, 1, R_DIM, "]");
        x += bw + 2;
    }
    snprintf(buf, sizeof buf, " %3.0f%%  ", 100.0 * done);
    x += surf_text(s, x, y, end - x, R_NORMAL, buf);
    if (!stops)
        return;
    x += surf_text(s, x, y, end - x, R_KEY, "Esc");
    surf_text(s, x, y, end - x, R_STATUS, " stops");
}

/* A prompt: its question, the line with the cursor where it is, and a hint. */
static void prompt_line(gt_surface *s, int x, int y, int end, const gt_view *v, const char *ask,
                        const char *tip)
{
    char before[VIEW_INPUT];
    size_t pos = v->ui->line.buf == v->ui->prompt && v->ui->line.pos <= strlen(v->ui->prompt) ? v->ui->line.pos
                                                                          : strlen(v->ui->prompt);
    snprintf(before, sizeof before, "%.*s", (int)pos, v->ui->prompt);
    x += surf_text(s, x, y, end - x, R_KEY, ask);
    x += surf_text(s, x, y, end - x, R_NORMAL, before);
    x += surf_text(s, x, y, end - x, R_CURSOR, v->ui->prompt[pos] ? "" : " ");
    if (v->ui->prompt[pos]) { /* the character under the cursor, shown as the cursor */
        char ch[8];
        size_t n = 1;
        while (((unsigned char)v->ui->prompt[pos + n] & 0xC0) == 0x80)
            n++;
        snprintf(ch, sizeof ch, "%.*s", (int)n, v->ui->prompt + pos);
        x += surf_text(s, x, y, end - x, R_CURSOR, ch);
        x += surf_text(s, x, y, end - x, R_NORMAL, v->ui->prompt + pos + n);
    }
    surf_text(s, x, y, end - x, R_DIM, tip);
}

/* Where the status line's hints are: the view over the panels, a selection being made
 * (over the panels or the derivative), the panels after an edit, or the panels. */
static gt_hintctx hint_context(const gt_view *v)
{
    switch (v->ui->overlay) {
    case OVERLAY_STATS: return view_stats_compares(v) ? HINT_MODELS : HINT_STATS;
    case OVERLAY_PROFILE: return HINT_PROFILE;
    case OVERLAY_UNITS: return HINT_UNITS;
    case OVERLAY_JACOBIAN:
    case OVERLAY_NONE: break;
    }
    if (v->find.selecting)
        return HINT_SELECT;
    if (v->ui->overlay == OVERLAY_JACOBIAN)
        return HINT_DERIV;
    return trace_edit_count(v->tr) ? HINT_EDITED : HINT_PANELS;
}

/* The prompt open, its question and its line; 0 when none is. */
static int prompt_status(gt_surface *s, int x, int y, int end, const gt_view *v)
{
    char buf[512], at[32];
    switch (v->ui->input) {
    case INPUT_GOTO:
        snprintf(buf, sizeof buf, "go to step (0-%s, N%%, end): ",
                 report_commas(v->steps - 1, at, sizeof at));
        prompt_line(s, x, y, end, v, buf, "   Enter goes, Esc cancels");
        return 1;
    case INPUT_UNIT:
        snprintf(buf, sizeof buf, "select unit (0-%d): ", v->m->hidden - 1);
        prompt_line(s, x, y, end, v, buf, "   Enter selects, Esc cancels");
        return 1;
    case INPUT_SEARCH:
        prompt_line(s, x, y, end, v, "search the text: ",
                    v->ui->search[0] ? "   Enter finds (empty: again), " UP_HIST ", Esc cancels"
                                 : "   Enter finds, lower case finds either, Esc cancels");
        return 1;
    case INPUT_MATCH:
        prompt_line(s, x, y, end, v, "match (regular expression): ",
                    "   Enter: every unit's r with it (empty: none), Esc cancels");
        return 1;
    case INPUT_EDIT:
    case INPUT_NEWLINE: {
        char ch[32];
        panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
        snprintf(buf, sizeof buf, "replace %s at step %s with: ", ch,
                 report_commas(v->t, at, sizeof at));
        x += surf_text(s, x, y, end - x, R_KEY, buf);
        x += surf_text(s, x, y, end - x, R_CURSOR, " ");
        const int asked = v->ui->input == INPUT_NEWLINE;
        surf_text(s, x, y, end - x, asked ? R_MSG : R_DIM,
                  asked ? "   Enter again puts a newline here, Esc cancels"
                        : "   type a character of the vocabulary, Esc cancels");
        return 1;
    }
    case INPUT_KEYS:
    case INPUT_HELP:
    case INPUT_ORDER:
    case INPUT_MARK:
    case INPUT_QUOTE: break;
    }
    return 0;
}

void panel_status(gt_surface *s, gt_rect r, const gt_view *v)
{
    int x = r.x + 1, y = r.y, end = r.x + r.w;
    char buf[512], at[32];
    if (prompt_status(s, x, y, end, v))
        return;
    if (v->pending) {
        snprintf(buf, sizeof buf, "computing the states%s up to step %s ",
                 v->stale ? " of the model as changed" : "",
                 report_commas(v->ui->t, at, sizeof at));
        progress_line(s, x, y, end, buf, v->pass_progress, !v->stale); /* stale: not stopped */
        return;
    }
    if (v->ui->msg[0]) {
        panel_line(s, x, y, end - x, v->ui->msg_error ? R_ERROR : R_MSG, v->ui->msg);
        return;
    }
    double done;
    const char *what = data_find_progress(&v->find, &done);
    if (what) {
        snprintf(buf, sizeof buf, "computing %s over the first %s steps ", what,
                 report_commas(v->find.steps < v->steps ? v->find.steps : v->steps, at, sizeof at));
        progress_line(s, x, y, end, buf, done, 1);
        return;
    }
    put_hints(s, x, y, end, hint_context(v), v);
}

/* The help's text in ASCII: arrows and signs by name. */
static void help_ascii(const char *in, char *out, size_t n)
{
    static const char *const from[] = {"←", "→", "↑", "↓", "½", "Δ", "▲", "×"};
    static const char *const to[] = {"Left", "Right", "Up", "Down", "1/2", "d", "^", "x"};
    size_t k = 0;
    while (*in && k + 8 < n) {
        int hit = 0;
        for (size_t i = 0; i < sizeof from / sizeof from[0] && !hit; i++) {
            size_t len = strlen(from[i]);
            if (strncmp(in, from[i], len) == 0) {
                k += (size_t)snprintf(out + k, n - k, "%s", to[i]);
                in += len;
                hit = 1;
            }
        }
        if (!hit)
            out[k++] = *in++;
    }
    out[k] = 0;
}

#define HELP_ROWS 128

/* One row of the help box: a key (or "" under it) and a piece of what it does. */
typedef struct help_row {
    const char *key;
    char text[160];
    int legend;       /* a line of what the screen shows, across the box */
} help_row;

/* Breaks text into pieces of at most w columns at spaces (a word wider than w is cut);
 * returns the number of pieces written into rows (at most max). */
static int wrap_into(help_row *rows, int max, const char *key, const char *text, int w,
                     int legend)
{
    int n = 0;
    const char *p = text;
    do {
        char line[160] = "";
        size_t len = 0;
        const char *q = p;
        while (*q) {
            const char *e = q;
            while (*e && *e != ' ')
                e++;
            char tmp[160];
            snprintf(tmp, sizeof tmp, "%s%s%.*s", line, len ? " " : "", (int)(e - q), q);
            if (len && surf_width(tmp) > w)
                break;
            snprintf(line, sizeof line, "%s", tmp);
            len = strlen(line);
            q = *e ? e + 1 : e;
        }
        if (n < max) {
            rows[n].key = n == 0 ? key : "";
            rows[n].legend = legend;
            snprintf(rows[n].text, sizeof rows[n].text, "%s", line);
        }
        n++;
        p = q;
    } while (*p && n < max);
    return n < max ? n : max;
}

/* The help box on a surface of w x h: its size, the first row of keys, how many rows show,
 * the key column's width and the rows (wrapped to the box). Returns the number of rows. */
static int help_layout(int u, int w, int h, int *bw, int *bh, int *top, int *shown, int *kw,
                       help_row *rows)
{
    const gt_keys_table *keys;
    int n = keys_help(&keys), ww = 0;
    *kw = 0;
    for (int i = 0; i < n; i++) {
        char kb[64], wb[160];
        if (keys[i].doc_only || !keys[i].keys) /* not in the box, or keys of a view */
            continue;
        help_ascii(keys[i].keys, kb, sizeof kb); /* the wider of the two forms */
        help_ascii(keys[i].what, wb, sizeof wb);
        int a = surf_width(kb), b = surf_width(wb);
        *kw = a > *kw ? a : *kw;
        ww = b > ww ? b : ww;
    }
    *bw = *kw + ww + 7 < w ? *kw + ww + 7 : w;
    int tw = *bw - *kw - 6 > 8 ? *bw - *kw - 6 : 8, nr = 0;
    for (int i = 0; i < n && nr < HELP_ROWS; i++) {
        char kb[64], wb[160];
        if (keys[i].doc_only || !keys[i].keys) /* not in the box, or keys of a view */
            continue;
        if (u) {
            snprintf(kb, sizeof kb, "%s", keys[i].keys);
            snprintf(wb, sizeof wb, "%s", keys[i].what);
        } else {
            help_ascii(keys[i].keys, kb, sizeof kb);
            help_ascii(keys[i].what, wb, sizeof wb);
        }
        int legend = !kb[0];
        nr += wrap_into(rows + nr, HELP_ROWS - nr, keys[i].keys, wb, legend ? *bw - 4 : tw,
                        legend);
    }
    *bh = nr + 4 < h ? nr + 4 : h;
    *top = *bh == nr + 4 ? 2 : 1; /* no blank row under the title when it does not fit */
    *shown = *bh - *top - 1 > 1 ? *bh - *top - 1 : 1;
    return nr;
}

int panel_help_scroll_max(int w, int h)
{
    help_row rows[HELP_ROWS];
    int bw, bh, top, shown, kw;
    int n = help_layout(1, w, h, &bw, &bh, &top, &shown, &kw, rows);
    return n > shown ? n - shown : 0;
}

void panel_help(gt_surface *s, int scroll)
{
    int u = s->utf8;
    help_row rows[HELP_ROWS];
    int bw, bh, top, shown, kw;
    int n = help_layout(u, s->w, s->h, &bw, &bh, &top, &shown, &kw, rows);
    int max = n > shown ? n - shown : 0;
    scroll = scroll < 0 ? 0 : scroll > max ? max : scroll;
    int x0 = (s->w - bw) / 2, y0 = (s->h - bh) / 2;
    gt_rect box = {x0, y0, bw, bh};
    surf_fill(s, box, R_NORMAL, " ");
    const char *h = u ? "─" : "-", *vb = u ? "│" : "|";
    for (int x = x0; x < x0 + bw; x++) {
        surf_put(s, x, y0, R_TITLE, h);
        surf_put(s, x, y0 + bh - 1, R_TITLE, h);
    }
    for (int y = y0; y < y0 + bh; y++) {
        surf_put(s, x0, y, R_TITLE, vb);
        surf_put(s, x0 + bw - 1, y, R_TITLE, vb);
    }
    surf_put(s, x0, y0, R_TITLE, u ? "┌" : "+");
    surf_put(s, x0 + bw - 1, y0, R_TITLE, u ? "┐" : "+");
    surf_put(s, x0, y0 + bh - 1, R_TITLE, u ? "└" : "+");
    surf_put(s, x0 + bw - 1, y0 + bh - 1, R_TITLE, u ? "┘" : "+");
    surf_text(s, x0 + 2, y0, bw - 4, R_TITLE, " gatetui keys ");
    if (max) { /* where the list is, at the bottom right */
        char more[48];
        snprintf(more, sizeof more, " %d-%d of %d, %s scroll ", scroll + 1, scroll + shown, n,
                 u ? "↑↓" : "Up/Down");
        int mw = surf_width(more);
        surf_text(s, x0 + bw - 2 - mw, y0 + bh - 1, mw, R_DIM, more);
    }
    for (int i = 0; i < shown && scroll + i < n; i++) {
        const help_row *r = &rows[scroll + i];
        int y = y0 + top + i;
        if (r->legend) {
            surf_text(s, x0 + 2, y, bw - 4, R_DIM, r->text);
            continue;
        }
        char kb[64];
        if (u)
            snprintf(kb, sizeof kb, "%s", r->key);
        else
            help_ascii(r->key, kb, sizeof kb);
        surf_text(s, x0 + 2, y, kw, R_KEY, kb);
        surf_text(s, x0 + 4 + kw, y, bw - kw - 6, R_NORMAL, r->text);
    }
}
