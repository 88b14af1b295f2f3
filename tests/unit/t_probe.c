/* The probe on a model built by hand in which a hypothesis is carried only by the sum of
 * two units: an LSTM of two units over "abcd" whose cell state c is the input's value
 * (i = 1, f = 0, g = tanh of atanh of it), unit 0's and unit 1's values chosen so that
 * c_0 + c_1 is +1/6 on a and b and -1/6 on c and d while each unit alone has an AUC of
 * exactly 1/2 for "[ab]" (a and b are 4/6 and -4/6 for unit 0, c and d 1/6 and -1/6: one
 * of the two inside is above both outside, the other below them; unit 1 likewise). The
 * text is blocks of the four letters in a shuffled order, so every fold holds each as
 * often. The probe must find the hypothesis (AUC 1, accuracy 1, both units needed), no
 * single unit may (every fold's best unit at 1/2); and the weights of both units
 * positive and near each other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/mask.h"
#include "gatetui/model.h"
#include "gatetui/probe.h"
#include "gatetui/text.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

enum { V = 4, H = 2, STEPS = 4000 };

static int write_model(const char *path)
{
    static const float value[H][V] = {{4 / 6.0f, -4 / 6.0f, 1 / 6.0f, -1 / 6.0f},
                                      {-3 / 6.0f, 5 / 6.0f, -2 / 6.0f, 0}};
    static float wih[4 * H * V], whh[4 * H * H], bih[4 * H], bhh[4 * H];
    for (int j = 0; j < H; j++) {
        bih[0 * H + j] = 40;  /* i = 1 */
        bih[1 * H + j] = -40; /* f = 0 */
        bih[3 * H + j] = 40;  /* o = 1 */
        for (int c = 0; c < V; c++)
            wih[(2 * H + j) * V + c] = atanhf(value[j][c]);
    }
    stw_tensor t[] = {{"lstm.weight_ih_l0", 4 * H, V, wih},
                      {"lstm.weight_hh_l0", 4 * H, H, whh},
                      {"lstm.bias_ih_l0", 4 * H, 0, bih},
                      {"lstm.bias_hh_l0", 4 * H, 0, bhh}};
    const char *meta[] = {"vocab", "abcd"};
    return stw_write(path, t, 4, meta, 1);
}

static int write_text(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    unsigned long long r = 88172645463325252ull;
    for (int b = 0; b < STEPS / 4; b++) {
        char block[] = "abcd";
        for (int i = 3; i > 0; i--) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            int k = (int)(r % (unsigned)(i + 1));
            char x = block[i];
            block[i] = block[k], block[k] = x;
        }
        fputs(block, f);
    }
    return fclose(f);
}

/* The fit on 80,000 rows, more than the Hessian's samples (8,192 rows far from the minimum,
 * 16,384 near it, drawn by their weight in it), of 13 columns (two vectors of 4 and the rest), each
 * standardised by its own mean and scale: its weights against plain Newton's in the test
 * (on the standardised values in double, the whole Hessian, Gaussian elimination, to a
 * gradient of 1e-14), its gradient below 1e-8, and the same weights to the last bit on one
 * thread and on two. */
