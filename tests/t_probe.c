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
#include "stwrite.h"
#include "tap.h"

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

int main(void)
{
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
        rc = probe_compute(&p, &x, k.m, 5, 1e-3, &e);
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
