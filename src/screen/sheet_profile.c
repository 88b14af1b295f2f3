/* A unit's profile's sheet (p; doc/screen.md, "Finding units"): the selected unit's profile
 * (doc/measures.md, "A unit's profile"), the text of gatetui --profile, over the panels
 * below the text strip, scrolled by its keys; Enter goes to the step of its first step row
 * shown. A child process computes it for the model shown (data_find.h), its progress shown
 * meanwhile. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/report.h"
#include "gatetui/signals.h"
#include "screen/draw_plot.h"
#include "screen/panel_frame.h"
#include "screen/sheet_profile.h"

/* How its notes and hints name its keys. */
static const gt_keyname scroll_hint = {KB_SYM(K_UP, 0), "↑↓", "j/k", 0};
static const gt_keyname scroll_note = {KB_SYM(K_UP, 0), "↑↓", "up/down", 0};
static const gt_keyname page_name = {KB_SYM(K_PGUP, 0), "PgUp/Dn", NULL, 0};
static const gt_keyname enter_name = {KB_SYM(K_ENTER, 0), "Enter", NULL, 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "p Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('p', 0), "p", NULL, 0};

gt_profile_data *sheet_profile_data(const gt_view *v)
{
    return sheet_data(v, &sheet_profile);
}

/* The profile of the unit and layer shown asked for (show) or ended, from its first line. */
static void want(gt_view *v, int show)
{
    sheet_profile_data(v)->scroll = 0;
    data_find_profile(&v->find, v->unit, v->layer, show);
}

/* ---- the keys ---- */

static gt_act profile_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_profile);
    return ACT_REDRAW;
}

/* Scrolled by d lines (KEYS_PAGE: a page). */
static gt_act profile_scroll(gt_view *v, int d)
{
    gt_profile_data *p = sheet_profile_data(v);
    p->scroll = sheet_text_scroll(p->scroll, d, v->lay.r[P_GATES].h, v->find.prof_lines);
    return ACT_REDRAW;
}

/* Enter: to the step of its line marked ▶ (data_find_profile_step). */
static gt_act profile_go(gt_view *v, int arg)
{
    (void)arg;
    size_t step;
    char at[32];
    if (data_find_profile_step(&v->find, sheet_profile_data(v)->scroll, &step, NULL) != 0 ||
        step >= v->steps) {
        view_say(v, 0, "no step in the profile's lines shown: scroll to its steps");
        return ACT_REDRAW;
    }
    view_jump(v, step);
    view_say(v, 0, "step %s, from the profile ('' goes back)", report_commas(step, at, sizeof at));
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the profile", 0, 1, sheet_close_key, {KB_CHAR('p', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "scroll the profile by a line, by a page", 0, 1, profile_scroll,
     {KB_SHIFT(K_UP, -KEYS_PAGE), KB_SHIFT(K_DOWN, KEYS_PAGE), KB_SYM(K_UP, -1),
      KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1), KB_CHAR('K', -KEYS_PAGE),
      KB_CHAR('J', KEYS_PAGE), KB_SYM(K_PGUP, -KEYS_PAGE), KB_SYM(K_PGDN, KEYS_PAGE)}},
    {NULL, "the profile: go to the step of the line marked ▶ (the first step's at the top)", 0,
     1, profile_go, {KB_SYM(K_ENTER, 0)}},
    {"p", "the selected unit's profile (p or Esc closes, arrows scroll, Enter goes to ▶)", 0, 0, profile_toggle,
     {KB_CHAR('p', 0)}},
};

/* ---- its status line ---- */

static const gt_hint hints[] = {
    {&scroll_hint, "scroll", NULL}, {&page_name, "page", NULL},
    {&keys_names[KN_SIGNAL], "signal", NULL}, {&close_name, "close", NULL},
    {&enter_name, "go there", NULL}, {&keys_names[KN_HELP], "help", NULL},
    {&keys_names[KN_QUIT], "quit", NULL}, {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&scroll_note, &enter_name, &open_name, NULL};
static const gt_hint *const contexts[] = {hints, NULL};
static const gt_hint open_hint = {&open_name, "profile", NULL};

static const gt_hint *profile_hints(const gt_view *v)
{
    (void)v;
    return hints;
}

/* ---- its hooks ---- */

static void profile_open(gt_view *v)
{
    want(v, 1);
}

static void profile_close(gt_view *v)
{
    want(v, 0);
}

/* Computed for the model shown only. */
static void profile_follow(gt_view *v, int shown)
{
    if (shown)
        want(v, 1);
    else if (v->find.prof_wanted)
        want(v, 0);
}

/* ---- drawing ---- */

static void profile_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_find *f = &v->find;
    const int scroll = sheet_profile_data(v)->scroll;
    char title[160], note[96];
    int known = f->prof_state == FIND_KNOWN;
    snprintf(title, sizeof title, "profile: unit %d, %s, layer %d",
             known ? f->prof_unit : v->unit, signals_name(v->m, known ? f->prof_signal : f->signal),
             known ? f->prof_layer : v->layer);
    if (known)
        snprintf(note, sizeof note, "%d-%d of %d  %s scroll  %s: to %s  %s closes", scroll + 1,
                 scroll + r.h - 1 < f->prof_lines ? scroll + r.h - 1 : f->prof_lines,
                 f->prof_lines, keys_name_text(&scroll_note, s->utf8), enter_name.text,
                 s->utf8 ? "▶" : ">", open_name.text);
    else
        snprintf(note, sizeof note, "%s closes", open_name.text);
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1, w = in.w - 1;
    if (f->prof_state == FIND_FAILED) {
        panel_wrap(s, x, in.y + 1, w, in.h - 1, R_ERROR, f->msg);
        return;
    }
    if (!known) {
        double done = 0;
        data_find_progress(f, &done);
        sheet_progress(s, x, in.y + 1, w, "computing the profile ", done);
        return;
    }
    size_t step;
    int marked = -1; /* the line Enter goes to the step of */
    if (data_find_profile_step(f, scroll, &step, &marked) != 0 || marked - scroll >= in.h)
        marked = -1;
    sheet_text(s, x, in.y, w, in.h, f->prof_text, scroll);
    if (marked >= scroll)
        surf_put(s, in.x, in.y + marked - scroll, R_MARK, s->utf8 ? "▶" : ">");
}

/* A session keeps its scroll. */
static int profile_save(const gt_view *v, long *val)
{
    return sheet_save_scroll(sheet_profile_data(v)->scroll, val);
}

static int profile_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    return sheet_load_scroll(&sheet_profile_data(v)->scroll, val, n, why, len);
}

const gt_sheet sheet_profile = {
    .id = "profile",
    .name = "a unit's profile",
    .data_size = sizeof(gt_profile_data),
    .open = profile_open,
    .close = profile_close,
    .follow = profile_follow,
    .draw = profile_draw,
    .save = profile_save,
    .load = profile_load,
    .hints = profile_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .panels_hint = &open_hint,
    .panels_at = 15,
};
