/* The whole state's step Jacobian (doc/measures.md, "The whole state's dynamics"), as
 * --spectrum, --lyapunov and --fixed-points form it from the tangent map's rows, against
 * central differences in double precision: each number of the layer's state (c and h of an
 * LSTM, h of a GRU) moved by +-EPS in a batch of streams from the same state, the layers
 * below as they were, one step run. LSTM and GRU (the reset after and before W_hn), one
 * layer and layer 1 of two, at several steps of a text. Then the fixed point of a layer
 * under a held character: F(s*) = s* to its residual, whatever the number of threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dynrun.h"
#include "gatetui/batch.h"
#include "gatetui/dynamics.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "../lib/tap.h"

#define EPS 1e-5
#define TOL 1e-9

static const char *fixture(const char *name)
{
    static char buf[1024];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/tests/fixtures/%s", top ? top : ".", name);
    return buf;
}

static int load(gt_model *m, gt_text *t, const char *model)
{
    gt_error e;
    if (model_load(m, fixture(model), NULL, &e)) {
        printf("# %s\n", e.msg);
        return -1;
    }
    if (text_load(t, fixture("report/text.txt"), m, &e)) {
        printf("# %s\n", e.msg);
        model_free(m);
        return -1;
    }
    return 0;
}

/* Item i of b set to d's state (every layer), the layer's number q moved by dq. */
static void set_item(gt_batch *b, int i, const dynrun *d, int q, double dq)
{
    const size_t H = (size_t)d->H;
    for (int k = 0; k <= d->layer; k++) {
        memcpy(batch_h(b, k, i), batch_h(&d->b, k, 0), H * sizeof(double));
        memcpy(batch_c(b, k, i), batch_c(&d->b, k, 0), H * sizeof(double));
    }
    const int lstm = d->m->cell == &gt_cell_lstm, inc = lstm && q < d->H;
    double *s = inc ? batch_c(b, d->layer, i) : batch_h(b, d->layer, i);
    s[lstm && !inc ? q - d->H : q] += dq;
}

/* The largest |J - J_fd| at the step reading tok[T] (after steps 0..T-1), and |J|'s. */
static double worst_at(const gt_model *m, int layer, const gt_text *t, size_t T, double *big)
{
    dynrun d;
    gt_batch b;
    gt_error e;
    if (dynrun_open(&d, m, layer, &e))
        return INFINITY;
    const int n = d.n, H = d.H, lstm = m->cell == &gt_cell_lstm;
    if (batch_init(&b, m, layer, 2 * n, &e)) {
        dynrun_close(&d);
        return INFINITY;
    }
    for (size_t s = 0; s < T; s++)
        dynrun_step(&d, t->tok[s], 0);
    uint16_t *tk = malloc(2 * (size_t)n * sizeof *tk);
    for (int q = 0; q < n; q++) {
        set_item(&b, 2 * q, &d, q, EPS);
        set_item(&b, 2 * q + 1, &d, q, -EPS);
    }
    for (int i = 0; i < 2 * n; i++)
        tk[i] = t->tok[T];
    batch_step(&b, 2 * n, tk);
    dynrun_step(&d, t->tok[T], 1);
    double worst = 0;
    *big = 0;
    for (int r = 0; r < n; r++)
        for (int q = 0; q < n; q++) {
            const int c = lstm && r < H;
            const double *p = c ? batch_c(&b, layer, 2 * q) : batch_h(&b, layer, 2 * q),
                         *mi = c ? batch_c(&b, layer, 2 * q + 1) : batch_h(&b, layer, 2 * q + 1);
            const int u = lstm && r >= H ? r - H : r;
            const double fd = (p[u] - mi[u]) / (2 * EPS), J = d.J[(size_t)r * n + q];
            worst = fmax(worst, fabs(J - fd));
            *big = fmax(*big, fabs(J));
        }
    free(tk);
    batch_free(&b);
    dynrun_close(&d);
    return worst;
}

