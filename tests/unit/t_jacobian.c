/* The tangent map and the Jacobian (doc/measures.md, "The carry line against the whole
 * derivative") against central finite differences taken with the double-precision batch
 * from the same float32 state: on random models of both kinds, both GRU reset variants and
 * layer 1 of two-layer models. Then: the numbers do not depend on the number of threads;
 * with every recurrent weight zero the Jacobian is the carry line exactly; lags past the
 * limit are refused. (The worked example of doc/measures.md is in t_perturb, on the model
 * that test builds; the fixtures of tests/cli/jacobian.sh compare with the float64 reference.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/batch.h"
#include "gatetui/jacobian.h"
#include "gatetui/model.h"
#include "gatetui/perturb.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

#define EPS 1e-5

static char dir[256];

static const char *fixture(const char *name)
{
    static char buf[1024];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/tests/fixtures/%s", top ? top : ".", name);
    return buf;
}

static int load(gt_model *m, const char *path)
{
    gt_error e;
    if (model_load(m, path, NULL, &e)) {
        printf("# %s\n", e.msg);
        return -1;
    }
    return 0;
}

/* The float32 state before step s (every layer). */
static void state_before(const gt_model *m, const uint16_t *tok, size_t s, gt_run *r)
{
    run_reset(r);
    for (size_t i = 0; i < s; i++)
        run_step(r, tok[i]);
}

/* J(T-k, k) by central differences: a batch of 2H + 1 streams from the state before T-K,
 * all reading steps T-K..T-k; then stream 1 + 2q (2 + 2q) has c_(T-k)[q] of the layer moved
 * by +EPS (-EPS) and h = o tanh(c) with it (a GRU: h moved), and all read steps up to T.
 * Column q of J in out[i * H + q]. */
static void fd_jacobian(const gt_model *m, int layer, const gt_run *r, const uint16_t *tok,
                        int K, int k, double *out)
{
    const int H = m->hidden_max, n = 2 * H + 1, lstm = m->cell == &gt_cell_lstm;
    gt_batch b;
    gt_error e;
    batch_init(&b, m, layer, n, &e);
    uint16_t *tk = malloc((size_t)n * sizeof *tk);
    for (int i = 0; i < n; i++)
        batch_set_state(&b, i, r->h, r->c);
    for (int p = 0; p <= K; p++) {
        for (int i = 0; i < n; i++)
            tk[i] = tok[p];
        batch_step(&b, n, tk);
        if (p != K - k)
            continue;
        const double *o = batch_gates(&b, layer, 0) + 3 * H;
        for (int q = 0; q < H; q++)
            for (int sgn = 0; sgn < 2; sgn++) {
                int i = 1 + 2 * q + sgn;
                double *c = batch_c(&b, layer, i), *h = batch_h(&b, layer, i);
                if (lstm) {
                    c[q] += sgn ? -EPS : EPS;
                    h[q] = o[q] * tanh(c[q]);
                } else {
                    h[q] += sgn ? -EPS : EPS;
                }
            }
    }
    for (int q = 0; q < H; q++) {
        const double *a = lstm ? batch_c(&b, layer, 1 + 2 * q) : batch_h(&b, layer, 1 + 2 * q);
        const double *z = lstm ? batch_c(&b, layer, 2 + 2 * q) : batch_h(&b, layer, 2 + 2 * q);
        for (int i = 0; i < H; i++)
            out[i * H + q] = (a[i] - z[i]) / (2 * EPS);
    }
    free(tk);
    batch_free(&b);
}

/* Every lag of J(T-k, k) against differences: the unit's entry and row norm, the Frobenius
 * norm and the diagonal's share, and at k = K the whole matrix. */
