/* The table of sheets (sheet.h), and a view made with every sheet's state: view_init,
 * view_free. The view's work then goes through the table (v->sheets) in view.c. */
#ifndef GATETUI_SHEETS_H
#define GATETUI_SHEETS_H

#include "screen/sheet.h"
#include "screen/view.h"

/* The sheets, in the order the help box lists their keys; their number. */
int sheets_all(const gt_sheet *const **out);

/* A view of model m over text t with trace tr (layer < 0: 0), with every sheet's state;
 * e says why it failed (out of memory). */
int view_init(gt_view *v, const gt_model *m, const gt_text *t, gt_trace *tr, int layer,
              gt_error *e);
void view_free(gt_view *v);

#endif
