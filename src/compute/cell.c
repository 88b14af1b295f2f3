/* The cells (doc/measures.md, "The cells"), written once: the LSTM, the GRU and the plain
 * RNN, in float32
 * for one stream and in double for the batches, each on the nonlinearities of a kernel
 * set. The plain C set runs them as they are, so they are the reference; a vectorised set
 * runs them with its own nonlinearities, or has a one-pass version of the same equations
 * that leaves the last units to them (kernels.h). The products of the state update are
 * rounded apart (no fused multiply-add). */
#include "config.h"

#include <string.h>

#include "compute/kernels.h"

void cell32_lstm(const kern_set *k, size_t H, const float *xp, float *a, float *c, float *h)
{
    for (size_t j = 0; j < 4 * H; j++)
        a[j] += xp[j];
    float *i = a, *f = a + H, *g = a + 2 * H, *o = a + 3 * H;
    k->act(2 * H, i, 0); /* i and f */
    k->act(H, g, 1);
    k->act(H, o, 0);
    for (size_t j = 0; j < H; j++)
        h[j] = c[j] = f[j] * c[j] + i[j] * g[j];
    k->act(H, h, 1);
    for (size_t j = 0; j < H; j++)
        h[j] *= o[j];
}

void cell32_gru_gates(const kern_set *k, size_t H, const float *xp, const float *gh, float *g)
{
    for (size_t j = 0; j < 2 * H; j++)
        g[j] = xp[j] + gh[j];
    k->act(2 * H, g, 0); /* r and z */
}

void cell32_gru_state(const kern_set *k, size_t H, const float *xp, const float *gh,
                      int before, float *g, float *h)
{
    const float *r = g, *z = g + H;
    float *n = g + 2 * H;
    if (before) {
        for (size_t j = 0; j < H; j++)
            n[j] = xp[2 * H + j] + gh[2 * H + j];
    } else {
        for (size_t j = 0; j < H; j++)
            n[j] = xp[2 * H + j] + r[j] * gh[2 * H + j];
    }
    k->act(H, n, 1);
    for (size_t j = 0; j < H; j++)
        h[j] = (1.0f - z[j]) * n[j] + z[j] * h[j];
}

/* h = relu(v) for n values (NaN stays NaN, as in PyTorch) */
static void relu32(size_t n, const float *v, float *h)
{
    for (size_t j = 0; j < n; j++)
        h[j] = v[j] < 0.0f ? 0.0f : v[j];
}

void cell32_rnn(const kern_set *k, size_t H, int relu, const float *xp, float *a, float *h)
{
    for (size_t j = 0; j < H; j++)
        a[j] += xp[j];
    if (relu) {
        relu32(H, a, h);
        return;
    }
    memcpy(h, a, H * sizeof *h);
    k->act(H, h, 1);
}

/* The pre-activations of units j0 .. H-1 of the first blocks blocks (of H rows), into q. */
static void pre_rows(size_t H, size_t j0, int blocks, const kern64_pre *p, double *q)
{
    for (size_t b = 0; b < (size_t)blocks; b++)
        for (size_t r = b * H + j0; r < (b + 1) * H; r++) {
            double s = p->a[r] + p->y[r];
            if (p->da)
                s += p->da[r];
            if (p->dy)
                s += p->dy[r];
            q[r] = s;
        }
}

void cell64_lstm_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p, double *g,
                      double *t, double *c, double *h)
{
    double *q = g ? g : t, *ct = g ? t : t + 4 * H;
    const size_t m = H - j0;
    pre_rows(H, j0, 4, p, q);
    k->act64(m, q + j0, 0);         /* i */
    k->act64(m, q + H + j0, 0);     /* f */
    k->act64(m, q + 2 * H + j0, 1); /* g */
    k->act64(m, q + 3 * H + j0, 0); /* o */
    for (size_t u = j0; u < H; u++)
        ct[u] = c[u] = q[H + u] * c[u] + q[u] * q[2 * H + u];
    k->act64(m, ct + j0, 1);
    for (size_t u = j0; u < H; u++)
        h[u] = q[3 * H + u] * ct[u];
}

void cell64_lstm(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                 double *c, double *h)
{
    cell64_lstm_from(k, H, 0, p, g, t, c, h);
}

static void gru_gates_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p,
                           double *q)
{
    pre_rows(H, j0, 2, p, q);
    k->act64(H - j0, q + j0, 0);     /* r */
    k->act64(H - j0, q + H + j0, 0); /* z */
}

static void gru_state_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p,
                           int before, double *q, double *h)
{
    for (size_t u = j0; u < H; u++) {
        const size_t r = 2 * H + u;
        double an = p->a[r], yn = p->y[r];
        if (p->da)
            an += p->da[r];
        if (p->dy)
            yn += p->dy[r];
        q[r] = before ? an + yn : an + q[u] * yn;
    }
    k->act64(H - j0, q + 2 * H + j0, 1);
    for (size_t u = j0; u < H; u++)
        h[u] = (1.0 - q[H + u]) * q[2 * H + u] + q[H + u] * h[u];
}

void cell64_gru_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p, double *g,
                     double *t, double *h)
{
    double *q = g ? g : t;
    gru_gates_from(k, H, j0, p, q);
    gru_state_from(k, H, j0, p, 0, q, h);
}

void cell64_gru(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                double *h)
{
    cell64_gru_from(k, H, 0, p, g, t, h);
}

void cell64_gru_gates(const kern_set *k, size_t H, const kern64_pre *p, double *g)
{
    gru_gates_from(k, H, 0, p, g);
}

void cell64_gru_state(const kern_set *k, size_t H, const kern64_pre *p, int before, double *g,
                      double *h)
{
    gru_state_from(k, H, 0, p, before, g, h);
}

void cell64_rnn(const kern_set *k, size_t H, int relu, const kern64_pre *p, double *g,
                double *h)
{
    pre_rows(H, 0, 1, p, h);
    if (g)
        memcpy(g, h, H * sizeof *g);
    if (!relu) {
        k->act64(H, h, 1);
        return;
    }
    for (size_t u = 0; u < H; u++)
        h[u] = h[u] < 0.0 ? 0.0 : h[u];
}
