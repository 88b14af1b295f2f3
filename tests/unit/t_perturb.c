/* The perturbation engine, once with each kernel set this processor runs (each in a
 * process of its own, named at the start of each line): batched runs against the float32
 * engine and against themselves; the half-life; the curves against the float64 reference
 * (tests/fixtures/report/perturb_*.json, made by tests/ref/report_ref.py); the check
 * (doc/measures.md example 2) that with every recurrent weight zero the measured
 * difference is exactly the forget-only one (the return path is closed); and the
 * report's float32 mode against double. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/batch.h"
#include "gatetui/jacobian.h"
#include "compute/kernels.h"
#include "gatetui/model.h"
#include "gatetui/perturb.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

static char dir[256];

static const char *path_in(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static unsigned seed = 99;

static double urand(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)((seed >> 8) & 0xFFFF) / 32768.0 - 1.0;
}

static int load(gt_model *m, const char *path)
{
    gt_error e = {0};
    int rc = model_load(m, path, NULL, &e);
    if (rc)
        printf("# %s\n", e.msg);
    return rc;
}

static const char *fixture(const char *name)
{
    static char buf[1024];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/tests/fixtures/report/%s", top ? top : ".", name);
    return buf;
}

/* A batch stepped in double against the float32 engine, and each item the same alone as
 * in a batch. */
static void test_batch(const char *name)
{
    gt_model m;
    char file[64];
    snprintf(file, sizeof file, "%s.safetensors", name);
    if (load(&m, fixture(file))) {
        tap_ok(0, "%s loads", name);
        return;
    }
    gt_error e;
    gt_run r;
    gt_batch big, one;
    run_init(&r, &m, &e);
    batch_init(&big, &m, m.layers - 1, 7, &e);
    batch_init(&one, &m, m.layers - 1, 1, &e);
    for (int i = 0; i < 7; i++)
        batch_set_state(&big, i, NULL, NULL);
    batch_set_state(&one, 0, NULL, NULL);
    double worst = 0;
    int same = 1;
    uint16_t tok[7];
    for (int s = 0; s < 40; s++) {
        for (int i = 0; i < 7; i++)
            tok[i] = (uint16_t)((s * 7 + i * 3) % m.vocab);
        run_step(&r, tok[3]);
        batch_step(&big, 7, tok);
        batch_step(&one, 1, tok + 3);
        const int H = m.hidden_max, G = m.gates;
        for (int k = 0; k < m.layers; k++) {
            for (int j = 0; j < H; j++) {
                double d = fabs(batch_h(&big, k, 3)[j] - run_h(&r, k)[j]);
                if (m.cell == &gt_cell_lstm)
                    d = fmax(d, fabs(batch_c(&big, k, 3)[j] - run_c(&r, k)[j]));
                worst = fmax(worst, d);
                same &= batch_h(&big, k, 3)[j] == batch_h(&one, k, 0)[j];
            }
            for (int j = 0; j < G * H; j++) {
                worst = fmax(worst, fabs(batch_gates(&big, k, 3)[j] - run_gates(&r, k)[j]));
                same &= batch_gates(&big, k, 3)[j] == batch_gates(&one, k, 0)[j];
            }
        }
    }
    tap_ok(worst < 1e-5, "%s: 40 steps in double agree with the float32 engine (%.2g)", name,
           worst);
    tap_ok(same, "%s: an item's run does not depend on the batch around it", name);
    batch_free(&big);
    batch_free(&one);
    run_free(&r);
    model_free(&m);
}

static void test_halflife(void)
{
    const double a[] = {1, 0.8, 0.4}, b[] = {2, 1}, c[] = {1, 0.9, 0.8}, d[] = {0, 0, 0},
                 z[] = {2, 0}, g[] = {4, 3, 2.5, 1.9};
    tap_near(perturb_halflife(a, 2), 1 + log(0.8 / 0.5) / log(0.8 / 0.4), 1e-15,
             "half-life interpolated log-linearly between 1 and 2");
    tap_near(perturb_halflife(b, 1), 1, 1e-15, "ratio exactly 0.5 at k = 1: half-life 1");
    tap_ok(perturb_halflife(c, 2) == PERTURB_NONE, "never halves within K: none");
    tap_ok(perturb_halflife(d, 2) == PERTURB_NONE, "zero at k = 0: none");
    tap_near(perturb_halflife(z, 1), 0, 0, "drops to zero at k = 1: 0");
    tap_near(perturb_halflife(g, 3), 2 + log(0.625 / 0.5) / log(0.625 / 0.475), 1e-15,
             "ratios 0.75, 0.625, 0.475: between 2 and 3");
}

