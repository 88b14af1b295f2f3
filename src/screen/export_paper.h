/* The figure for a paper of what the screen shows (F; doc/figures.md), as --figure draws
 * it (src/figure/kinds.h), from the numbers the screen already has: the perturbation
 * panel's edit (every model's curves), the unit table's rows, or the columns of several
 * models' reports. Written as SVG with its CSV beside it to new files in the current
 * directory, named like the exported frame: TEXT-stepN[-edited]-KIND.svg (then -2, ...). */
#ifndef GATETUI_EXPORT_PAPER_H
#define GATETUI_EXPORT_PAPER_H

#include <stddef.h>

#include "gatetui/error.h"
#include "screen/view.h"

/* Which figure: the panels' perturbation, the unit table's half-lives, the several models'
 * reports side by side. */
typedef enum gt_paper { PAPER_PERTURBATION, PAPER_HALFLIVES, PAPER_CHECKPOINTS } gt_paper;

/* Writes figure `which` of view v (every model's, where it draws several) to a new file of
 * the current directory, its name into out. GT_EINPUT (e saying why) when what it draws is
 * not there yet: no edit, the curves or the report still being computed, a model without a
 * carry gate for the half-lives. */
int export_paper(const gt_view *v, gt_paper which, char *out, size_t n, gt_error *e);

#endif
