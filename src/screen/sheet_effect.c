/* The effect's sheet (I; doc/screen.md, "The effect and the carriers"): what the screen's
 * interventions do where the hypothesis (m) holds and elsewhere, the table of gatetui
 * --effect REGEX with the same intervention (doc/measures.md, "The effect"): delta inside
 * and outside with their 95% intervals, the specificity, and for an ablation alone its 20
 * control sets, their rank and p. Computed by a child process for each model
 * (data_effect.h) while there is a hypothesis and an intervention, up or not (the status
 * line shows its deltas); scrolled by its keys. */
#include "config.h"

#include <stdio.h>

#include "screen/panel_frame.h"
#include "screen/sheet_effect.h"

static const gt_keyname scroll_hint = {KB_SYM(K_UP, 0), "↑↓", "j/k", 0};
static const gt_keyname scroll_note = {KB_SYM(K_UP, 0), "↑↓", "up/down", 0};
static const gt_keyname page_name = {KB_SYM(K_PGUP, 0), "PgUp/Dn", NULL, 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "I Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('I', 0), "I", NULL, 0};

static gt_effect_sheet *sheet_effect_data(const gt_view *v)
{
    return sheet_data(v, &sheet_effect);
}

/* ---- the keys ---- */

static gt_act effect_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_effect);
    return ACT_REDRAW;
}

/* Scrolled by d lines (KEYS_PAGE: a page). */
static gt_act effect_scroll(gt_view *v, int d)
{
    gt_effect_sheet *p = sheet_effect_data(v);
    p->scroll = sheet_text_rows_scroll(p->scroll, d, sheet_rect(v), v->effect.text);
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the effect's table", 0, 1, sheet_close_key, {KB_CHAR('I', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "scroll the effect's table by a line, by a page", 0, 1, effect_scroll,
     {KB_SHIFT(K_UP, -KEYS_PAGE), KB_SHIFT(K_DOWN, KEYS_PAGE), KB_SYM(K_UP, -1),
      KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1), KB_CHAR('K', -KEYS_PAGE),
      KB_CHAR('J', KEYS_PAGE), KB_SYM(K_PGUP, -KEYS_PAGE), KB_SYM(K_PGDN, KEYS_PAGE)}},
    {"I", "the interventions' effect inside m's matches and outside, against random units "
          "(I or Esc closes)", 0, 0, effect_toggle,
     {KB_CHAR('I', 0)}},
};

/* ---- its status line ---- */

static const gt_hint hints[] = {
    {&scroll_hint, "scroll", NULL}, {&page_name, "page", NULL},
    {&keys_names[KN_MATCH], "match", NULL}, {&close_name, "close", NULL},
    {&keys_names[KN_HELP], "help", NULL}, {&keys_names[KN_QUIT], "quit", NULL},
    {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&scroll_note, &open_name, NULL};
static const gt_hint *const contexts[] = {hints, NULL};

static const gt_hint *effect_hints(const gt_view *v)
{
    (void)v;
    return hints;
}

/* ---- its hooks ---- */

/* Opened: from the top, computed again when it was stopped or failed. */
static void effect_open(gt_view *v)
{
    sheet_effect_data(v)->scroll = 0;
    data_effect_again(&v->effect);
}

static void effect_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_effect *d = &v->effect;
    char title[800], note[96], why[160];
    snprintf(title, sizeof title, "effect of %s where \"%s\" holds", d->what[0] ? d->what : "nothing",
             d->regex);
    snprintf(note, sizeof note, "%s scroll  %s closes", keys_name_text(&scroll_note, s->utf8),
             open_name.text);
    gt_textsheet t = {title, note, TEXT_SAY, why, 0, d->text, sheet_effect_data(v)->scroll};
    if (!data_effect_on(d)) {
        snprintf(title, sizeof title, "effect");
        snprintf(why, sizeof why, "no %s: the effect needs a hypothesis (m) and an intervention "
                 "(a ablates the selected unit; < > { } C)",
                 !v->find.regex[0] ? "hypothesis" : "intervention");
    } else if (d->state == EFFECT_COMPUTING) {
        t.state = TEXT_COMPUTING;
        t.say = "computing the effect ";
        t.done = data_effect_progress(d);
    } else if (d->state == EFFECT_KNOWN) {
        t.state = TEXT_KNOWN;
    } else if (d->state == EFFECT_STOPPED) {
        snprintf(why, sizeof why, "stopped: %s twice computes it again", open_name.text);
    } else {
        t.state = TEXT_FAILED;
        t.say = d->error;
    }
    sheet_draw_text(s, r, &t);
}

/* In a session: the scroll. */
static int effect_save(const gt_view *v, long *val)
{
    return sheet_save_scroll(sheet_effect_data(v)->scroll, val);
}

static int effect_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    return sheet_load_scroll(&sheet_effect_data(v)->scroll, val, n, why, len);
}

const gt_sheet sheet_effect = {
    .id = "effect",
    .name = "the interventions' effect",
    .data_size = sizeof(gt_effect_sheet),
    .open = effect_open,
    .draw = effect_draw,
    .save = effect_save,
    .load = effect_load,
    .hints = effect_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
};