static void test_ratio(void)
{
    /* measured falls below PERTURB_FLOOR of its start after k = 2 */
    const double m[] = {2, 1e-3, 4e-13, 1e-13, 3e-16}, f[] = {2, 1e-3, 1e-14, 1e-16, 1e-20};
    int k;
    double r = perturb_ratio(m, f, 4, &k);
    tap_ok(k == 2 && r == 40, "the ratio is taken at the last k above rounding (k %d, %g)", k, r);
    r = perturb_ratio(m, f, 1, &k);
    tap_ok(k == 1 && r == 1, "within K when all are above it (k %d, %g)", k, r);
    const double z[] = {0, 0}, fz[] = {1, 0};
    r = perturb_ratio(z, f, 1, &k);
    tap_ok(isnan(r) && k == -1, "no difference at k = 0: none");
    r = perturb_ratio(m, fz, 1, &k);
    tap_ok(isnan(r) && k == -1, "forget-only zero there: none");
}

static int close_rel(double got, double want)
{
    if (fabs(want) > 1e-6)
        return fabs(got - want) <= 1e-5 * fabs(want);
    return fabs(got - want) <= 1e-11;
}

/* Compares one curve with the reference's; returns the worst relative difference or -1. */
static double curve_diff(const double *got, const json_t *want, int K, int *ok)
{
    double worst = 0;
    if (json_array_size(want) != (size_t)K + 1) {
        *ok = 0;
        return -1;
    }
    for (int k = 0; k <= K; k++) {
        double w = json_number_value(json_array_get(want, (size_t)k));
        if (!close_rel(got[k], w)) {
            *ok = 0;
            printf("#   k = %d: got %.12g want %.12g\n", k, got[k], w);
        }
        if (fabs(w) > 1e-6)
            worst = fmax(worst, fabs(got[k] - w) / fabs(w));
    }
    return worst;
}

/* The linearized curve: a product of up to K steps' derivatives along the text's run, which
 * here starts from the float32 state and there from the float64 one (1e-7 apart): where it
 * has fallen far below its start its relative error grows (to 1e-5 at 1e-6 of its start), so
 * each value is within 1e-5 of itself or within 1e-7 of the curve's start. (From the same
 * state, t_jacobian finds it within 1e-8 of differences at every k.) */
static double lin_diff(const double *got, const json_t *want, int K, int *ok)
{
    if (json_array_size(want) != (size_t)K + 1) {
        *ok = 0;
        return -1;
    }
    double worst = 0, w0 = json_number_value(json_array_get(want, 0));
    for (int k = 0; k <= K; k++) {
        double w = json_number_value(json_array_get(want, (size_t)k)), d = fabs(got[k] - w);
        if (!(d <= 1e-5 * fabs(w) || d <= 1e-7 * w0)) {
            *ok = 0;
            printf("#   k = %d: got %.12g want %.12g\n", k, got[k], w);
        }
        worst = fmax(worst, d / w0);
    }
    return worst;
}

static int same_halflife(double got, const json_t *want)
{
    if (json_is_null(want))
        return got == PERTURB_NONE;
    return got != PERTURB_NONE && fabs(got - json_number_value(want)) <= 1e-3;
}

/* Each unit's D0 and how long it lasts, measured and forget-only, against the reference's
 * edit `want`. */
