/* The sample LSTM (samples/kjv-lstm.bin) over samples/kjv-valid.txt, loaded from
 * $top_srcdir, with its trace and the derivative sheet's data: what the tests of the
 * screen's threads start from. */
#ifndef GATETUI_TESTS_SAMPLETRACE_H
#define GATETUI_TESTS_SAMPLETRACE_H

#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/trace.h"
#include "screen/data_jac.h"

/* 0, or nonzero with e saying why. */
int sampletrace_open(gt_model *m, gt_text *t, gt_trace **tr, gt_data_jac *jv, gt_error *e);
void sampletrace_close(gt_model *m, gt_text *t, gt_trace *tr, gt_data_jac *jv);

#endif
