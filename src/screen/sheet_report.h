/* The report's sheet (sheet_report.c): its row of the table of sheets, and what the unit
 * table's sheet and the tests read of it. */
#ifndef GATETUI_SHEET_REPORT_H
#define GATETUI_SHEET_REPORT_H

#include "gatetui/compare.h"
#include "screen/sheet.h"

extern const gt_sheet sheet_report;

/* Its state every model shares. */
typedef struct gt_report_ui {
    int scroll;   /* its first line shown */
    int col;      /* several models: the first model's column of the table shown */
    int full;     /* several models: the model shown's whole report instead of the table */
} gt_report_ui;

gt_report_ui *sheet_report_ui(const gt_view *v);
/* Several models: 1 when it shows the table that compares them (not the model shown's
 * whole report). */
int sheet_report_compares(const gt_view *v);
/* Every model's column of that table for the layer shown into out[0..max): their number,
 * or -1 while one is not computed. */
int sheet_report_cols(const gt_view *v, gt_compare_col *out, int max);
/* The step of the first window's line shown (one model's report, not the table of
 * several): 0, the step and (line may be NULL) the line's number; -1 when none shows. */
int sheet_report_step(const gt_view *v, size_t *step, int *line);
/* Its last useful scroll position at the layout's size. */
int sheet_report_max_scroll(const gt_view *v);
/* Inside a sheet's frame (in): the report of the layer being computed, its progress, or
 * why it failed; `closes` names the key that closes the sheet. */
void sheet_report_computing(gt_surface *s, gt_rect in, const gt_view *v,
                            const gt_keyname *closes);

#endif
