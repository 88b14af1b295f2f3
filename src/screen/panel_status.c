/* The status line: the keys that matter now (their hints from the key table, keys_table.h),
 * a prompt, a message or the progress of a computation. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/keys_table.h"
#include "screen/keys_word.h"
#include "screen/panel_status.h"
#include "screen/panel_frame.h"
#include "screen/draw_plot.h"

#define UP_HIST "Up: earlier"

/* The hints of where the screen is that fit, in order (the last two always); [ ] only with
 * more than one layer. */
static void put_hints(gt_surface *s, int x, int y, int end, const gt_view *v)
{
    const gt_hint *h[KEYS_HINTS_MAX];
    int n = keys_hints(v, h), u = s->utf8;
    const char *key[KEYS_HINTS_MAX], *what[KEYS_HINTS_MAX];
    for (int i = 0; i < n; i++) {
        key[i] = keys_name_text(h[i]->name, u);
        what[i] = h[i]->on && v->ui->diff ? h[i]->on : h[i]->what;
    }
    for (int i = 0; i < n; i++) {
        if (v->m->layers == 1 && h[i]->name->layers)
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

/* A class's delta and its interval, bits ("+0.0283 [+0.0201, +0.0365]"; tight: without the
 * spaces), or "none" where no position is of it. */
static void delta_text(char *buf, size_t n, const gt_effect_class *c, int tight)
{
    if (!c->count || c->delta != c->delta)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, tight ? "%+.4f [%+.4f,%+.4f]" : "%+.4f [%+.4f, %+.4f]", c->delta,
                 c->ci_lo, c->ci_hi);
}

/* With a hypothesis and an intervention: delta inside and outside with their 95% intervals
 * (data_effect.h) — while it computes, over the windows complete so far, saying how many —
 * or its progress, then the key of its sheet; returns x after it. The words shorten where
 * the line is narrow. */
static int effect_status(gt_surface *s, int x, int y, int end, const gt_view *v)
{
    const gt_data_effect *d = &v->effect;
    if (!data_effect_on(d))
        return x;
    char buf[320], a[64], b[64];
    const char *delta = s->utf8 ? "Δ" : "delta";
    const int known = d->state == EFFECT_KNOWN;
    if (known || (d->state == EFFECT_COMPUTING && d->part_done)) { /* the result, or so far */
        char wide[64] = "", tight[32] = "";
        if (!known) {
            snprintf(wide, sizeof wide, "(%zu of %zu windows) ", d->part_done, d->part_windows);
            snprintf(tight, sizeof tight, "(%zu/%zu) ", d->part_done, d->part_windows);
        }
        for (int t = 0; t < 2; t++) {
            delta_text(a, sizeof a, known ? &d->in : &d->part_in, t);
            delta_text(b, sizeof b, known ? &d->out : &d->part_out, t);
            snprintf(buf, sizeof buf, t ? "%s in %s out %s %s" : "%s inside %s  outside %s bits %s",
                     delta, a, b, t ? tight : wide);
            if (x + surf_width(buf) + 16 <= end) /* help and quit beside it */
                break;
        }
    } else if (d->state == EFFECT_COMPUTING) {
        snprintf(buf, sizeof buf, "%s: computing the effect %.0f%% ", delta,
                 100.0 * data_effect_progress(d));
    } else {
        snprintf(buf, sizeof buf, "%s: %s ", delta,
                 d->state == EFFECT_STOPPED ? "the effect stopped" : d->error);
    }
    x += surf_text(s, x, y, end - x, d->state == EFFECT_FAILED ? R_ERROR : R_NORMAL, buf);
    x += surf_text(s, x, y, end - x, R_KEY, keys_names[KN_EFFECT].text);
    return x + surf_text(s, x, y, end - x, R_STATUS, " table  ");
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
    if (end - x > 3) /* the hint in whole parts (panel_line: " …" after the last that fits) */
        panel_line(s, x, y, end - x, R_DIM, tip);
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
        snprintf(buf, sizeof buf, "select unit (0-%d): ", model_width(v->m, v->layer) - 1);
        prompt_line(s, x, y, end, v, buf, "   Enter selects, Esc cancels");
        return 1;
    case INPUT_SEARCH:
        prompt_line(s, x, y, end, v, "search the text: ",
                    v->ui->search[0] ? "   Enter finds (empty: again), " UP_HIST ", Esc cancels"
                                 : "   Enter finds, lower case finds either, Esc cancels");
        return 1;
    case INPUT_MATCH:
        prompt_line(s, x, y, end, v, "match (regular expression): ",
                    "   Enter: every unit's r with it, Esc cancels, empty: none");
        return 1;
    case INPUT_EDIT:
    case INPUT_NEWLINE: {
        char ch[32];
        panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
        if (v->m->words) { /* a token typed at the prompt: what begins so */
            char tip[240], c[160];
            keys_word_candidates(v, v->ui->prompt, c, sizeof c);
            snprintf(buf, sizeof buf, "replace %s at step %s with: ", ch,
                     report_commas(v->t, at, sizeof at));
            snprintf(tip, sizeof tip, "   %s; Tab completes, Enter replaces, Esc cancels", c);
            prompt_line(s, x, y, end, v, buf, tip);
            return 1;
        }
        snprintf(buf, sizeof buf, "replace %s at step %s with: ", ch,
                 report_commas(v->t, at, sizeof at));
        x += surf_text(s, x, y, end - x, R_KEY, buf);
        x += surf_text(s, x, y, end - x, R_CURSOR, " ");
        const int asked = v->ui->input == INPUT_NEWLINE;
        if (end - x > 3)
            panel_line(s, x, y, end - x, asked ? R_MSG : R_DIM,
                       asked ? "   Enter again puts a newline here, Esc cancels"
                             : "   a character of the vocabulary, Esc cancels");
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
    x = effect_status(s, x, y, end, v);
    put_hints(s, x, y, end, v);
}
