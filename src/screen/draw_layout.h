/* Where each panel goes: a pure function of the terminal's size. */
#ifndef GATETUI_LAYOUT_H
#define GATETUI_LAYOUT_H

typedef struct gt_rect {
    int x, y, w, h;
} gt_rect;

enum {
    P_HEADER,   /* model, text, step, character, predictions */
    P_STRIP,    /* the text around the cursor */
    P_GATES,    /* a row of gate bars per unit */
    P_CELLHID,  /* |c| against |h| (|n| against |h| for a GRU) */
    P_UNIT,     /* the selected unit's values and history */
    P_PERTURB,  /* the perturbation panel */
    P_STATUS,   /* keys and messages */
    P_COUNT
};

/* Below this the screen says it is too small. */
#define LAYOUT_MIN_COLS 64
#define LAYOUT_MIN_ROWS 22
/* Below this many rows under the text strip, the cell against hidden is left out. */
#define LAYOUT_CELLHID_MIN_BODY 24

typedef struct gt_layout {
    int cols, rows;
    int too_small;      /* every rectangle is empty */
    gt_rect r[P_COUNT];
} gt_layout;

void layout_compute(int cols, int rows, gt_layout *out);

const char *layout_panel_name(int p);

/* The gate panel's grid in rectangle r for `units` rows of `ngates` bars: how many columns
 * of rows, their width, the digits of a unit number, the bar width, and whether the
 * half-life and change columns fit (when only one does, the change if prefer_change).
 * ngates 0 (a plain RNN): no bars and no half-life, narrower rows, so more columns. */
typedef struct gt_gate_grid {
    int ncols, colw, rows;
    int uw;           /* digits of a unit number */
    int bw;           /* bar width; 0 where only the values fit */
    int show_hl, show_d;
    int show_extra;   /* the extra columns fit */
} gt_gate_grid;

/* The gate panel's grid in r, with `extra` more columns in every row (the r column of a
 * hypothesis), where they fit (show_extra). */
void layout_gate_grid_extra(gt_rect r, int units, int ngates, int prefer_change, int extra,
                            gt_gate_grid *g);

/* How many columns a text of `nlines` lines at most `width` wide takes in r (one or two). */
int layout_text_columns(gt_rect r, int nlines, int width);

#endif
