/* The GRU cell's descriptor (gatetui/cell.h; doc/measures.md, "The cells"): the reset gate
 * r, the update gate z carrying h, and the new state n, in PyTorch's row order; h' =
 * (1 - z) n + z h. */
#include "config.h"

#include "gatetui/model.h"

static const gt_cell_signal gru_signals[] = {
    {"r", "reset gate r", "reset r", 0, 1, 0},
    {"z", "update gate z", "update z", 0, 1, 0},
    {"n", "new state n", "new n", -1, 1, 0},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int gru_heat[] = {3, 1, 0, 2};    /* h, z, r, n */
static const int gru_history[] = {3, 1, 0, 2}; /* h, z, r, n */

const gt_celltype gt_cell_gru = {
    .name = "gru",
    .kind = "GRU",
    .noun = "GRU",
    .gates = 3,
    .carry = GT_Z,
    .carry_word = "update",
    .candidate = GT_N,
    .nsigmoid = 2,
    .sigmoid = {GT_R, GT_Z},
    .has_c = 0,
    .state = 1,
    .carried = "h",
    .nsignals = 4,
    .signal = gru_signals,
    .signal_list = "r, z, n, h",
    .beside_h = GT_N,
    .heat_order = gru_heat,
    .history_order = gru_history,
};