static void check_units(const gt_perturb_result *res, const json_t *want, int H,
                        const char *desc)
{
    int units = 1, checked = 0;
    const json_t *d0 = json_object_get(want, "d0"), *last = json_object_get(want, "last"),
                 *lfo = json_object_get(want, "last_fo"),
                 *margin = json_object_get(want, "margin");
    double norm = 0;
    for (int j = 0; j < H; j++)
        norm = hypot(norm, json_number_value(json_array_get(d0, (size_t)j)));
    for (int j = 0; j < H; j++) {
        /* each unit within 1e-5 of itself or 1e-6 of the whole difference */
        double wd = json_number_value(json_array_get(d0, (size_t)j));
        if (!close_rel(res->d0[j], wd) && !(fabs(res->d0[j] - wd) <= 1e-6 * norm)) {
            units = 0;
            printf("#   unit %d: D0 %.12g, want %.12g\n", j, res->d0[j], wd);
        }
        const json_t *mg = json_array_get(margin, (size_t)j);
        if (json_is_number(mg) && json_number_value(mg) < 1e-4)
            continue; /* a ratio within 1e-4 of one half: either answer is right */
        checked++;
        if (res->last[j] != json_integer_value(json_array_get(last, (size_t)j)) ||
            res->last_fo[j] != json_integer_value(json_array_get(lfo, (size_t)j))) {
            units = 0;
            printf("#   unit %d: last %d, %d; want %lld, %lld\n", j, res->last[j],
                   res->last_fo[j],
                   (long long)json_integer_value(json_array_get(last, (size_t)j)),
                   (long long)json_integer_value(json_array_get(lfo, (size_t)j)));
        }
    }
    tap_ok(units, "%s: D0 per unit, and how long each of %d units lasts", desc, checked);
}

/* One edit of the reference (`want`: its changes and results) run from the state before its
 * first step: the curves, the half-lives and the units. ed is a buffer of t->steps. */
static void check_edit(const char *name, const gt_model *m, const gt_text *t, gt_run *r,
                       gt_perturb *p, uint16_t *ed, const json_t *want)
{
    const json_t *ch = json_object_get(want, "changes");
    size_t s = (size_t)json_integer_value(json_array_get(json_array_get(ch, 0), 0));
    memcpy(ed, t->tok, t->steps * sizeof *ed);
    char desc[128];
    int len = snprintf(desc, sizeof desc, "%s: edit", name);
    for (size_t c = 0; c < json_array_size(ch); c++) {
        const json_t *pair = json_array_get(ch, c);
        size_t pos = (size_t)json_integer_value(json_array_get(pair, 0));
        int tok = (int)json_integer_value(json_array_get(pair, 1));
        ed[pos] = (uint16_t)tok;
        if (len < (int)sizeof desc - 16)
            len += snprintf(desc + len, sizeof desc - (size_t)len, " %zu=%d", pos, tok);
    }
    run_reset(r);
    for (size_t i = 0; i < s; i++)
        run_step(r, t->tok[i]);
    const gt_perturb_result *res = perturb_one(p, r->h, r->c, t->tok + s, ed + s, t->steps - s);
    int K = (int)json_integer_value(json_object_get(want, "K"));
    tap_ok(res && res->K == K, "%s: K = %d", desc, res ? res->K : -1);
    if (!res || res->K != K)
        return;
    int ok = 1;
    double w = 0;
    if (m->cell == &gt_cell_lstm)
        w = fmax(w, curve_diff(res->dc, json_object_get(want, "dc"), K, &ok));
    else
        ok &= json_is_null(json_object_get(want, "dc")) && res->dc == NULL;
    w = fmax(w, curve_diff(res->dh, json_object_get(want, "dh"), K, &ok));
    w = fmax(w, curve_diff(res->fo, json_object_get(want, "fo"), K, &ok));
    tap_ok(ok, "%s: D_c, D_h and F within 1e-5 relative of float64 (worst %.2g)", desc, w);
    int lok = 1;
    double lw = lin_diff(res->lin, json_object_get(want, "lin"), K, &lok);
    lok &= same_halflife(res->hl_lin, json_object_get(want, "halflife_linearized"));
    tap_ok(lok, "%s: the linearized curve within 1e-5 relative (or 1e-7 of its start) of "
           "float64 central differences (worst %.2g), half-life %.3f", desc, lw, res->hl_lin);
    tap_ok(same_halflife(res->hl_c, json_object_get(want, "halflife_cell")) &&
               same_halflife(res->hl_h, json_object_get(want, "halflife_hidden")) &&
               same_halflife(res->hl_fo, json_object_get(want, "halflife_forget_only")),
           "%s: half-lives %.3f, %.3f, forget-only %.3f", desc, res->hl_c, res->hl_h,
           res->hl_fo);
    check_units(res, want, model_width(m, p->layer), desc); /* the layer's units */
}