static void test_fd(const char *file, const char *name, int layer, size_t T, int K)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, fixture(file)) || text_load(&t, fixture("report/text.txt"), &m, &e)) {
        tap_ok(0, "%s loads", name);
        return;
    }
    const int H = m.hidden_max, unit = H / 3;
    gt_run r;
    run_init(&r, &m, &e);
    state_before(&m, t.tok, T - (size_t)K, &r);
    gt_jacobian j;
    if (jacobian_init(&j, &m, layer, K, 2, &e) ||
        jacobian_run(&j, r.h, r.c, t.tok + T - K, K, &e)) {
        tap_ok(0, "%s: %s", name, e.msg);
        return;
    }
    double *J = malloc((size_t)H * H * sizeof *J), worst = 0, worst_m = 0;
    for (int k = 1; k <= K; k++) {
        fd_jacobian(&m, layer, &r, t.tok + T - K, K, k, J);
        double f = 0, d = 0, row = 0;
        for (int i = 0; i < H; i++)
            for (int q = 0; q < H; q++) {
                f += J[i * H + q] * J[i * H + q];
                d += i == q ? J[i * H + q] * J[i * H + q] : 0;
                row += i == unit ? J[i * H + q] * J[i * H + q] : 0;
            }
        f = sqrt(f);
        gt_jacobian_lag l;
        jacobian_lag(&j, k, unit, &l);
        double dev = fmax(fabs(l.frob - f), fabs(l.diag - J[unit * H + unit]));
        dev = fmax(dev, fmax(fabs(l.row - sqrt(row)), fabs(l.diag_share - sqrt(d) / f) * f));
        worst = fmax(worst, dev / f);
        if (k == K)
            for (int x = 0; x < H * H; x++)
                worst_m = fmax(worst_m, fabs(jacobian_matrix(&j)[x] - J[x]) / f);
    }
    tap_ok(worst < 1e-8 && worst_m < 1e-8,
           "%s, layer %d, T = %zu, k = 1..%d: the unit's J_jj and row norm, |J|_F and the "
           "diagonal's share within %.2g of central differences (relative to |J|_F), J(T-K, K) "
           "within %.2g", name, layer, T, K, worst, worst_m);
    free(J);
    jacobian_free(&j);
    run_free(&r);
    text_free(&t);
    model_free(&m);
}

/* The linearized curve against central differences from the same state: the original and
 * the edit at step s, then two more streams from the original state after s moved by
 * +-EPS times the edit's difference there (every layer up to this one), on the original's
 * tokens. */
static void test_linearized(const char *file, const char *name, int layer, size_t s, int tok)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, fixture(file)) || text_load(&t, fixture("report/text.txt"), &m, &e)) {
        tap_ok(0, "%s loads", name);
        return;
    }
    enum { K = 40 };
    const int H = m.hidden_max, lstm = m.cell == &gt_cell_lstm;
    gt_run r;
    run_init(&r, &m, &e);
    state_before(&m, t.tok, s, &r);
    uint16_t ed[K + 1];
    memcpy(ed, t.tok + s, sizeof ed);
    ed[0] = (uint16_t)tok;
    gt_perturb p, q;
    perturb_init(&p, &m, layer, K, 1, &e);
    perturb_init(&q, &m, layer, K, 6, &e);
    const gt_perturb_result *res = perturb_one(&p, r.h, r.c, t.tok + s, ed, K + 1);
    /* six at once go through the step's derivative formed as a matrix, one through the
     * weights (tangent.c): the same curve */
    const uint16_t *six[6] = {ed, ed, ed, ed, ed, ed};
    perturb_run(&q, r.h, r.c, t.tok + s, six, 6, K + 1);
    double ways = 0;
    for (int k = 0; k <= K; k++)
        ways = fmax(ways, fabs(q.res[5].lin[k] - res->lin[k]) / res->lin[0]);
    gt_batch b;
    batch_init(&b, &m, layer, 4, &e);
    for (int i = 0; i < 4; i++)
        batch_set_state(&b, i, r.h, r.c);
    double worst = 0;
    for (int k = 0; k <= K; k++) {
        uint16_t tk[4] = {t.tok[s + (size_t)k], ed[k], t.tok[s + (size_t)k], t.tok[s + (size_t)k]};
        batch_step(&b, 4, tk);
        if (k == 0) /* streams 2 and 3: the original state -+ EPS times the difference */
            for (int ly = 0; ly <= layer; ly++)
                for (int v = 0; v < 2; v++) {
                    double *x0 = v ? batch_c(&b, ly, 0) : batch_h(&b, ly, 0);
                    double *x1 = v ? batch_c(&b, ly, 1) : batch_h(&b, ly, 1);
                    double *xp = v ? batch_c(&b, ly, 2) : batch_h(&b, ly, 2);
                    double *xm = v ? batch_c(&b, ly, 3) : batch_h(&b, ly, 3);
                    for (int u = 0; u < H; u++) {
                        xp[u] = x0[u] + EPS * (x1[u] - x0[u]);
                        xm[u] = x0[u] - EPS * (x1[u] - x0[u]);
                    }
                }
        const double *a = lstm ? batch_c(&b, layer, 2) : batch_h(&b, layer, 2);
        const double *z = lstm ? batch_c(&b, layer, 3) : batch_h(&b, layer, 3);
        double n2 = 0;
        for (int u = 0; u < H; u++)
            n2 += (a[u] - z[u]) * (a[u] - z[u]);
        worst = fmax(worst, fabs(res->lin[k] - sqrt(n2) / (2 * EPS)) / res->lin[0]);
    }
    tap_ok(worst < 1e-8 && res->lin[0] > 0,
           "%s, layer %d, edit at %zu: the linearized curve within %.2g of central "
           "differences (relative to L(0))", name, layer, s, worst);
    tap_ok(ways < 1e-13, "%s, layer %d: one tangent through the weights, six through the "
           "formed derivative: within %.2g", name, layer, ways);
    batch_free(&b);
    perturb_free(&q);
    perturb_free(&p);
    run_free(&r);
    text_free(&t);
    model_free(&m);
}

