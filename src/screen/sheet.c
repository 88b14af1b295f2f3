/* A sheet's state, and putting one over the panels (see sheet.h). */
#include "config.h"

#include <stddef.h>

#include "screen/sheet.h"

/* s's place in v's table, or -1. */
static int place(const gt_view *v, const gt_sheet *s)
{
    for (int i = 0; i < v->nsheets; i++)
        if (v->sheets[i] == s)
            return i;
    return -1;
}

void *sheet_data(const gt_view *v, const gt_sheet *s)
{
    int i = place(v, s);
    return i < 0 ? NULL : v->sheet_data[i];
}

void *sheet_ui(const gt_view *v, const gt_sheet *s)
{
    int i = place(v, s);
    return i < 0 ? NULL : v->ui->sheet_ui[i];
}

int sheet_up(const gt_view *v, const gt_sheet *s)
{
    return v->ui->sheet == s;
}

void sheet_set(gt_view *v, const gt_sheet *s)
{
    const gt_sheet *was = v->ui->sheet;
    v->ui->sheet = s;
    if (was != s && was && was->close)
        was->close(v);
    view_follow_stats(v); /* the report ended when nothing wants it any more */
    if (was != s && s && s->open)
        s->open(v);
}

void sheet_toggle(gt_view *v, const gt_sheet *s)
{
    sheet_set(v, sheet_up(v, s) ? NULL : s);
}

int sheet_scroll(int at, int d, int page, int max)
{
    long to = at + (long)(d == KEYS_PAGE ? page : d == -KEYS_PAGE ? -page : d);
    to = to > max ? max : to;
    return to < 0 ? 0 : (int)to;
}

gt_act sheet_close_key(gt_view *v, int arg)
{
    (void)arg;
    sheet_set(v, NULL);
    return ACT_REDRAW;
}
