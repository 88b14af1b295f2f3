/* Every value of a run as CSV (doc/usage.md, "--dump"). */
#ifndef GATETUI_DUMP_H
#define GATETUI_DUMP_H

#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/text.h"

/* Writes `step,char,layer,unit,i,f,g,o,c,h` (LSTM) or `step,char,layer,unit,r,z,n,h` (GRU)
 * rows for steps from..to (inclusive, clamped to the text) and one layer (-1: all). */
int dump_values(FILE *out, const gt_model *m, const gt_text *t, int layer, size_t from,
                size_t to, gt_error *e);

/* Writes `step,token,p` rows: the readout's next-token probabilities after each step. */
int dump_probs(FILE *out, const gt_model *m, const gt_text *t, size_t from, size_t to,
               gt_error *e);

#endif
