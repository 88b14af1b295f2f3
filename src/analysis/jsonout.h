/* The JSON outputs (--report, --importance, --jacobian, the finding modes) written one way:
 * a number through jsonout_num (a finite double as a JSON real; NaN and infinities, which
 * JSON has not, as null), the document through jsonout_write with the precision of its kind
 * of output below, then a newline, flushed. */
#ifndef GATETUI_ANALYSIS_JSONOUT_H
#define GATETUI_ANALYSIS_JSONOUT_H

#include <jansson.h>

#include "gatetui/error.h"
#include <stdio.h>

#include "gatetui/interval.h"

/* The significant digits of the numbers, by kind of output: the measures over windows (the
 * report, the importance: float32 runs summed in double, 12 digits more than they hold);
 * the Jacobian (double precision throughout, compared to float64 references: 15); the
 * finding modes (correlations and means of float32 values: 10). */
enum { JSONOUT_MEASURES = 12, JSONOUT_JACOBIAN = 15, JSONOUT_FINDING = 10 };

json_t *jsonout_num(double v);
/* A 95% interval (interval.h): [lo, hi], either end null where it is open or unknown; null
 * when there is none. */
json_t *jsonout_interval(const gt_interval *ci);
/* Writes root (NULL when it could not be built: -1) to f with indent spaces a level and
 * digits significant digits, then a newline, and frees it; 0, or -1 when the writing or
 * the flush failed. */
int jsonout_write(FILE *f, json_t *root, int indent, int digits);
/* jsonout_write, with a failure said: GT_EFAIL "error writing WHAT: WHY" (the system's
 * reason, file_flushed), "out of memory for WHAT" when root is NULL. */
int jsonout_print(FILE *f, json_t *root, int indent, int digits, const char *what, gt_error *e);

#endif