/* One fixture line: model, options (--layer N, --horizon K). */
static void test_fixture(const char *name, const char *model)
{
    char file[128];
    snprintf(file, sizeof file, "perturb_%s.json", name);
    json_error_t jerr;
    json_t *root = json_load_file(fixture(file), 0, &jerr);
    if (!root) {
        tap_ok(0, "%s: %s", file, jerr.text);
        return;
    }
    gt_model m;
    gt_text t;
    gt_error e;
    snprintf(file, sizeof file, "%s.safetensors", model);
    if (load(&m, fixture(file))) {
        tap_ok(0, "%s loads", model);
        json_decref(root);
        return;
    }
    if (text_load(&t, fixture("text.txt"), &m, &e)) {
        tap_ok(0, "text.txt: %s", e.msg);
        model_free(&m);
        json_decref(root);
        return;
    }
    int layer = (int)json_integer_value(json_object_get(root, "layer"));
    int horizon = (int)json_integer_value(json_object_get(root, "horizon"));
    tap_ok((size_t)json_integer_value(json_object_get(root, "steps")) == t.steps,
           "%s: the text has the reference's %zu steps", name, t.steps);
    gt_run r;
    gt_perturb p;
    run_init(&r, &m, &e);
    perturb_init(&p, &m, layer, horizon, 1, &e);
    uint16_t *ed = malloc(t.steps * sizeof *ed);
    const json_t *edits = json_object_get(root, "edits");
    for (size_t x = 0; x < json_array_size(edits); x++)
        check_edit(name, &m, &t, &r, &p, ed, json_array_get(edits, x));
    free(ed);
    perturb_free(&p);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    json_decref(root);
}

static void test_fixtures(void)
{
    FILE *f = fopen(fixture("PERTURB"), "r");
    if (!f) {
        tap_ok(0, "%s opens", fixture("PERTURB"));
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char name[64], model[64];
        if (line[0] == '#' || sscanf(line, "%63s %63s", name, model) != 2)
            continue;
        test_fixture(name, model);
    }
    fclose(f);
}

/* A one-layer model with every recurrent weight zero: the gates depend on the input only,
 * so after the edit both texts have the same f, i, g and the cell difference is carried by
 * f alone: measured equals forget-only (to rounding). GRU: the same with z. */
static void write_closed(const char *file, int gru)
{
    enum { V = 5, H = 6 };
    const int G = gru ? 3 : 4;
    float w_ih[4 * H * V], w_hh[4 * H * H] = {0}, b_ih[4 * H], b_hh[4 * H];
    for (int i = 0; i < G * H * V; i++)
        w_ih[i] = (float)(1.5 * urand());
    for (int i = 0; i < G * H; i++) {
        b_ih[i] = (float)(0.5 * urand());
        b_hh[i] = (float)(0.5 * urand());
    }
    for (int j = H; j < 2 * H; j++)
        b_ih[j] += 2.5f; /* f or z near 0.9: a difference that lasts */
    stw_tensor t[] = {{"rnn.weight_ih_l0", G * H, V, w_ih},
                      {"rnn.weight_hh_l0", G * H, H, w_hh},
                      {"rnn.bias_ih_l0", G * H, 0, b_ih},
                      {"rnn.bias_hh_l0", G * H, 0, b_hh}};
    const char *meta[] = {"vocab", "abcde"};
    stw_write(path_in(file), t, 4, meta, 1);
}

static void test_closed(int gru)
{
    const char *file = gru ? "closed_gru.bin" : "closed_lstm.bin";
    write_closed(file, gru);
    gt_model m;
    gt_error e;
    if (load(&m, path_in(file))) {
        tap_ok(0, "%s loads", file);
        return;
    }
    enum { N = 40 };
    uint16_t orig[N], ed[N];
    for (int i = 0; i < N; i++)
        orig[i] = ed[i] = (uint16_t)((i * 3 + i / 4) % 5);
    ed[0] = (uint16_t)((orig[0] + 2) % 5);
    gt_run r;
    gt_perturb p;
    run_init(&r, &m, &e);
    for (int i = 0; i < 7; i++)
        run_step(&r, (i * 2) % 5);
    perturb_init(&p, &m, 0, 32, 1, &e);
    const gt_perturb_result *res = perturb_one(&p, r.h, r.c, orig, ed, N);
    const double *meas = gru ? res->dh : res->dc;
    double worst = 0;
    for (int k = 0; k <= res->K; k++)
        worst = fmax(worst, fabs(meas[k] - res->fo[k]) / res->fo[k]);
    tap_ok(res->K == 32 && meas[32] > 1e-3 * meas[0] && worst < 1e-12,
           "%s, every recurrent weight zero: measured %s equals forget-only at every k "
           "(relative %.2g; D(32)/D(0) = %.3g)", gru ? "GRU" : "LSTM", gru ? "D_h" : "D_c", worst,
           meas[32] / meas[0]);
    tap_ok(fabs((gru ? res->hl_h : res->hl_c) - res->hl_fo) < 1e-9,
           "%s, return path closed: both half-lives %.4f", gru ? "GRU" : "LSTM", res->hl_fo);
    int units = 1;
    for (int j = 0; j < m.hidden_max; j++)
        units &= res->d0[j] == 0 || res->last[j] == res->last_fo[j];
    tap_ok(units, "%s, return path closed: each unit lasts as long as its gate says",
           gru ? "GRU" : "LSTM");
    perturb_free(&p);
    run_free(&r);
    model_free(&m);
}

