/* The table of sheets, and every sheet's state in a view (see sheets.h). A sheet is added
 * here by one row (and its file: doc/architecture.md, "Where a change goes"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "screen/sheet_carriers.h"
#include "screen/sheet_derivative.h"
#include "screen/sheet_effect.h"
#include "screen/sheet_profile.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"
#include "screen/sheets.h"

static const gt_sheet *const table[] = {
    &sheet_report,
    &sheet_units,
    &sheet_derivative,
    &sheet_profile,
    &sheet_effect,
    &sheet_carriers,
};

#define NSHEETS ((int)(sizeof table / sizeof table[0]))

_Static_assert(NSHEETS <= SHEETS_MAX, "SHEETS_MAX holds every sheet");

int sheets_all(const gt_sheet *const **out)
{
    *out = table;
    return NSHEETS;
}

void view_free(gt_view *v)
{
    for (int i = 0; i < v->nsheets; i++) {
        if (v->sheets[i]->free)
            v->sheets[i]->free(v);
        free(v->sheet_data[i]);
        free(v->own.sheet_ui[i]);
        v->sheet_data[i] = v->own.sheet_ui[i] = NULL;
    }
    v->nsheets = 0;
    view_base_free(v);
}

/* Sheet i's states, zeroed, then its init (the sheet counted in v->nsheets, so that it finds
 * them); on failure nothing of it is left. */
static int sheet_init(gt_view *v, int i, gt_error *e)
{
    const gt_sheet *s = table[i];
    v->nsheets = i + 1;
    v->sheet_data[i] = s->data_size ? calloc(1, s->data_size) : NULL;
    v->own.sheet_ui[i] = s->ui_size ? calloc(1, s->ui_size) : NULL;
    int rc = (s->data_size && !v->sheet_data[i]) || (s->ui_size && !v->own.sheet_ui[i])
                 ? gt_fail(e, GT_EFAIL, "out of memory for the screen")
             : s->init ? s->init(v, e)
                       : GT_OK;
    if (rc) { /* what its init made, it undid */
        free(v->sheet_data[i]);
        free(v->own.sheet_ui[i]);
        v->sheet_data[i] = v->own.sheet_ui[i] = NULL;
        v->nsheets = i;
    }
    return rc;
}

int view_init(gt_view *v, const gt_model *m, const gt_text *t, gt_trace *tr, int layer,
              gt_error *e)
{
    int rc = view_base_init(v, m, t, tr, layer, e);
    if (rc)
        return rc;
    v->sheets = table;
    for (int i = 0; i < NSHEETS; i++)
        if ((rc = sheet_init(v, i, e)) != GT_OK) {
            view_free(v);
            return rc;
        }
    return GT_OK;
}
