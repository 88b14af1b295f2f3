/* The sample LSTM, its text, its trace (see sampletrace.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sampletrace.h"

int sampletrace_open(gt_model *m, gt_text *t, gt_trace **tr, gt_data_jac *jv, gt_error *e)
{
    const char *top = getenv("top_srcdir");
    char mp[1024], tp[1024];
    snprintf(mp, sizeof mp, "%s/samples/kjv-lstm.bin", top ? top : ".");
    snprintf(tp, sizeof tp, "%s/samples/kjv-valid.txt", top ? top : ".");
    *tr = NULL;
    return model_load(m, mp, NULL, e) || text_load(t, tp, m, e) ||
           trace_open(tr, m, t, NULL, e) || data_jac_init(jv, m, e);
}

void sampletrace_close(gt_model *m, gt_text *t, gt_trace *tr, gt_data_jac *jv)
{
    data_jac_free(jv);
    trace_close(tr);
    text_free(t);
    model_free(m);
}