/* doc/measures.md example 2: the scalar LSTM (i = 1/2, f = o = 3/4) whose candidate also reads h,
 * g = tanh(x ln 3 + u h). Its input at step 0 moved by about 1e-6 (a third token whose
 * embedding is 1 + 1e-6): the measured D_c(2) / D_c(0) is dc_3/dc_1 = 1.317600, the
 * forget-only one f f = 0.5625; with u = 0 (every recurrent weight zero) both are 0.5625. */
static void test_example_carry(float u)
{
    float emb[3] = {1, 0, 1.000001f};
    float w_ih[4] = {0, 0, logf(3), 0}, w_hh[4] = {0, 0, u, 0},
          b_ih[4] = {0, logf(3), 0, logf(3)}, b_hh[4] = {0};
    stw_tensor t[] = {{"embedding.weight", 3, 1, emb}, {"lstm.weight_ih_l0", 4, 1, w_ih},
                      {"lstm.weight_hh_l0", 4, 1, w_hh}, {"lstm.bias_ih_l0", 4, 0, b_ih},
                      {"lstm.bias_hh_l0", 4, 0, b_hh}};
    const char *meta[] = {"vocab", "abc"};
    stw_write(path_in("carry.bin"), t, 5, meta, 1);
    gt_model m;
    gt_error e;
    gt_perturb p;
    if (load(&m, path_in("carry.bin")) || perturb_init(&p, &m, 0, 8, 1, &e)) {
        tap_ok(0, "the worked example's scalar LSTM loads");
        return;
    }
    const uint16_t orig[3] = {0, 1, 1}, ed[3] = {2, 1, 1};
    const gt_perturb_result *r = perturb_one(&p, NULL, NULL, orig, ed, 3);
    double want = u != 0 ? 1.317600 : 0.5625;
    tap_ok(r->K == 2 && fabs(r->dc[2] / r->dc[0] - want) < 5e-6,
           "example 2's scalar LSTM, u = %g: measured D_c(2)/D_c(0) = %.6f (dc3/dc1 = %.6f)", u,
           r->dc[2] / r->dc[0], want);
    tap_ok(fabs(r->fo[2] / r->fo[0] - 0.5625) < 1e-7, /* ln 3 is a float32 in the file */
           "example 2's scalar LSTM, u = %g: forget-only F(2)/F(0) = %.6f, the carry line f f = 0.5625",
           u, r->fo[2] / r->fo[0]);
    tap_ok(fabs(r->lin[2] / r->lin[0] - want) < 5e-6,
           "example 2's scalar LSTM, u = %g: linearized L(2) = %.6f", u, r->lin[2] / r->lin[0]);
    /* the derivative itself: J(0, 2) = dc3/dc1 from the text a b b (steps 0, 1, 2) */
    gt_jacobian j;
    gt_jacobian_lag l1, l2;
    if (jacobian_init(&j, &m, 0, 2, 1, &e) || jacobian_run(&j, NULL, NULL, orig, 2, &e)) {
        tap_ok(0, "the Jacobian of the worked example: %s", e.msg);
    } else {
        jacobian_lag(&j, 1, 0, &l1);
        jacobian_lag(&j, 2, 0, &l2);
        if (u != 0)
            tap_ok(fabs(l2.diag - 1.317600) < 5e-7 && fabs(l2.carry - 0.5625) < 1e-7 &&
                       fabs(l2.diag - l2.carry - 0.755100) < 5e-7 &&
                       fabs(l1.diag - 1.078827) < 5e-7,
                   "example 2's scalar LSTM: J(0, 2) = dc3/dc1 = %.6f against the carry line "
                   "%.6f, the other terms %.6f; dc3/dc2 = %.6f", l2.diag, l2.carry,
                   l2.diag - l2.carry, l1.diag);
        else
            tap_ok(l2.diag == l2.carry && fabs(l2.carry - 0.5625) < 1e-7 && l1.diag == l1.carry,
                   "example 2's scalar LSTM, recurrent weight zero: J(0, 2) = %.6f is the "
                   "carry line exactly", l2.diag);
    }
    jacobian_free(&j);
    perturb_free(&p);
    model_free(&m);
}