/* Every number of two runs the same, bit for bit. */
static int same_runs(const gt_jacobian *a, const gt_jacobian *b, int K)
{
    const size_t H = (size_t)a->H;
    int same = memcmp(a->mat, b->mat, H * H * sizeof *a->mat) == 0;
    for (int k = 1; k <= K; k++)
        for (int u = 0; u < a->H; u++) {
            gt_jacobian_lag x, y;
            jacobian_lag(a, k, u, &x);
            jacobian_lag(b, k, u, &y);
            same &= x.frob == y.frob && x.carry_frob == y.carry_frob &&
                    x.diag_share == y.diag_share && x.diag == y.diag && x.row == y.row &&
                    x.carry == y.carry;
        }
    return same;
}

/* 1 and 3 threads split the rows differently, and the products cut into parts of rows (one
 * row each here; at most JACOBIAN_STOP_MACS multiply-adds each at H of 600 and more) with the
 * stop flag read between them: the same numbers, bit for bit; a stop flag set: GT_EFAIL. */
static void test_threads(const char *file, const char *name)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, fixture(file)) || text_load(&t, fixture("report/text.txt"), &m, &e)) {
        tap_ok(0, "%s loads", name);
        return;
    }
    gt_run r;
    run_init(&r, &m, &e);
    state_before(&m, t.tok, 500, &r);
    gt_jacobian a, b, c;
    jacobian_init(&a, &m, 0, 30, 1, &e);
    jacobian_init(&b, &m, 0, 30, 3, &e);
    jacobian_init(&c, &m, 0, 30, 2, &e);
    atomic_int stop = 0;
    c.part_macs = 1;
    c.stop = &stop;
    jacobian_run(&a, r.h, r.c, t.tok + 500, 30, &e);
    jacobian_run(&b, r.h, r.c, t.tok + 500, 30, &e);
    int rc = jacobian_run(&c, r.h, r.c, t.tok + 500, 30, &e);
    tap_ok(a.threads == 1 && same_runs(&a, &b, 30), "%s: the Jacobian on 1 and on %d threads, "
           "bit for bit", name, b.threads);
    tap_ok(rc == GT_OK && same_runs(&a, &c, 30),
           "%s: the products a row at a time on %d threads, the stop flag read between them: "
           "the same numbers, bit for bit", name, c.threads);
    stop = 1;
    gt_error e2 = {0};
    rc = jacobian_run(&c, r.h, r.c, t.tok + 500, 30, &e2);
    tap_ok(rc == GT_EFAIL && strstr(e2.msg, "stopped") && c.K == 0,
           "%s: the stop flag set, the run stops: %s", name, e2.msg);
    e2.msg[0] = 0;
    tap_ok(jacobian_run(&a, r.h, r.c, t.tok + 500, 31, &e2) == GT_EINPUT && e2.msg[0],
           "a lag past the limit is refused: %s", e2.msg);
    jacobian_free(&a);
    jacobian_free(&b);
    jacobian_free(&c);
    run_free(&r);
    text_free(&t);
    model_free(&m);
}