static unsigned long long lcg = 12345;
static double unif(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

enum { FN = 80000, FD = 13 };
_Static_assert(FN * (FD + 1) >= PROBE_FIT_THREADED, "the fit below runs on two threads");

/* The mean log-loss's gradient g (FD + 1) and Hessian hs at w, lambda 1e-3; returns |g|. */
static double plain_derivatives(const double *x, const unsigned char *y, const double *w,
                                double *g, double hs[FD + 1][FD + 2])
{
    memset(g, 0, (FD + 1) * sizeof *g);
    memset(hs, 0, sizeof(double[FD + 1][FD + 2]));
    for (int t = 0; t < FN; t++) {
        double xt[FD + 1], z = w[FD];
        for (int j = 0; j < FD; j++)
            xt[j] = x[t * FD + j], z += w[j] * xt[j];
        xt[FD] = 1;
        const double p = 1 / (1 + exp(-z));
        for (int i = 0; i <= FD; i++) {
            g[i] += (p - y[t]) * xt[i] / FN;
            for (int j = 0; j <= FD; j++)
                hs[i][j] += p * (1 - p) * xt[i] * xt[j] / FN;
        }
    }
    double norm = 0;
    for (int i = 0; i <= FD; i++) {
        if (i < FD)
            g[i] += 1e-3 * w[i], hs[i][i] += 1e-3;
        norm += g[i] * g[i];
    }
    return sqrt(norm);
}

/* With no column (every unit constant over the steps) the fit is the bias alone: the log
 * odds of the steps inside. */
static void test_no_column(void)
{
    enum { N = 1000 };
    unsigned char y[N];
    for (int t = 0; t < N; t++)
        y[t] = t % 4 == 0;
    float v[1] = {0};
    double w[1] = {0};
    gt_error e = {0};
    const gt_probe_rows rows = {v, NULL, NULL, N, 0};
    const int rc = probe_logistic(&rows, y, 1e-3, 1, w, &e);
    tap_ok(rc == GT_OK && fabs(w[0] - log(1.0 / 3)) < 1e-12,
           "the fit with no column: the bias alone, ln(1/3) (%.12f; %s)", w[0], e.msg);
}

static void test_sampled_fit(void)
{
    double *x = malloc(FN * FD * sizeof *x), w[FD + 1], w2[FD + 1], v[FD + 1] = {0}, g[FD + 1];
    double mean[FD], scale[FD];
    float *raw = malloc(FN * FD * sizeof *raw);
    unsigned char *y = malloc(FN);
    for (int j = 0; j < FD; j++)
        mean[j] = 0.25 * j - 1, scale[j] = 1 / (0.5 + 0.1 * j);
    for (int t = 0; t < FN; t++) {
        double z = -0.5;
        for (int j = 0; j < FD; j++) {
            const double a = 2 * unif() - 1 + (j ? 0.5 * x[t * FD] : 0); /* correlated */
            raw[t * FD + j] = (float)(a / scale[j] + mean[j]);
            x[t * FD + j] = ((double)raw[t * FD + j] - mean[j]) * scale[j];
            z += (j % 2 ? 0.6 : -0.8) * x[t * FD + j];
        }
        y[t] = unif() < 1 / (1 + exp(-z));
    }
    gt_error e = {0};
    const gt_probe_rows rows = {raw, mean, scale, FN, FD};
    const int rc = probe_logistic(&rows, y, 1e-3, 1, w, &e);
    const int rc2 = probe_logistic(&rows, y, 1e-3, 2, w2, &e);
    tap_ok(rc == rc2 && memcmp(w, w2, sizeof w) == 0,
           "the fit on two threads: the same weights as on one, to the last bit");
    double hs[FD + 1][FD + 2];
    for (int it = 0; it < 50 && plain_derivatives(x, y, v, g, hs) > 1e-14; it++) {
        for (int i = 0; i <= FD; i++) /* solve hs d = g: Gaussian elimination */
            hs[i][FD + 1] = g[i];
        for (int c = 0; c <= FD; c++)
            for (int i = c + 1; i <= FD; i++) {
                const double q = hs[i][c] / hs[c][c];
                for (int j = c; j <= FD + 1; j++)
                    hs[i][j] -= q * hs[c][j];
            }
        for (int i = FD; i >= 0; i--) {
            double s = hs[i][FD + 1];
            for (int j = i + 1; j <= FD; j++)
                s -= hs[i][j] * hs[j][FD + 1];
            hs[i][FD + 1] = s / hs[i][i];
            v[i] -= hs[i][FD + 1];
        }
    }
    double worst = 0;
    for (int i = 0; i <= FD; i++)
        worst = fmax(worst, fabs(w[i] - v[i]) / fmax(1, fabs(v[i])));
    const double gn = rc == GT_OK ? plain_derivatives(x, y, w, g, hs) : INFINITY;
    tap_ok(rc == GT_OK && gn < 1e-8 && worst < 1e-9,
           "the fit over 80,000 rows (its Hessian from samples of its rows): gradient %.2g, "
           "weights within %.2g of plain Newton's (bound 1e-9)", gn, worst);
    /* a warm start (units_for_95's fits, each from the one on a unit fewer): from plain
       Newton's minimum moved by 0.05 in each weight, the same minimum in fewer passes */
    double start[FD + 1], w3[FD + 1];
    for (int i = 0; i <= FD; i++)
        start[i] = v[i] + (i % 2 ? 0.05 : -0.05);
    gt_probe_work cold, warm;
    const int rc3 = probe_logistic_counted(&rows, y, 1e-3, 1, w2, &cold, &e);
    const int rc4 = probe_logistic_from(&rows, y, 1e-3, 1, start, w3, &warm, &e);
    worst = 0;
    for (int i = 0; i <= FD; i++)
        worst = fmax(worst, fabs(w3[i] - v[i]) / fmax(1, fabs(v[i])));
    tap_ok(rc3 == GT_OK && rc4 == GT_OK && worst < 1e-9 && warm.passes < cold.passes,
           "a warm start near the minimum: weights within %.2g of plain Newton's, %zu passes "
           "over the rows against %zu from zero", worst, warm.passes, cold.passes);
    free(x), free(raw), free(y);
}

int main(void)
{
    test_sampled_fit();
    test_no_column();
    char dir[] = "/tmp/t_probe.XXXXXX";
    if (!mkdtemp(dir)) {
        printf("Bail out! no temporary directory\n");
        return 1;
    }
    char mpath[64], tpath[64];
    snprintf(mpath, sizeof mpath, "%s/sum.safetensors", dir);
    snprintf(tpath, sizeof tpath, "%s/sum.txt", dir);
    gt_model m;
    gt_text t;
    gt_error e = {0};
    if (write_model(mpath) || write_text(tpath) || model_load(&m, mpath, NULL, &e) ||
        text_load(&t, tpath, &m, &e)) {
        tap_ok(0, "the sum model: %s", e.msg);
        return tap_done();
    }
    gt_mask k;
    gt_signal_matrix x;
    gt_pass_options po = {0, 1, NULL, NULL};
    gt_probe p;
    int rc = mask_from_regex(&k, &m, t.tok, t.steps, "[ab]", MASK_SECONDS, &e);
    if (rc == GT_OK)
        rc = probe_matrix(&x, &m, t.tok, t.steps, 4 /* c */, &po, &e);
    if (rc == GT_OK)
        rc = probe_compute(&p, &x, k.m, 5, 1e-3, 2, &e);
    tap_ok(rc == GT_OK && k.inside == STEPS / 2, "the probe runs (%s)", e.msg);
    if (rc == GT_OK) {
        tap_ok(p.auc == 1 && p.accuracy == 1, "the probe finds the sum: AUC %.6f, accuracy %.6f",
               p.auc, p.accuracy);
        int chance = 1;
        for (int f = 0; f < p.nfolds; f++)
            chance &= fabs(p.folds[f].best_unit_auc - 0.5) < 1e-12;
        tap_ok(chance && fabs(p.best_unit_auc - 0.5) < 1e-12,
               "no single unit does: every fold's best unit at AUC 1/2 (mean %.6f)",
               p.best_unit_auc);
        tap_ok(p.units_for_95 == 2, "units_for_95 is 2 (%d)", p.units_for_95);
        tap_ok(p.nweights == 2 && p.weights[0].w > 0 && p.weights[1].w > 0 &&
                   fabs(log(p.weights[0].w / p.weights[1].w)) < 0.2,
               "both weights positive and near each other (%g, %g)", p.weights[0].w,
               p.nweights > 1 ? p.weights[1].w : 0);
        probe_free(&p);
        free(x.x);
    }
    mask_free(&k);
    text_free(&t);
    model_free(&m);
    unlink(mpath);
    unlink(tpath);
    rmdir(dir);
    return tap_done();
}
