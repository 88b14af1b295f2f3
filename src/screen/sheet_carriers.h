/* The carriers' sheet (sheet_carriers.c): its row of the table of sheets, and its state. */
#ifndef GATETUI_SHEET_CARRIERS_H
#define GATETUI_SHEET_CARRIERS_H

#include "screen/sheet.h"

extern const gt_sheet sheet_carriers;

/* Its state for each model. */
typedef struct gt_carriers_sheet {
    int scroll;   /* the table's first line shown */
} gt_carriers_sheet;

#endif