/* A random model of H units, one-hot input of V = 4, every recurrent weight zero. */
static void write_closed(const char *path, int lstm, int H)
{
    const int G = lstm ? 4 : 3, V = 4;
    float *w_ih = malloc((size_t)G * H * V * sizeof *w_ih), *w_hh = calloc((size_t)G * H * H, 4);
    float *b = malloc((size_t)G * H * sizeof *b);
    unsigned s = 7;
    for (int i = 0; i < G * H * V; i++)
        w_ih[i] = (float)((s = s * 1103515245u + 12345u) >> 16 & 0x7FFF) / 16384.0f - 1.0f;
    for (int i = 0; i < G * H; i++)
        b[i] = (float)((s = s * 1103515245u + 12345u) >> 16 & 0x7FFF) / 16384.0f - 0.5f;
    stw_tensor t[] = {{"rnn.weight_ih_l0", G * H, V, w_ih}, {"rnn.weight_hh_l0", G * H, H, w_hh},
                      {"rnn.bias_ih_l0", G * H, 0, b}, {"rnn.bias_hh_l0", G * H, 0, b}};
    const char *meta[] = {"vocab", "abcd"};
    stw_write(path, t, 4, meta, 1);
    free(w_ih);
    free(w_hh);
    free(b);
}

/* With W_hh = 0 nothing returns through h: J = C exactly, off the diagonal exactly 0. */
static void test_closed(int lstm)
{
    char path[512];
    snprintf(path, sizeof path, "%s/closed%d.bin", dir, lstm);
    write_closed(path, lstm, 7);
    gt_model m;
    gt_error e;
    if (load(&m, path)) {
        tap_ok(0, "the closed model loads");
        return;
    }
    const uint16_t tok[21] = {0, 1, 2, 3, 3, 2, 1, 0, 0, 2, 1, 3, 0, 1, 1, 2, 3, 0, 2, 2, 1};
    gt_jacobian j;
    jacobian_init(&j, &m, 0, 20, 2, &e);
    jacobian_run(&j, NULL, NULL, tok, 20, &e);
    int exact = 1;
    for (int k = 1; k <= 20; k++)
        for (int u = 0; u < m.hidden_max; u++) {
            gt_jacobian_lag l;
            jacobian_lag(&j, k, u, &l);
            exact &= l.diag == l.carry && l.row == fabs(l.carry) && l.frob == l.carry_frob &&
                     l.diag_share == 1.0 && l.carry > 0 && l.carry < 1;
        }
    for (int i = 0; i < m.hidden_max; i++)
        for (int q = 0; q < m.hidden_max; q++)
            exact &= i == q || jacobian_matrix(&j)[i * m.hidden_max + q] == 0.0;
    tap_ok(exact, "%s, every recurrent weight zero: J = C exactly at every lag and unit, 0 off "
           "the diagonal, diagonal share 1", lstm ? "LSTM" : "GRU");
    jacobian_free(&j);
    model_free(&m);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gatetui-t_jacobian-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_fd("report/lstm1.safetensors", "lstm1", 0, 300, 16);
    test_fd("report/lstm2.safetensors", "lstm2", 1, 250, 12);
    test_fd("report/lstm2.safetensors", "lstm2", 0, 90, 12);
    test_fd("report/gru1.safetensors", "gru1 (reset after)", 0, 400, 16);
    test_fd("report/gru2.safetensors", "gru2 (reset before)", 1, 200, 12);
    test_fd("report/gru2.safetensors", "gru2 (reset before)", 0, 33, 12);
    test_fd("gru_before.safetensors", "gru_before (one-hot)", 0, 40, 8);
    test_linearized("report/lstm1.safetensors", "lstm1", 0, 37, 0);
    test_linearized("report/lstm2.safetensors", "lstm2", 1, 64, 12);
    test_linearized("report/gru1.safetensors", "gru1", 0, 44, 13);
    test_linearized("report/gru2.safetensors", "gru2", 1, 150, 18);
    test_linearized("report/gru2.safetensors", "gru2", 0, 80, 11);
    test_threads("report/lstm1.safetensors", "lstm1");
    test_threads("report/gru2.safetensors", "gru2 (reset before)");
    test_closed(1);
    test_closed(0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return tap_done();
}
