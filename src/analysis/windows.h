/* The options of the window-sampling measures (the report, the importance) that they check
 * alike. */
#ifndef GATETUI_ANALYSIS_WINDOWS_H
#define GATETUI_ANALYSIS_WINDOWS_H

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/report.h"

/* The layer within the model's, a window 2 to INT32_MAX characters long, at least one
 * window: GT_OK, or GT_EINPUT and e saying which option is wrong. */
int report_check_windows(const gt_model *m, const gt_report_options *o, gt_error *e);

#endif
