/* The signals of a layer along one run from the zero state (see signals.h). */
#include "config.h"

#include <string.h>

#include "gatetui/signals.h"

/* LSTM: the gate blocks i, f, g, o, then c and h; GRU: r, z, n, then h; RNN: the
 * pre-activation a, then h. */
static const char *const lstm_names[] = {"i", "f", "g", "o", "c", "h"};
static const char *const gru_names[] = {"r", "z", "n", "h"};
static const char *const rnn_names[] = {"a", "h"};

int signals_count(const gt_model *m)
{
    return m->arch == GT_LSTM ? 6 : m->arch == GT_GRU ? 4 : 2;
}

const char *signals_name(const gt_model *m, int s)
{
    if (s < 0 || s >= signals_count(m))
        return "?";
    return m->arch == GT_LSTM ? lstm_names[s] : m->arch == GT_GRU ? gru_names[s] : rnn_names[s];
}

int signals_parse(const gt_model *m, const char *name)
{
    for (int s = 0; s < signals_count(m); s++)
        if (strcmp(name, signals_name(m, s)) == 0)
            return s;
    return -1;
}

const char *signals_list(const gt_model *m)
{
    return m->arch == GT_LSTM ? "i, f, g, o, c, h" : m->arch == GT_GRU ? "r, z, n, h" : "a, h";
}

int signals_h(const gt_model *m)
{
    return signals_count(m) - 1;
}

int signals_is_gate(const gt_model *m, int s)
{
    if (m->arch == GT_LSTM)
        return s == GT_I || s == GT_F || s == GT_O;
    return m->arch == GT_GRU && (s == GT_R || s == GT_Z);
}

const float *signals_of(const gt_run *r, int k, int s)
{
    const gt_model *m = r->m;
    if (s < m->gates)
        return run_gates(r, k) + (size_t)s * m->hidden;
    if (m->arch == GT_LSTM && s == 4)
        return run_c(r, k);
    return run_h(r, k);
}

#define PROGRESS_EVERY 4096

int signals_pass(const gt_model *m, const uint16_t *tok, size_t n, const gt_pass_options *o,
                 gt_signals_fn fn, void *ctx, gt_error *e)
{
    gt_run r;
    int rc = run_init(&r, m, e);
    if (rc)
        return rc;
    if (o->threads > 1)
        run_set_threads(&r, o->threads);
    for (size_t t = 0; t < n; t++) {
        if (o->progress && t % PROGRESS_EVERY == 0)
            o->progress(o->progress_ctx, (double)t / (double)n);
        run_step_layers(&r, tok[t], o->layer);
        if ((rc = run_check_finite(&r, o->layer, t, e)))
            break;
        if (fn && fn(ctx, t, &r))
            break;
    }
    if (o->progress && !rc)
        o->progress(o->progress_ctx, 1.0);
    run_free(&r);
    return rc;
}
