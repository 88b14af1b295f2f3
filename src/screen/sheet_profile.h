/* A unit's profile's sheet (sheet_profile.c): its row of the table of sheets, and what the
 * tests read of it. */
#ifndef GATETUI_SHEET_PROFILE_H
#define GATETUI_SHEET_PROFILE_H

#include "screen/sheet.h"

extern const gt_sheet sheet_profile;

/* Its state for each model. */
typedef struct gt_profile_data {
    int scroll;   /* the profile's first line shown */
} gt_profile_data;

gt_profile_data *sheet_profile_data(const gt_view *v);

#endif
