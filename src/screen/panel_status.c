/* The status line (the keys that matter now, a prompt, a message or the background pass's
 * progress) and the help screen. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen/panel.h"
#include "screen/plot.h"

typedef struct hint {
    const char *key, *what;
} hint;

static int put_hints(gt_surface *s, int x, int y, int end, const hint *h, int n)
{
    for (int i = 0; i < n; i++) {
        int w = surf_width(h[i].key) + 1 + surf_width(h[i].what) + 2;
        /* keep room for the last two (help, quit) */
        int reserve = 0;
        if (i < n - 2)
            for (int k = n - 2; k < n; k++)
                reserve += surf_width(h[k].key) + 1 + surf_width(h[k].what) + 2;
        if (x + w + reserve > end)
            continue;
        x += surf_text(s, x, y, end - x, R_KEY, h[i].key);
        x += surf_text(s, x, y, end - x, R_STATUS, " ");
        x += surf_text(s, x, y, end - x, R_STATUS, h[i].what);
        x += surf_text(s, x, y, end - x, R_STATUS, "  ");
    }
    return x;
}

/* what, a progress bar, the percentage and "Esc stops". */
static void progress_line(gt_surface *s, int x, int y, int end, const char *what, double done)
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
    x += surf_text(s, x, y, end - x, R_KEY, "Esc");
    surf_text(s, x, y, end - x, R_STATUS, " stops");
}

void panel_status(gt_surface *s, gt_rect r, const gt_view *v)
{
    int x = r.x + 1, y = r.y, end = r.x + r.w;
    char buf[512];
    const char *cursor = s->utf8 ? "█" : "_";
    switch (v->prompt) {
    case PROMPT_GOTO:
        snprintf(buf, sizeof buf, "go to step (0-%zu, N%%, end): ", v->steps - 1);
        x += surf_text(s, x, y, end - x, R_KEY, buf);
        x += surf_text(s, x, y, end - x, R_NORMAL, v->input);
        x += surf_text(s, x, y, end - x, R_NORMAL, cursor);
        surf_text(s, x, y, end - x, R_DIM, "   Enter goes, Esc cancels");
        return;
    case PROMPT_SEARCH:
        x += surf_text(s, x, y, end - x, R_KEY, "search the text: ");
        x += surf_text(s, x, y, end - x, R_NORMAL, v->input);
        x += surf_text(s, x, y, end - x, R_NORMAL, cursor);
        surf_text(s, x, y, end - x, R_DIM, v->search[0] ? "   Enter finds (empty: again), Esc cancels"
                                                        : "   Enter finds, Esc cancels");
        return;
    case PROMPT_MATCH:
        x += surf_text(s, x, y, end - x, R_KEY, "match (regular expression): ");
        x += surf_text(s, x, y, end - x, R_NORMAL, v->input);
        x += surf_text(s, x, y, end - x, R_NORMAL, cursor);
        surf_text(s, x, y, end - x, R_DIM, "   Enter: every unit's r with it (empty: none), Esc cancels");
        return;
    case PROMPT_EDIT: {
        char ch[32];
        panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
        snprintf(buf, sizeof buf, "replace %s at step %zu with: ", ch, v->t);
        x += surf_text(s, x, y, end - x, R_KEY, buf);
        x += surf_text(s, x, y, end - x, R_NORMAL, cursor);
        surf_text(s, x, y, end - x, R_DIM, "   type a character of the vocabulary, Esc cancels");
        return;
    }
    case PROMPT_NONE: break;
    }
    if (v->pending) {
        snprintf(buf, sizeof buf, "computing the states up to step %zu ", v->pending_step);
        progress_line(s, x, y, end, buf, v->pass_progress);
        return;
    }
    if (v->msg[0]) {
        surf_text(s, x, y, end - x, v->msg_error ? R_ERROR : R_MSG, v->msg);
        return;
    }
    double done;
    const char *what = findview_progress(&v->find, &done);
    if (what) {
        snprintf(buf, sizeof buf, "computing %s over the first %zu steps ", what,
                 v->find.steps < v->steps ? v->find.steps : v->steps);
        progress_line(s, x, y, end, buf, done);
        return;
    }
    int u = s->utf8;
    if (v->stats.shown) {
        const hint sh[] = {
            {u ? "↑↓" : "j/k", "scroll"}, {"PgUp/Dn", "page"}, {"[ ]", "layer"},
            {u ? "←→" : "h/l", "step"},   {"r Esc", "close"}, {"?", "help"},
            {"q", "quit"},
        };
        put_hints(s, x, y, end, sh, (int)(sizeof sh / sizeof sh[0]));
        return;
    }
    if (v->find.prof_shown) {
        const hint ph[] = {
            {u ? "↑↓" : "j/k", "scroll"}, {"PgUp/Dn", "page"}, {";", "signal"},
            {"p Esc", "close"},           {"?", "help"},      {"q", "quit"},
        };
        put_hints(s, x, y, end, ph, (int)(sizeof ph / sizeof ph[0]));
        return;
    }
    if (v->find.selecting) {
        const hint vh[] = {
            {u ? "←→" : "h/l", "extend"}, {"PgUp/Dn", "page"}, {"v", "select"},
            {"Esc", "cancel"},            {"?", "help"},      {"q", "quit"},
        };
        put_hints(s, x, y, end, vh, (int)(sizeof vh / sizeof vh[0]));
        return;
    }
    if (v->jac.shown) {
        const hint jh[] = {
            {u ? "←→" : "h/l", "step"}, {u ? "↑↓" : "j/k", "unit"}, {"+/-", "K"},
            {"[ ]", "layer"},           {"D Esc", "close"},        {"?", "help"},
            {"q", "quit"},
        };
        put_hints(s, x, y, end, jh, (int)(sizeof jh / sizeof jh[0]));
        return;
    }
    if (trace_edit_count(v->tr)) { /* the keys of an edit first */
        const hint eh[] = {
            {u ? "←→" : "h/l", "step"}, {"e", "edit"},        {"u", "undo"},
            {"+/-", "K"},               {"d", v->diff ? "values" : "difference"},
            {"w", "write text"},        {"[ ]", "layer"},     {"r", "report"},
            {"x", "export"},            {"?", "help"},        {"q", "quit"},
        };
        put_hints(s, x, y, end, eh, (int)(sizeof eh / sizeof eh[0]));
        return;
    }
    const hint hints[] = {
        {u ? "←→" : "h/l", "step"},   {"PgUp/Dn", "page"},    {u ? "↑↓" : "j/k", "unit"},
        {"s", "sort"},                {"[ ]", "layer"},       {"e", "edit"},
        {"u", "undo"},                {"g", "go to"},         {"/", "search"},
        {"r", "report"},              {"x", "export"},        {"c", "colour"},
        {"m", "match"},               {"v", "select"},        {"p", "profile"},
        {"D", "derivative"},          {"?", "help"},          {"q", "quit"},
    };
    put_hints(s, x, y, end, hints, (int)(sizeof hints / sizeof hints[0]));
}

