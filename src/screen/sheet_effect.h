/* The effect's sheet (sheet_effect.c): its row of the table of sheets, and its state. */
#ifndef GATETUI_SHEET_EFFECT_H
#define GATETUI_SHEET_EFFECT_H

#include "screen/sheet.h"

extern const gt_sheet sheet_effect;

/* Its state for each model. */
typedef struct gt_effect_sheet {
    int scroll;   /* the table's first line shown */
} gt_effect_sheet;

#endif