/* On a model with recurrent weights the return path is open: measured and forget-only
 * part. And the edge cases: no change, a text ending before K, several edits in one run. */
static void test_open_and_edges(void)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, fixture("lstm1.safetensors")) || text_load(&t, fixture("text.txt"), &m, &e)) {
        tap_ok(0, "lstm1 and text.txt load");
        return;
    }
    gt_perturb p, q;
    perturb_init(&p, &m, 0, 64, 3, &e);
    perturb_init(&q, &m, 0, 64, 1, &e);
    uint16_t ed[3][80];
    const uint16_t *eds[3] = {ed[0], ed[1], ed[2]};
    for (int x = 0; x < 3; x++) {
        memcpy(ed[x], t.tok, sizeof ed[x]);
        ed[x][0] = (uint16_t)((t.tok[0] + 1 + x) % m.vocab);
    }
    ed[2][5] = (uint16_t)((t.tok[5] + 1) % m.vocab);
    perturb_run(&p, NULL, NULL, t.tok, eds, 3, 80);
    double gap = 0;
    for (int k = 1; k <= p.res[0].K; k++)
        gap = fmax(gap, fabs(p.res[0].dc[k] - p.res[0].fo[k]) / p.res[0].dc[k]);
    tap_ok(gap > 0.01, "recurrent weights: measured and forget-only part (by up to %.0f%%)",
           100 * gap);
    int same = 1;
    for (int x = 0; x < 3; x++) {
        const gt_perturb_result *one = perturb_one(&q, NULL, NULL, t.tok, ed[x], 80);
        for (int k = 0; k <= 64; k++)
            same &= one->dc[k] == p.res[x].dc[k] && one->dh[k] == p.res[x].dh[k] &&
                    one->fo[k] == p.res[x].fo[k];
    }
    tap_ok(same, "three edits in one run give exactly what each gives alone");
    const gt_perturb_result *none = perturb_one(&q, NULL, NULL, t.tok, t.tok, 80);
    int zero = none->hl_c == PERTURB_NONE && none->hl_fo == PERTURB_NONE;
    for (int k = 0; k <= 64; k++)
        zero &= none->dc[k] == 0 && none->dh[k] == 0 && none->fo[k] == 0;
    for (int j = 0; j < m.hidden_max; j++)
        zero &= none->last[j] == -1 && none->last_fo[j] == -1;
    tap_ok(zero, "an edit that changes nothing: zero curves, no half-life, no unit");
    const gt_perturb_result *end = perturb_one(&q, NULL, NULL, t.tok, ed[0], 10);
    tap_ok(end && end->K == 9, "a text ending 9 steps after the edit: K = 9, not 64");
    perturb_set_horizon(&q, 16);
    const gt_perturb_result *h16 = perturb_one(&q, NULL, NULL, t.tok, ed[0], 80);
    int prefix = h16->K == 16;
    for (int k = 0; k <= 16 && prefix; k++)
        prefix &= h16->dc[k] == p.res[0].dc[k] && h16->fo[k] == p.res[0].fo[k];
    tap_ok(prefix, "horizon set to 16: the first 17 values of the same curves");
    perturb_set_horizon(&q, 1000);
    tap_ok(q.horizon == 64, "a horizon past the allocated 64 is clamped to it");
    tap_ok(perturb_one(&q, NULL, NULL, t.tok, ed[0], 0) == NULL, "an empty text is refused");
    tap_ok(perturb_run(&q, NULL, NULL, t.tok, eds, 2, 80) == -1,
           "more edits than the perturbation was made for are refused");
    perturb_free(&p);
    perturb_free(&q);
    text_free(&t);
    model_free(&m);
}

/* The report's float32 mode (perturb_use_float32: the edits' products in float32 through
 * their differences from the original run): every
 * edit of one step, its curves within 1e-5 of the double run's (relative to the curve's
 * k = 0 value), and the original run's carry gates, which the forget-only curve uses,
 * within 1e-12. path: a model file, layer: the layer compared. */
