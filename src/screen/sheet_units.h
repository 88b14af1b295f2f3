/* The unit table's sheet (sheet_units.c): its row of the table of sheets, and what the
 * tests read of it. */
#ifndef GATETUI_SHEET_UNITS_H
#define GATETUI_SHEET_UNITS_H

#include "screen/sheet.h"

extern const gt_sheet sheet_units;

/* Its state every model shares. */
typedef struct gt_units_ui {
    int row, top;     /* the selected row and the first row shown (ranks in its order) */
    int col, gate;    /* the column it is sorted by: its kind (gt_unit_col) and for a mean
                       * its gate, so that it stays the same for every model */
    int reverse;      /* the other way round */
} gt_units_ui;

/* Its state for each model. */
typedef struct gt_units_data {
    int *order;       /* [H] the table's rows in its order (while it is known) */
    int known;        /* the table of the layer is known: order is its order */
} gt_units_data;

gt_units_ui *sheet_units_ui(const gt_view *v);
gt_units_data *sheet_units_data(const gt_view *v);
/* The rows a page shows. */
int sheet_units_page(const gt_view *v);

#endif
