/* The keys of the unit table (see keys_run.h): U opens it; in it the arrows select a row,
 * the column it is sorted by and the order change, Enter selects the row's unit. */
#include "config.h"

#include <stdio.h>

#include "screen/keys_run.h"

static int is(const gt_key *k, char c)
{
    return k->sym == K_CHAR && !k->ctrl && k->cp == (uint32_t)c;
}

gt_act keys_units_open(gt_view *v, const gt_key *k)
{
    (void)k;
    view_toggle_overlay(v, OVERLAY_UNITS);
    return ACT_REDRAW;
}

/* Enter: the selected row's unit becomes the unit selected on the panels. */
static void choose(gt_view *v)
{
    int unit = view_units_selected(v);
    if (unit < 0) {
        snprintf(v->ui->msg, sizeof v->ui->msg, "the unit table is being computed");
        return;
    }
    view_select_unit(v, unit);
    view_set_overlay(v, OVERLAY_NONE);
    snprintf(v->ui->msg, sizeof v->ui->msg, "unit %d selected", unit);
}

gt_act keys_units_table(gt_view *v, const gt_key *k)
{
    const int page = view_units_page(v);
    if (k->sym == K_UP || is(k, 'k'))
        view_units_move(v, -1);
    else if (k->sym == K_DOWN || is(k, 'j'))
        view_units_move(v, 1);
    else if (k->sym == K_PGUP || is(k, 'K'))
        view_units_move(v, -page);
    else if (k->sym == K_PGDN || is(k, 'J'))
        view_units_move(v, page);
    else if (k->sym == K_LEFT || is(k, 'h'))
        view_units_column(v, -1);
    else if (k->sym == K_RIGHT || is(k, 'l'))
        view_units_column(v, 1);
    else if (is(k, 's')) {
        v->ui->ut_reverse = !v->ui->ut_reverse;
        view_units_prepare(v);
    } else if (k->sym == K_ENTER)
        choose(v);
    return ACT_REDRAW;
}
