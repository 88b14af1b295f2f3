/* The LSTM cell's descriptor (gatetui/cell.h; doc/measures.md, "The cells"): the gates
 * i, f, g, o in PyTorch's row order, the forget gate f carrying the cell state c, and h =
 * o tanh c. */
#include "config.h"

#include "gatetui/model.h"

static const gt_cell_signal lstm_signals[] = {
    {"i", "input gate i", "input i", 0, 1, 0},
    {"f", "forget gate f", "forget f", 0, 1, 0},
    {"g", "cell input g", "cell g", -1, 1, 0},
    {"o", "output gate o", "output o", 0, 1, 0},
    {"c", "cell state c", NULL, 1, 0, 1},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int lstm_heat[] = {4, 5, 0, 1, 2, 3};    /* c, h, i, f, g, o */
static const int lstm_history[] = {4, 1, 5, 0, 3, 2}; /* c, f, h, i, o, g */

const gt_celltype gt_cell_lstm = {
    .name = "lstm",
    .kind = "LSTM",
    .noun = "LSTM",
    .gates = 4,
    .carry = GT_F,
    .carry_word = "forget",
    .candidate = GT_G,
    .nsigmoid = 3,
    .sigmoid = {GT_I, GT_F, GT_O},
    .has_c = 1,
    .state = 2,
    .carried = "c",
    .nsignals = 6,
    .signal = lstm_signals,
    .signal_list = "i, f, g, o, c, h",
    .beside_h = 4,
    .heat_order = lstm_heat,
    .history_order = lstm_history,
};
