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

typedef struct gt_layout {
    int cols, rows;
    int too_small;      /* every rectangle is empty */
    gt_rect r[P_COUNT];
} gt_layout;

void layout_compute(int cols, int rows, gt_layout *out);

const char *layout_panel_name(int p);

#endif
