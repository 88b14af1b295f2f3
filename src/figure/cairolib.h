/* cairo and fontconfig, loaded when the first figure is drawn (cairolib.c): the program
 * links neither, and the functions the figures call of them are defined in cairolib.c. */
#ifndef GATETUI_FIGURE_CAIROLIB_H
#define GATETUI_FIGURE_CAIROLIB_H

#include "gatetui/error.h"

/* Loads them (once): GT_OK, or GT_EFAIL naming what could not be loaded. */
int cairolib_load(gt_error *e);

#endif
