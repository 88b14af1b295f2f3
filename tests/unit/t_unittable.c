/* The report's unit table on models built by hand whose units have known timescales: an
 * LSTM and a GRU with no recurrence (W_hh = 0) and each unit's carry gate fixed by its bias
 * alone (its input weights 0), sigma(b_j) = 2^(-1/T_j). Then the mean carry gate is
 * sigma(b_j), an edit's difference decays as c_j(s+k) - c'_j(s+k) = f_j^k (c_j(s) - c'_j(s))
 * (h for the GRU), and all three half-lives of unit j are T_j; the carry gate is above 0.9
 * exactly for the units with T_j >= 8, never below 0.1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/model.h"
#include "gatetui/report.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

#define V 5
#define H 5
static const double T[H] = {1, 2, 4, 8, 16};

static unsigned seed = 7;

static double urand(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)((seed >> 8) & 0xFFFF) / 32768.0 - 1.0;
}

/* G gate blocks of H rows, the carry gate block 1: weights 0 and bias logit(2^(-1/T)). */
static int write_model(const char *path, int G)
{
    static float w_ih[4 * H * V], w_hh[4 * H * H], b_ih[4 * H], b_hh[4 * H];
    memset(w_hh, 0, sizeof w_hh);
    memset(b_hh, 0, sizeof b_hh);
    for (int r = 0; r < G * H; r++) {
        int carry = r / H == 1;
        for (int v = 0; v < V; v++)
            w_ih[r * V + v] = carry ? 0.0f : (float)(2 * urand());
        double f = pow(2.0, -1.0 / T[r % H]);
        b_ih[r] = carry ? (float)log(f / (1 - f)) : (float)(0.3 * urand());
    }
    stw_tensor t[] = {{"rnn.weight_ih_l0", G * H, V, w_ih}, {"rnn.weight_hh_l0", G * H, H, w_hh},
                      {"rnn.bias_ih_l0", G * H, 0, b_ih}, {"rnn.bias_hh_l0", G * H, 0, b_hh}};
    const char *meta[] = {"vocab", "abcde"};
    return stw_write(path, t, 4, meta, 1);
}

static void check(const char *path, int G, const char *name)
{
    gt_model m;
    gt_error e = {0};
    if (write_model(path, G) || model_load(&m, path, NULL, &e)) {
        tap_ok(0, "%s: the model loads (%s)", name, e.msg);
        return;
    }
    uint16_t tok[256];
    for (size_t i = 0; i < sizeof tok / sizeof tok[0]; i++)
        tok[i] = (uint16_t)((urand() + 1) * 2.5) % V;
    gt_report_options o;
    report_options_init(&o);
    o.windows = 4;
    o.window_len = 64;
    o.horizon = 40;
    gt_report r;
    if (report_compute(&r, &m, tok, sizeof tok / sizeof tok[0], &o, &e) || !r.unit_table) {
        tap_ok(0, "%s: the report (%s)", name, e.msg);
        model_free(&m);
        return;
    }
    for (int j = 0; j < H; j++) {
        const gt_unit_row *u = &r.unit_table[j];
        const double tol = 1e-4 * T[j];
        tap_ok(fabs(u->mean[r.carry] - pow(2.0, -1.0 / T[j])) < 1e-6,
               "%s unit %d: mean carry gate 2^(-1/%g) (%.9f)", name, j, T[j], u->mean[r.carry]);
        tap_ok(fabs(u->halflife - T[j]) < tol, "%s unit %d: gate half-life %g (%.7f)", name, j,
               T[j], u->halflife);
        tap_ok(fabs(u->halflife_bias - T[j]) < tol, "%s unit %d: bias half-life %g (%.7f)", name,
               j, T[j], u->halflife_bias);
        tap_ok(fabs(u->halflife_measured - T[j]) < tol,
               "%s unit %d: measured half-life %g (%.7f)", name, j, T[j], u->halflife_measured);
        tap_ok(u->left == 0 && u->right == (T[j] >= 8 ? 1.0 : 0.0),
               "%s unit %d: saturation left %g right %g", name, j, u->left, u->right);
    }
    report_free(&r);
    model_free(&m);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/gatetui-t_unittable-%d.safetensors", tmp ? tmp : "/tmp",
             (int)getpid());
    check(path, 4, "LSTM");
    check(path, 3, "GRU");
    remove(path);
    return tap_done();
}