static void test_fd(const char *model, const char *name, int layer)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, model)) {
        tap_ok(0, "%s: loads", name);
        return;
    }
    static const size_t at[] = {0, 7, 120, 901};
    double worst = 0, big = 0;
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        double b = 0;
        worst = fmax(worst, worst_at(&m, layer, &t, at[i], &b));
        big = fmax(big, b);
    }
    tap_ok(worst <= TOL && big > 0.1,
           "%s, layer %d: the step's whole Jacobian within %g of central differences at four "
           "steps (largest difference %.3g, largest entry %.3g)", name, layer, TOL, worst, big);
    text_free(&t);
    model_free(&m);
}

/* |F(s*) - s*| of layer 0's points by a step of a batch from each, at most FIXED_TOL. */
static void check_residual(const gt_model *m, const gt_fixed *x, const char *name)
{
    gt_batch b;
    gt_error e;
    if (batch_init(&b, m, 0, 1, &e)) {
        tap_ok(0, "%s: a batch", name);
        return;
    }
    const size_t H = (size_t)m->hidden_max;
    const int lstm = m->cell == &gt_cell_lstm;
    double worst = 0;
    for (size_t p = 0; p < x->count; p++) {
        const double *s = x->point[p].state;
        if (lstm)
            memcpy(batch_c(&b, 0, 0), s, H * sizeof *s);
        memcpy(batch_h(&b, 0, 0), s + (lstm ? H : 0), H * sizeof *s);
        batch_step(&b, 1, &x->tok);
        double sum = 0;
        for (size_t q = 0; q < H; q++) {
            const double dh = batch_h(&b, 0, 0)[q] - s[(lstm ? H : 0) + q];
            const double dc = lstm ? batch_c(&b, 0, 0)[q] - s[q] : 0;
            sum += dh * dh + dc * dc;
        }
        worst = fmax(worst, sqrt(sum));
    }
    batch_free(&b);
    tap_ok(worst <= FIXED_TOL, "%s: a step from each fixed point returns to it, |F(s*) - s*| "
           "<= %g (largest %.3g)", name, FIXED_TOL, worst);
}

/* F(s*) - s* at a fixed point, by a step from it; the same points on 1 and 2 threads. */
static void test_fixed(const char *model, const char *name, int layer, int ch)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, &t, model)) {
        tap_ok(0, "%s: loads", name);
        return;
    }
    gt_fixed a, b;
    const int tok = model_token(&m, (uint32_t)ch);
    gt_fixed_options o1 = {2000, 24, 10, 1}, o2 = {2000, 24, 10, 2};
    int rc = fixed_compute(&a, &m, layer, (uint16_t)tok, t.tok, &o1, &e);
    rc = rc ? rc : fixed_compute(&b, &m, layer, (uint16_t)tok, t.tok, &o2, &e);
    if (rc) {
        printf("# %s\n", e.msg);
        tap_ok(0, "%s: fixed points computed", name);
        text_free(&t);
        model_free(&m);
        return;
    }
    int same = a.count == b.count && a.not_converged == b.not_converged;
    for (size_t i = 0; same && i < a.count; i++)
        same = a.point[i].found_from == b.point[i].found_from &&
               !memcmp(a.point[i].state, b.point[i].state, (size_t)a.n * sizeof(double));
    tap_ok(a.count > 0 && same, "%s, layer %d, held '%c': %zu point(s), %zu not converged; the "
           "same on 1 and 2 threads, bit for bit", name, layer, ch, a.count, a.not_converged);
    if (layer == 0)
        check_residual(&m, &a, name);
    fixed_free(&a);
    fixed_free(&b);
    text_free(&t);
    model_free(&m);
}

int main(void)
{
    test_fd("report/lstm1.safetensors", "LSTM", 0);
    test_fd("report/lstm2.safetensors", "two-layer LSTM", 0);
    test_fd("report/lstm2.safetensors", "two-layer LSTM", 1);
    test_fd("report/gru1.safetensors", "GRU (reset after)", 0);
    test_fd("report/gru2.safetensors", "two-layer GRU (reset before)", 0);
    test_fd("report/gru2.safetensors", "two-layer GRU (reset before)", 1);
    test_fixed("report/lstm2.safetensors", "two-layer LSTM", 1, 'e');
    test_fixed("report/gru1.safetensors", "GRU", 0, ' ');
    test_fixed("report/lstm1.safetensors", "LSTM", 0, 'e');
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
