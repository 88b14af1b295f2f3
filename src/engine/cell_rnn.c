/* The plain RNN's descriptor (gatetui/cell.h; doc/measures.md, "The cells"): one block, the
 * pre-activation a, and h = tanh(a) or relu(a) (gt_model.rnn_relu); no gate, no carry
 * gate. */
#include "config.h"

#include <string.h>

#include "format/modelfile.h"
#include "gatetui/model.h"

static const gt_cell_signal rnn_signals[] = {
    {"a", "pre-activation a", "pre-act. a", 1, 0, 1},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int rnn_heat[] = {1, 0};    /* h, a */
static const int rnn_history[] = {1, 0}; /* h, a */

/* "RNN (tanh)" or "RNN (relu)", saying when neither the file nor --nonlinearity said
 * which. */
static const char *rnn_kind(const gt_model *m)
{
    if (m->nonlin_assumed)
        return m->rnn_relu ? "RNN (relu, assumed: --nonlinearity)"
                           : "RNN (tanh, assumed: --nonlinearity)";
    return m->rnn_relu ? "RNN (relu)" : "RNN (tanh)";
}

/* The nonlinearity: the file's metadata, or --nonlinearity; tanh, assumed, when neither
 * says. */
static int rnn_options(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    const char *nl = m->file->nonlinearity;
    if (nl && strcmp(nl, "tanh") != 0 && strcmp(nl, "relu") != 0)
        return gt_fail(e, GT_EINPUT,
                       "%s: nonlinearity is \"%.40s\"; expected \"tanh\" or \"relu\"", m->path,
                       nl);
    m->rnn_relu = nl && strcmp(nl, "relu") == 0;
    if (opt && opt->nonlinearity >= 0) {
        m->rnn_relu = opt->nonlinearity;
        nl = "";
    }
    m->nonlin_assumed = !nl;
    return GT_OK;
}

const gt_celltype gt_cell_rnn = {
    .name = "rnn",
    .kind = "RNN",
    .noun = "plain RNN",
    .gates = 1,
    .carry = -1,
    .carry_word = NULL,
    .candidate = GT_A,
    .nsigmoid = 0,
    .has_c = 0,
    .state = 1,
    .carried = "h",
    .nsignals = 2,
    .signal = rnn_signals,
    .signal_list = "a, h",
    .beside_h = GT_A,
    .heat_order = rnn_heat,
    .history_order = rnn_history,
    .kind_of = rnn_kind,
    .options = rnn_options,
};
