/* The carriers' sheet (B; doc/screen.md, "The effect and the carriers"): every unit of the
 * layer shown by what it carries of the last edit's effect on the predictions, the table of
 * gatetui --carriers (doc/measures.md, "The carriers") with all the units: alone (A_j, and
 * A_j / E) and the share that needs it. Computed by a child process for each model after
 * every edit (data_carriers.h), up or not: the perturbation panel names the first units;
 * scrolled by its keys. */
#include "config.h"

#include <stdio.h>

#include "gatetui/report.h"
#include "screen/panel_frame.h"
#include "screen/sheet_carriers.h"

static const gt_keyname scroll_hint = {KB_SYM(K_UP, 0), "↑↓", "j/k", 0};
static const gt_keyname scroll_note = {KB_SYM(K_UP, 0), "↑↓", "up/down", 0};
static const gt_keyname page_name = {KB_SYM(K_PGUP, 0), "PgUp/Dn", NULL, 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "B Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('B', 0), "B", NULL, 0};

static gt_carriers_sheet *sheet_carriers_data(const gt_view *v)
{
    return sheet_data(v, &sheet_carriers);
}

/* ---- the keys ---- */

static gt_act carriers_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_carriers);
    return ACT_REDRAW;
}

/* Scrolled by d lines (KEYS_PAGE: a page). */
static gt_act carriers_scroll(gt_view *v, int d)
{
    gt_carriers_sheet *p = sheet_carriers_data(v);
    p->scroll = sheet_text_rows_scroll(p->scroll, d, sheet_rect(v), v->carriers.text);
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the carriers", 0, 1, sheet_close_key, {KB_CHAR('B', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "scroll the carriers by a line, by a page", 0, 1, carriers_scroll,
     {KB_SHIFT(K_UP, -KEYS_PAGE), KB_SHIFT(K_DOWN, KEYS_PAGE), KB_SYM(K_UP, -1),
      KB_SYM(K_DOWN, 1), KB_CHAR('k', -1), KB_CHAR('j', 1), KB_CHAR('K', -KEYS_PAGE),
      KB_CHAR('J', KEYS_PAGE), KB_SYM(K_PGUP, -KEYS_PAGE), KB_SYM(K_PGDN, KEYS_PAGE)}},
    {"B", "the units that carry the last edit, every one of the layer (B or Esc closes)", 0, 0, carriers_toggle, {KB_CHAR('B', 0)}},
};

/* ---- its status line ---- */

static const gt_hint hints[] = {
    {&scroll_hint, "scroll", NULL}, {&page_name, "page", NULL},
    {&keys_names[KN_HORIZON], "K", NULL}, {&close_name, "close", NULL},
    {&keys_names[KN_HELP], "help", NULL}, {&keys_names[KN_QUIT], "quit", NULL},
    {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&scroll_note, &open_name, NULL};
static const gt_hint *const contexts[] = {hints, NULL};
static const gt_hint open_hint = {&open_name, "carriers", NULL};

static const gt_hint *carriers_hints(const gt_view *v)
{
    (void)v;
    return hints;
}

/* ---- its hooks ---- */

/* Opened: from the top, computed again when it was stopped or failed. */
static void carriers_open(gt_view *v)
{
    sheet_carriers_data(v)->scroll = 0;
    data_carriers_again(&v->carriers);
}

static void carriers_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_carriers *c = &v->carriers;
    char title[160], note[96], why[160], at[32];
    snprintf(title, sizeof title, "carriers of the last edit, layer %d, K %d", v->layer,
             v->ui->horizon);
    if (c->state == CARRY_KNOWN)
        snprintf(title, sizeof title, "carriers of the edit at step %s, layer %d, K %d",
                 report_commas(c->step, at, sizeof at), c->layer, c->horizon);
    snprintf(note, sizeof note, "%s scroll  %s closes", keys_name_text(&scroll_note, s->utf8),
             open_name.text);
    gt_textsheet t = {title, note, TEXT_SAY, why, 0, c->text, sheet_carriers_data(v)->scroll};
    if (!v->m->has_readout) {
        snprintf(why, sizeof why, "the model has no readout: no predictions to carry an edit");
    } else if (!trace_edit_count(v->tr)) {
        snprintf(why, sizeof why, "no edit: press e to change a %s", model_step_noun(v->m));
    } else if (c->state == CARRY_COMPUTING) {
        t.state = TEXT_COMPUTING;
        t.say = "computing the carriers ";
        t.done = data_carriers_progress(c);
    } else if (c->state == CARRY_KNOWN) {
        t.state = TEXT_KNOWN;
    } else if (c->state == CARRY_STOPPED) {
        snprintf(why, sizeof why, "stopped: %s twice computes them again", open_name.text);
    } else {
        t.state = TEXT_FAILED;
        t.say = c->error;
    }
    sheet_draw_text(s, r, &t);
}

/* In a session: the scroll. */
static int carriers_save(const gt_view *v, long *val)
{
    return sheet_save_scroll(sheet_carriers_data(v)->scroll, val);
}

static int carriers_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    return sheet_load_scroll(&sheet_carriers_data(v)->scroll, val, n, why, len);
}

const gt_sheet sheet_carriers = {
    .id = "carriers",
    .name = "the carriers of the last edit",
    .data_size = sizeof(gt_carriers_sheet),
    .open = carriers_open,
    .draw = carriers_draw,
    .save = carriers_save,
    .load = carriers_load,
    .hints = carriers_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .panels_hint = &open_hint,
    .edited_at = 5,
};