void panel_help(gt_surface *s)
{
    int u = s->utf8;
    const hint keys[] = {
        {u ? "← → h l" : "Left Right h l", "step one character back, forward"},
        {"PgUp PgDn ^B ^F", "a page of text back, forward"},
        {"Home End 0 $", "the first, the last step"},
        {u ? "↑ ↓ k j" : "Up Down k j", "select the unit above, below"},
        {"K J", "a page of units up, down"},
        {"s S", "sort units: index, carry gate, half-life, |c|, change, |r|; reverse"},
        {"[ ]", "the layer below, above"},
        {"c", "colour the text by the selected unit's value"},
        {"g", "go to a step (a number, N%, end)"},
        {"/ n N", "search the text; the next, previous hit of a search, m or v"},
        {"m v", "match a regular expression (r of every unit); select a stretch"},
        {"p ; , .", "the unit's profile; the signal of r, v, p; v's threshold -/+"},
        {"e", "edit the character under the cursor (then type it)"},
        {"u", "undo the last edit"},
        {"+ -", "perturbation horizon K: double, halve (4-1024)"},
        {"d", "gate bars and unit: edited - before the last edit, or values"},
        {"w", "write the edited text to a new file here"},
        {"r", "report tables of the text (r or Esc closes, arrows scroll)"},
        {"D", "dc_T/dc_(T-k) against the carry line at the cursor (+ - its K, D Esc close)"},
        {"x", "export this frame to a text file"},
        {"Tab S-Tab", "several models: the next, previous one (same step, edits)"},
        {"Esc", "cancel a prompt or a selection, stop a computation"},
        {"?", "this help (any key closes it)"},
        {"q", "quit"},
    };
    int n = (int)(sizeof keys / sizeof keys[0]);
    int kw = 0, ww = 0;
    for (int i = 0; i < n; i++) {
        int a = surf_width(keys[i].key), b = surf_width(keys[i].what);
        kw = a > kw ? a : kw;
        ww = b > ww ? b : ww;
    }
    int bw = kw + ww + 7, bh = n + 4, top = 2; /* the first key's row in the box */
    if (bw > s->w)
        bw = s->w;
    if (bh > s->h) { /* no blank row under the title */
        bh = n + 3 > s->h ? s->h : n + 3;
        top = 1;
    }
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
    for (int i = 0; i < n && top + i < bh - 1; i++) {
        surf_text(s, x0 + 2, y0 + top + i, kw, R_KEY, keys[i].key);
        surf_text(s, x0 + 4 + kw, y0 + top + i, bw - kw - 6, R_NORMAL, keys[i].what);
    }
}
