/* Karpathy's min-char-rnn (Wxh, Whh, Why, bh, by) read as the plain RNN it is
 * (minchar.c, doc/model-files.md, "min-char-rnn and NumPy archives"). */
#ifndef GATETUI_FORMAT_MINCHAR_H
#define GATETUI_FORMAT_MINCHAR_H

#include "format/modelfile.h"
#include "gatetui/error.h"

/* When f's tensors are min-char-rnn's five arrays under one prefix (and no recurrent
 * weights of PyTorch's names), names them as the nn.RNN and nn.Linear they are:
 * Wxh [H, V] weight_ih_l0, Whh [H, H] weight_hh_l0, bh [H, 1] bias_ih_l0 (as [H]), a zero
 * bias_hh_l0 the file does not hold (f->synthetic), Why [V, H] and by [V, 1] the readout
 * out.weight and out.bias; the nonlinearity tanh. */
int minchar_names(gt_modelfile *f, gt_error *e);

#endif
