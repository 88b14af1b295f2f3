/* The keys that find units (see keys_find.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "screen/keys_find.h"

static void say(gt_view *v, int error, const char *text)
{
    snprintf(v->ui->msg, sizeof v->ui->msg, "%.250s", text);
    v->ui->msg_error = error;
}

static void select_key(gt_view *v)
{
    gt_data_find *f = &v->find;
    if (v->pending) {
        say(v, 1, "wait for the states to be computed (Esc stops)");
        return;
    }
    if (!f->selecting) {
        f->selecting = 1;
        f->anchor = v->t;
        say(v, 0, "select: move the cursor to the other end, v ends, Esc cancels");
        return;
    }
    f->selecting = 0;
    size_t n = f->steps < v->steps ? f->steps : v->steps;
    size_t a = f->anchor < v->t ? f->anchor : v->t, b = f->anchor < v->t ? v->t : f->anchor;
    char sa[32], sb[32], sn[32];
    if (b >= n) {
        snprintf(v->ui->msg, sizeof v->ui->msg, "steps %s-%s: past the %s steps searched (--steps N)",
                 report_commas(a, sa, sizeof sa), report_commas(b, sb, sizeof sb),
                 report_commas(n, sn, sizeof sn));
        v->ui->msg_error = 1;
        return;
    }
    data_find_select(f, a, b, v->layer);
    snprintf(v->ui->msg, sizeof v->ui->msg, "selecting the units of steps %s-%s (%s >= %.2f)",
             report_commas(a, sa, sizeof sa), report_commas(b, sb, sizeof sb),
             data_find_signal_name(f), f->threshold);
    v->ui->msg_error = 0;
}

/* ;: the next signal, and the hypothesis's best unit under it (every signal's r is known
 * with the hypothesis). */
static void next_signal(gt_view *v)
{
    gt_data_find *f = &v->find;
    data_find_next_signal(f, v->layer, v->unit);
    int best = -1;
    for (int u = 0; data_find_has_r(f, v->layer) && u < model_width(v->m, v->layer); u++) {
        const double r = data_find_r(f, u);
        if (!isnan(r) && (best < 0 || fabs(r) > fabs(data_find_r(f, best))))
            best = u;
    }
    if (best >= 0) /* what is new first: a narrow status line keeps it */
        snprintf(v->ui->msg, sizeof v->ui->msg,
                 "signal %s: the best unit for \"%.60s\" now %d, r = %+.3f (r, the selection "
                 "and the profile follow the signal)", data_find_signal_name(f), f->regex, best,
                 data_find_r(f, best));
    else
        snprintf(v->ui->msg, sizeof v->ui->msg, "signal %s for r, the selection and the profile",
                 data_find_signal_name(f));
    v->ui->msg_error = 0;
}

gt_act keys_find_key(gt_view *v, int what)
{
    gt_data_find *f = &v->find;
    switch (what) {
    case FIND_KEY_MATCH:
        v->ui->input = INPUT_MATCH;
        snprintf(v->ui->prompt, sizeof v->ui->prompt, "%s", f->regex);
        break;
    case FIND_KEY_SELECT: select_key(v); break;
    case FIND_KEY_SIGNAL: next_signal(v); break;
    default: /* the threshold down or up */
        data_find_change_threshold(f, what == FIND_KEY_HIGHER ? 1 : -1, v->layer);
        snprintf(v->ui->msg, sizeof v->ui->msg, "selection threshold %.2f", f->threshold);
        v->ui->msg_error = 0;
        break;
    }
    return ACT_REDRAW;
}

void keys_find_enter(gt_view *v)
{
    gt_data_find *f = &v->find;
    gt_error e = {0};
    if (!v->ui->prompt[0] && !f->regex[0])
        return;
    if (data_find_set_regex(f, v->ui->prompt, v->layer, &e)) {
        say(v, 1, e.msg);
        return;
    }
    if (!v->ui->prompt[0]) {
        say(v, 0, "no hypothesis: the r column is gone");
        if (v->ui->sort == SORT_R)
            v->ui->sort = SORT_INDEX;
        return;
    }
    snprintf(v->ui->msg, sizeof v->ui->msg, "matching \"%.100s\" and every unit's r with it...", f->regex);
    v->ui->msg_error = 0;
}

int keys_find_jump(gt_view *v, int dir)
{
    gt_data_find *f = &v->find;
    size_t to, from = v->ui->t, i = 0, n = 0;
    int wrapped, rc = data_find_jump(f, from, dir, &to, &wrapped, &i, &n);
    if (rc == 0)
        return 0;
    const int match = f->last == FIND_LAST_MATCH;
    if (rc < 0) {
        say(v, 1, match ? "the hypothesis has no match" : "the selection has no match");
        return 1;
    }
    view_seek(v, to);
    char si[32], sn[32], msg[160];
    snprintf(msg, sizeof msg, "%s %s of %s%s", match ? "match" : "stretch",
             report_commas(i + 1, si, sizeof si), report_commas(n, sn, sizeof sn),
             !wrapped ? "" : dir > 0 ? " (from the end: the first)" : " (from the start: the last)");
    say(v, 0, msg);
    return 1;
}

int keys_find_escape(gt_view *v)
{
    gt_data_find *f = &v->find;
    if (f->selecting) {
        f->selecting = 0;
        say(v, 0, "selection cancelled");
        return 1;
    }
    if (data_find_busy(f)) {
        data_find_cancel(f);
        say(v, 0, "stopped");
        return 1;
    }
    return 0;
}

gt_sort keys_find_next_sort(const gt_view *v)
{
    if (v->ui->sort == SORT_R)
        return SORT_INDEX;
    if (v->ui->sort == SORT_COUNT - 1 && data_find_has_r(&v->find, v->layer))
        return SORT_R;
    gt_sort next = (gt_sort)((v->ui->sort + 1) % SORT_COUNT);
    if (v->m->cell->carry < 0 && (next == SORT_CARRY || next == SORT_MEAN))
        next = SORT_ABSC; /* a plain RNN has no carry gate to sort by */
    return next;
}
