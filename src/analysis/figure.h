/* The figure (doc/measures.md, "The figure", after Karpathy, Johnson and Fei-Fei 2015): a
 * self-contained HTML page of the text of steps [from, to], each character's background
 * coloured by one unit's value at that step on a diverging scale (blue below zero, white
 * at zero, red above), the value in the character's title. The value shown is tanh(c) for
 * c, 2v - 1 for a gate v (0.5 is white), the value itself for g, n and h. */
#ifndef GATETUI_FIGURE_H
#define GATETUI_FIGURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/signals.h"

typedef struct gt_figure {
    const gt_model *m;
    const char *model_name, *text_name; /* for the page's title */
    int layer, unit, signal;
    size_t from, to;                    /* inclusive */
    /* a principal component's scores instead of the unit's values (score[t] for step t,
     * shown divided by scale): component >= 0 */
    int component;
    const double *score;
    double scale;
    /* the text's own tokens, indexed by step as the page's are, where it was edited (NULL:
     * not edited): each character that differs is outlined, its title saying what it was,
     * and the caption counts them */
    const uint16_t *orig;
} gt_figure;

/* The page in memory (*page, malloc'd, *len bytes) from the unit's values of steps
 * from..to already known (values[s - from]); tok is indexed by step. */
int figure_page(char **page, size_t *len, const gt_figure *fg, const uint16_t *tok,
                const float *values, gt_error *e);

/* Runs the model over tok[0..to] and writes the page to path, a new file (never over one
 * that exists), or to out when path is NULL. */
int figure_html(const char *path, FILE *out, const gt_figure *fg, const uint16_t *tok,
                size_t n, const gt_pass_options *o, gt_error *e);

#endif