static void test_float32_mode(const char *path, const char *name, int layer)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (load(&m, path) || text_load(&t, fixture("text.txt"), &m, &e)) {
        tap_ok(0, "%s and text.txt load", name);
        return;
    }
    enum { S = 9, N = 40 };
    const int nx = m.vocab - 1 < 16 ? m.vocab - 1 : 16;
    uint16_t(*ed)[N] = malloc((size_t)nx * sizeof *ed);
    const uint16_t **eds = malloc((size_t)nx * sizeof *eds);
    for (int x = 0; x < nx; x++) {
        memcpy(ed[x], t.tok + S, sizeof ed[x]);
        ed[x][0] = (uint16_t)((t.tok[S] + 1 + x) % m.vocab);
        eds[x] = ed[x];
    }
    gt_run r;
    run_init(&r, &m, &e);
    for (int i = 0; i < S; i++)
        run_step(&r, t.tok[i]);
    gt_perturb d, f;
    perturb_init(&d, &m, layer, N - 1, nx, &e);
    perturb_init(&f, &m, layer, N - 1, nx, &e);
    perturb_use_float32(&f, &e);
    d.units = f.units = 0;
    perturb_run(&d, r.h, r.c, t.tok + S, eds, nx, N);
    double worst = 0, gates = 0;
    const size_t H = (size_t)m.hidden_max;
    for (int s = 0; s < N; s++) { /* stepped again to see the gates at every step */
        uint16_t tk[1] = {t.tok[S + s]};
        if (s == 0) {
            perturb_run(&f, r.h, r.c, t.tok + S, eds, nx, N);
            batch_set_state(&d.b, 0, r.h, r.c);
            for (int i = 0; i < nx + 1; i++)
                batch_set_state(&f.b, i, r.h, r.c);
        }
        batch_step(&d.b, 1, tk);
        uint16_t tks[64];
        tks[0] = tk[0];
        for (int x = 0; x < nx; x++)
            tks[x + 1] = ed[x][s];
        batch_step(&f.b, nx + 1, tks);
        for (size_t j = 0; j < (size_t)m.gates * H; j++)
            gates = fmax(gates, fabs(batch_gates(&f.b, layer, 0)[j] -
                                     batch_gates(&d.b, layer, 0)[j]));
    }
    for (int x = 0; x < nx; x++) {
        const gt_perturb_result *a = &d.res[x], *b = &f.res[x];
        for (int q = 0; q < N; q++) {
            if (a->dc)
                worst = fmax(worst, fabs(a->dc[q] - b->dc[q]) / a->dc[0]);
            worst = fmax(worst, fabs(a->dh[q] - b->dh[q]) / a->dh[0]);
            worst = fmax(worst, fabs(a->fo[q] - b->fo[q]) / a->fo[0]);
            worst = fmax(worst, fabs(a->lin[q] - b->lin[q]) / a->lin[0]);
        }
    }
    tap_ok(worst < 1e-5 && gates < 1e-12,
           "%s, layer %d, float32 mode: %d edits' curves (the linearized too) within %.2g of "
           "double, the carry gates within %.2g", name, layer, nx, worst, gates);
    perturb_free(&d);
    perturb_free(&f);
    run_free(&r);
    free(ed);
    free(eds);
    text_free(&t);
    model_free(&m);
}

/* Every check with the kernel set name, in a process of its own (the set is chosen once). */
static void checks(const char *name)
{
    if (kern_init(name)) {
        tap_ok(0, "kernel set %s chosen", name);
        return;
    }
    test_batch("lstm2");
    test_batch("gru2");
    test_batch("gru1");
    test_halflife();
    test_ratio();
    test_fixtures();
    test_closed(0);
    test_closed(1);
    test_example_carry(2.0f);
    test_example_carry(0.0f);
    test_open_and_edges();
    test_float32_mode(fixture("lstm2.safetensors"), "lstm2", 1);
    test_float32_mode(fixture("lstm1.safetensors"), "lstm1", 0);
    test_float32_mode(fixture("gru2.safetensors"), "gru2", 1);
    test_float32_mode(fixture("../gru_before.safetensors"), "gru_before", 1);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gatetui-t_perturb-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const kern_set *sets[8];
    size_t n = kern_sets(sets, 8);
    for (size_t i = 0; i < n; i++)
        tap_child(checks, sets[i]->name);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return tap_done();
}
