"""How much a plain RNN amplifies rounding: the rule the RNN fixtures keep (make_rnn_fixtures.py,
make_report_fixtures.py). Needs numpy only."""
import numpy as np

# A fixture must not amplify rounding: a float32 run is held to 1e-5 * max(1, |ref|) of the
# float64 one, and a model that multiplies a difference made at one step by G at a later
# step turns float32's rounding (about 6e-8 per operation) into G times that. The largest
# such G over the text (relative to the state's size, for relu's growing states) must stay
# under MAX_GROWTH; a random tanh RNN with weights of scale 0.7 on 9 units reaches 136 and
# a float32 run that rounds one sum of it differently ends 2.75e-5 from the float64 one
# (a property of the model, not an error of the run).
MAX_GROWTH = 25.0


def step_jacobian(W64, k, H, nl, a, J):
    """Layer k's rows of d(every layer's h at this step) / d(every layer's h one step
    before): its own recurrence, and through its input the rows of the layer below (in J)."""
    rows = np.zeros((H, J.shape[1]))
    rows[:, k * H:(k + 1) * H] = W64["rnn.weight_hh_l%d" % k]
    if k > 0:
        rows += W64["rnn.weight_ih_l%d" % k] @ J[(k - 1) * H:k * H]
    slope = 1.0 - np.tanh(a) ** 2 if nl == "tanh" else (a > 0).astype(np.float64)
    return slope[:, None] * rows


def rounding_growth(jacobians, sizes):
    """The largest factor by which a difference made at one step (relative to the state's
    size then) has grown at a later step (relative to the state's size then)."""
    worst = 1.0
    for s in range(len(jacobians)):
        P = np.eye(jacobians[s].shape[0])
        for t in range(s, len(jacobians)):
            P = jacobians[t] @ P
            worst = max(worst, np.linalg.norm(P, 2) * sizes[max(s - 1, 0)] / sizes[t])
    return worst


def text_growth(W64, L, H, nl, xs, bias):
    """rounding_growth along the inputs xs (layer 0's, one a step) from the zero state, the
    weights W64 under nn.RNN's names with the prefix "rnn."."""
    h = [np.zeros(H) for _ in range(L)]
    jacobians, sizes = [], []
    for x in xs:
        J = np.zeros((L * H, L * H))
        for k in range(L):
            a = W64["rnn.weight_ih_l%d" % k] @ x + W64["rnn.weight_hh_l%d" % k] @ h[k]
            if bias:
                a = a + W64["rnn.bias_ih_l%d" % k] + W64["rnn.bias_hh_l%d" % k]
            h[k] = np.tanh(a) if nl == "tanh" else np.maximum(a, 0.0)
            J[k * H:(k + 1) * H] = step_jacobian(W64, k, H, nl, a, J)
            x = h[k]
        jacobians.append(J)
        sizes.append(max(1.0, np.max(np.abs(np.concatenate(h)))))
    return rounding_growth(jacobians, sizes)
