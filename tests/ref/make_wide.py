#!/usr/bin/python3
"""Writes tests/terminal/robust/wide.safetensors: a small random LSTM (H 12, with readout) whose
vocabulary holds characters one cell wide, two cells wide (CJK, emoji) and zero cells wide
(a combining accent), for the screen's alignment test (tests/terminal/e2e_robust.sh, on
tests/terminal/robust/wide.txt). Needs numpy only: /usr/bin/python3 tests/ref/make_wide.py"""
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tools"))
from gatetui_export import save_file  # noqa: E402

text = open(os.path.join(here, "..", "robust", "wide.txt"), encoding="utf-8").read()
vocab = "".join(sorted(set(text)))
V, H = len(vocab), 12
rng = np.random.default_rng(7)
t = {
    "lstm.weight_ih_l0": rng.normal(0, 0.6, (4 * H, V)).astype(np.float32),
    "lstm.weight_hh_l0": rng.normal(0, 0.4, (4 * H, H)).astype(np.float32),
    "lstm.bias_ih_l0": rng.normal(0, 0.3, 4 * H).astype(np.float32),
    "lstm.bias_hh_l0": rng.normal(0, 0.3, 4 * H).astype(np.float32),
    "fc.weight": rng.normal(0, 0.5, (V, H)).astype(np.float32),
    "fc.bias": np.zeros(V, np.float32),
}
save_file(t, os.path.join(here, "..", "robust", "wide.safetensors"), metadata={"vocab": vocab})
print("V", V)
