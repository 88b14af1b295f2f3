/* The worked examples of doc/measures.md (examples 1, 3 and 4), reproduced through the normal
 * loading path from tiny model files written here; and the text splitting. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "gatetui/utf8.h"
#include "engine/model_impl.h"
#include "../lib/stwrite.h"
#include "../lib/tap.h"

static char dir[256];

static const char *path_in(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

/* The scalar LSTM of doc/measures.md example 1: vocab "ab" with embedding [[1],[0]], every
 * recurrent weight zero, b_i = 0, b_f = bf, b_o = ln 3, u_g = ln 3. */
static void write_scalar_lstm(const char *file, float bf, const char *prefix)
{
    float emb[2] = {1, 0};
    float w_ih[4] = {0, 0, logf(3), 0}, w_hh[4] = {0}, b_ih[4] = {0, bf, 0, logf(3)},
          b_hh[4] = {0};
    char n1[64], n2[64], n3[64], n4[64];
    snprintf(n1, sizeof n1, "%sweight_ih_l0", prefix);
    snprintf(n2, sizeof n2, "%sweight_hh_l0", prefix);
    snprintf(n3, sizeof n3, "%sbias_ih_l0", prefix);
    snprintf(n4, sizeof n4, "%sbias_hh_l0", prefix);
    stw_tensor t[] = {{"embedding.weight", 2, 1, emb}, {n1, 4, 1, w_ih}, {n2, 4, 1, w_hh},
                      {n3, 4, 0, b_ih}, {n4, 4, 0, b_hh}};
    const char *meta[] = {"vocab", "ab"};
    stw_write(path_in(file), t, 5, meta, 1);
}

static int load(gt_model *m, const char *file, const gt_model_options *o)
{
    gt_error e = {0};
    int rc = model_load(m, path_in(file), o, &e);
    if (rc)
        printf("# %s\n", e.msg);
    return rc;
}

static void test_scalar_lstm(void)
{
    gt_model m;
    write_scalar_lstm("scalar.bin", logf(3), "lstm.");
    tap_ok(load(&m, "scalar.bin", NULL) == 0, "scalar LSTM loads");
    tap_ok(m.cell == &gt_cell_lstm && m.layers == 1 && m.hidden_max == 1 && m.vocab == 2 &&
               m.has_embedding && !m.has_readout && m.params == 18,
           "scalar LSTM: arch lstm, L 1, H 1, V 2, embedding, 18 numbers in the file");
    gt_run r;
    gt_error e;
    run_init(&r, &m, &e);
    const char *text = "abb";
    const double c_want[] = {0.4, 0.3, 0.225}, h_want[] = {0.284962, 0.218484, 0.165959};
    for (int s = 0; s < 3; s++) {
        run_step(&r, model_token(&m, (uint32_t)text[s]));
        char what[64];
        float *g = run_gates(&r, 0);
        snprintf(what, sizeof what, "step %d: i", s);
        tap_near(g[GT_I], 0.5, 1e-7, what);
        snprintf(what, sizeof what, "step %d: f", s);
        tap_near(g[GT_F], 0.75, 1e-7, what);
        snprintf(what, sizeof what, "step %d: o", s);
        tap_near(g[GT_O], 0.75, 1e-7, what);
        snprintf(what, sizeof what, "step %d: c", s);
        tap_near(run_c(&r, 0)[0], c_want[s], 1e-6, what);
        snprintf(what, sizeof what, "step %d: h", s);
        tap_near(run_h(&r, 0)[0], h_want[s], 1e-6, what);
    }
    run_free(&r);
    model_free(&m);

    /* b_f = ln 99: c_3 = 0.4 * 0.99^2; then 100 silent steps leave 0.4 * 0.99^100 */
    write_scalar_lstm("scalar99.bin", logf(99), "");
    tap_ok(load(&m, "scalar99.bin", NULL) == 0, "scalar LSTM with b_f = ln 99 (no prefix) loads");
    run_init(&r, &m, &e);
    run_step(&r, 0);
    run_step(&r, 1);
    run_step(&r, 1);
    tap_near(run_c(&r, 0)[0], 0.39204, 1e-6, "b_f = ln 99: c_3");
    tap_near(run_gates(&r, 0)[GT_F], 0.99, 1e-7, "b_f = ln 99: f");
    for (int s = 4; s <= 101; s++) /* 2 + 98 silent steps */
        run_step(&r, 1);
    tap_near(run_c(&r, 0)[0] / 0.4, 0.366032, 1e-5, "0.99^100 (100 silent steps)");
    run_free(&r);
    model_free(&m);

    /* doc/measures.md example 3: the bias a horizon of 100 needs, and a bias of 10 */
    write_scalar_lstm("scalar_h100.bin", 4.600166f, "rnn.");
    load(&m, "scalar_h100.bin", NULL);
    run_init(&r, &m, &e);
    run_step(&r, 0);
    tap_near(run_gates(&r, 0)[GT_F], 0.990050, 1e-6, "b_f = 4.600166: f");
    tap_near(-1.0 / log(run_gates(&r, 0)[GT_F]), 100.0, 2e-2, "b_f = 4.600166: horizon -1/ln f");
    run_free(&r);
    model_free(&m);
    write_scalar_lstm("scalar_b10.bin", 10.0f, "rnn.");
    load(&m, "scalar_b10.bin", NULL);
    run_init(&r, &m, &e);
    run_step(&r, 0);
    tap_near(run_gates(&r, 0)[GT_F], 0.9999546, 1e-7, "b_f = 10: f");
    run_free(&r);
    model_free(&m);
}

/* doc/measures.md example 4: a two-unit GRU whose second step has h = (0.5, -0.5), reset
 * pre-activations (ln 3, -ln 3), update pre-activations 0 and W_hn the swap matrix. */
static void write_gru(const char *file, const char *reset)
{
    const float l3 = logf(3), a = atanhf(2.0f / 3.0f);
    /* one-hot input, rows r0 r1 z0 z1 n0 n1, columns tokens 'a' 'b' */
    float w_ih[12] = {0, l3, 0, -l3, -l3, 0, -l3, 0, a, 0, -a, 0};
    float w_hh[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0};
    stw_tensor t[] = {{"gru.weight_ih_l0", 6, 2, w_ih}, {"gru.weight_hh_l0", 6, 2, w_hh}};
    const char *meta[] = {"vocab", "ab", "gru_reset", reset};
    stw_write(path_in(file), t, 2, meta, reset ? 2 : 1);
}

static void gru_case(const char *file, const gt_model_options *o, double h0, double h1,
                     const char *what)
{
    gt_model m;
    gt_run r;
    gt_error e;
    char buf[128];
    if (load(&m, file, o)) {
        tap_ok(0, "%s: loads", what);
        return;
    }
    run_init(&r, &m, &e);
    run_step(&r, 0);
    snprintf(buf, sizeof buf, "%s: first step h0", what);
    tap_near(run_h(&r, 0)[0], 0.5, 1e-6, buf);
    run_step(&r, 1);
    float *g = run_gates(&r, 0);
    snprintf(buf, sizeof buf, "%s: r", what);
    tap_ok(fabs(g[0] - 0.75) < 1e-6 && fabs(g[1] - 0.25) < 1e-6, "%s = (%.6f, %.6f)", buf, g[0],
           g[1]);
    snprintf(buf, sizeof buf, "%s: z", what);
    tap_ok(fabs(g[2] - 0.5) < 1e-6 && fabs(g[3] - 0.5) < 1e-6, "%s = (%.6f, %.6f)", buf, g[2],
           g[3]);
    snprintf(buf, sizeof buf, "%s: new h[0]", what);
    tap_near(run_h(&r, 0)[0], h0, 2e-6, buf);
    snprintf(buf, sizeof buf, "%s: new h[1]", what);
    tap_near(run_h(&r, 0)[1], h1, 2e-6, buf);
    run_free(&r);
    model_free(&m);
}

static void test_gru_reset(void)
{
    gt_model_options o;
    model_options_init(&o);
    write_gru("gru_default.bin", NULL);
    write_gru("gru_before.bin", "before");
    write_gru("gru_after.bin", "after");
    gru_case("gru_default.bin", &o, 0.070821, -0.187823, "GRU, no gru_reset metadata (after)");
    gru_case("gru_after.bin", &o, 0.070821, -0.187823, "GRU, gru_reset after");
    gru_case("gru_before.bin", &o, 0.187823, -0.070821, "GRU, gru_reset before (Cho)");
    o.gru_reset = 1;
    gru_case("gru_after.bin", &o, 0.187823, -0.070821, "GRU, --gru-reset before overrides");
    o.gru_reset = 0;
    gru_case("gru_before.bin", &o, 0.070821, -0.187823, "GRU, --gru-reset after overrides");
}

static void test_text(void)
{
    gt_model m;
    gt_error e = {0};
    gt_text t;
    load(&m, "scalar.bin", NULL);
    const char s[] = "ab\xc3\xa9" "b\xff" "a";
    int rc = text_from_memory(&t, "mem", s, sizeof s - 1, &m, &e);
    tap_ok(rc == 0 && t.steps == 4, "text: 4 steps of 6 characters (got %zu)", t.steps);
    tap_ok(t.skipped == 2 && t.invalid == 1, "text: 2 skipped, 1 invalid byte");
    tap_ok(t.tok[0] == 0 && t.tok[1] == 1 && t.tok[2] == 1 && t.tok[3] == 0, "text: tokens");
    tap_ok(text_step_offset(&t, 2) == 4 && text_step_offset(&t, 3) == 6,
           "text: byte offsets of steps past skipped characters");
    char sum[256];
    text_skip_summary(&t, sum, sizeof sum);
    tap_ok(strstr(sum, "2 characters") && strstr(sum, "\xc3\xa9") && strstr(sum, "invalid"),
           "text: summary \"%s\"", sum);
    text_free(&t);
    tap_ok(text_from_memory(&t, "empty", "", 0, &m, &e) == GT_EINPUT && strstr(e.msg, "empty"),
           "text: empty refused (%s)", e.msg);
    tap_ok(text_from_memory(&t, "none", "xyz", 3, &m, &e) == GT_EINPUT &&
               strstr(e.msg, "vocabulary"),
           "text: nothing in the vocabulary refused (%s)", e.msg);
    tap_ok(text_from_memory(&t, "u16", "\xff\xfe" "a\0b\0", 6, &m, &e) == GT_EINPUT &&
               strstr(e.msg, "UTF-16"),
           "text: UTF-16 refused (%s)", e.msg);
    tap_ok(text_from_memory(&t, "u32", "\xff\xfe\0\0" "a\0\0\0b\0\0\0", 12, &m, &e) == GT_EINPUT &&
               strstr(e.msg, "is UTF-32") && strstr(e.msg, "iconv -f UTF-32"),
           "text: UTF-32 refused as such, not called UTF-16 (%s)", e.msg);
    /* NUL bytes, CRLF line ends and a UTF-8 byte-order mark: shown, not fed */
    const char odd[] = "\xef\xbb\xbf" "a\0b\r\nb";
    rc = text_from_memory(&t, "odd", odd, sizeof odd - 1, &m, &e);
    tap_ok(rc == 0 && t.steps == 3 && t.skipped == 4 && text_step_offset(&t, 1) == 5,
           "text: BOM, NUL, CR, LF skipped around 3 steps (%zu steps, %zu skipped)", t.steps,
           t.skipped);
    text_skip_summary(&t, sum, sizeof sum);
    tap_ok(strstr(sum, "U+FEFF") && strstr(sum, "U+0000") && strstr(sum, "U+000D"),
           "text: invisible skipped characters named by code point: \"%s\"", sum);
    text_free(&t);
    /* many steps: the sparse offsets */
    char big[1000];
    for (int i = 0; i < 1000; i++)
        big[i] = i % 7 == 3 ? 'x' : (i % 2 ? 'a' : 'b');
    text_from_memory(&t, "big", big, sizeof big, &m, &e);
    int good = 1;
    for (size_t k = 0, step = 0; k < sizeof big; k++)
        if (big[k] != 'x')
            good &= text_step_offset(&t, step++) == k;
    tap_ok(good, "text: every step's offset over %zu steps", t.steps);
    good = 1;
    size_t before = 0; /* the steps before byte k */
    for (size_t k = 0; k <= sizeof big; k++) {
        good &= text_step_at_offset(&t, k) == before;
        if (k < sizeof big && big[k] != 'x')
            before++;
    }
    tap_ok(good, "text: the step at or after every byte offset");
    text_free(&t);
    model_free(&m);
}

static void test_utf8(void)
{
    uint32_t cp;
    tap_ok(utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp) == 3 && cp == 0x20AC,
           "utf8: euro sign");
    tap_ok(utf8_decode((const unsigned char *)"\xc0\xaf", 2, &cp) == 1 && cp == UTF8_INVALID,
           "utf8: overlong refused");
    tap_ok(utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp) == 1 && cp == UTF8_INVALID,
           "utf8: surrogate refused");
    tap_ok(utf8_decode((const unsigned char *)"\xf0\x9f", 2, &cp) == 1 && cp == UTF8_INVALID,
           "utf8: truncated refused");
}

static void test_vocab_from(void)
{
    FILE *f = fopen(path_in("train.txt"), "w");
    fputs("baab", f);
    fclose(f);
    /* the scalar model without metadata vocab */
    float emb[2] = {1, 0}, w[4] = {0};
    stw_tensor t[] = {{"embedding.weight", 2, 1, emb}, {"weight_ih_l0", 4, 1, w},
                      {"weight_hh_l0", 4, 1, w}};
    stw_write(path_in("novocab.bin"), t, 3, NULL, 0);
    gt_model m;
    gt_error e = {0};
    tap_ok(model_load(&m, path_in("novocab.bin"), NULL, &e) == GT_EINPUT &&
               strstr(e.msg, "--vocab-from"),
           "no vocabulary: refused, pointing at --vocab-from (%s)", e.msg);
    gt_model_options o;
    model_options_init(&o);
    char train[512];
    snprintf(train, sizeof train, "%s", path_in("train.txt"));
    o.vocab_from = train;
    tap_ok(load(&m, "novocab.bin", &o) == 0 && m.vocab_cp[0] == 'a' && m.vocab_cp[1] == 'b' &&
               !m.has_bias,
           "--vocab-from: sorted distinct characters; no biases");
    model_free(&m);
}

/* A model of V tokens embedded in D, H units, its weights from a fixed sequence. */
static void write_table_model(const char *file, const char *cell, int G, int V, int D, int H)
{
    const int GH = G * H;
    float *emb = malloc((size_t)(V * D + GH * D + GH * H + 2 * GH) * sizeof *emb);
    float *w_ih = emb + V * D, *w_hh = w_ih + GH * D, *b_ih = w_hh + GH * H, *b_hh = b_ih + GH;
    /* full 24-bit mantissas over exponents 2^-12 .. 2^3, both signs: the sums of their
       products round, so that another order of them gives other bits */
    unsigned x = 12345;
    for (int i = 0; i < V * D + GH * D + GH * H + 2 * GH; i++) {
        x = x * 1103515245u + 12345u;
        const unsigned r = x >> 8;
        x = x * 1103515245u + 12345u;
        const int ex = (int)((x >> 16) % 16) - 12;
        emb[i] = ldexpf((float)(0x800000u | (r & 0x7fffffu)) / 8388608.0f, ex) *
                 ((x >> 8) & 1 ? -1.0f : 1.0f);
    }
    char n1[64], n2[64], n3[64], n4[64];
    snprintf(n1, sizeof n1, "%s.weight_ih_l0", cell);
    snprintf(n2, sizeof n2, "%s.weight_hh_l0", cell);
    snprintf(n3, sizeof n3, "%s.bias_ih_l0", cell);
    snprintf(n4, sizeof n4, "%s.bias_hh_l0", cell);
    stw_tensor t[] = {{"embedding.weight", V, D, emb}, {n1, GH, D, w_ih}, {n2, GH, H, w_hh},
                      {n3, GH, 0, b_ih}, {n4, GH, 0, b_hh}};
    const char *meta[] = {"vocab", "abcdefghijklmnopqrstuvwxyz"};
    char vocab[32];
    snprintf(vocab, sizeof vocab, "%.*s", V, meta[1]);
    meta[1] = vocab;
    stw_write(path_in(file), t, 5, meta, 1);
    free(emb);
}

/* sum w[j] e[j] over j < D as the float32 table promises it: eight partial sums (j mod 8),
 * combined ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)), then the remainder in order. */
static double dot8(const float *w, const float *e, size_t D)
{
    double acc[8] = {0}, d;
    size_t j = 0;
    for (; j + 8 <= D; j += 8)
        for (int l = 0; l < 8; l++)
            acc[l] += (double)w[j + (size_t)l] * e[j + (size_t)l];
    d = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; j < D; j++)
        d += (double)w[j] * e[j];
    return d;
}

/* Layer 0's input tables, computed tokens side by side (engine/inputtable.c), against each
 * entry's sums one at a time in the order the tables promise: the float table's in eight
 * partial sums (and those sums before rounding, model_input_dots), the double one's in
 * order; bit for bit, at sizes with every remainder (V not a multiple of 4, D of 8, G H of
 * 4), from weights whose products' sums round (another order gives other bits). */
static void test_input_tables(void)
{
    static const struct { const char *cell; int G, V, D, H; } c[] = {
        {"lstm", 4, 11, 13, 3}, {"gru", 3, 10, 21, 3}, {"lstm", 4, 3, 5, 2}, {"gru", 3, 8, 16, 5}};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        gt_model m;
        write_table_model("table.bin", c[k].cell, c[k].G, c[k].V, c[k].D, c[k].H);
        if (load(&m, "table.bin", NULL)) {
            tap_ok(0, "%s V %d D %d: loads", c[k].cell, c[k].V, c[k].D);
            continue;
        }
        const size_t V = (size_t)c[k].V, D = (size_t)c[k].D, GH = (size_t)(c[k].G * c[k].H);
        const gt_layer *l0 = &m.layer[0];
        double *tab = malloc(V * GH * sizeof *tab), *row = malloc(GH * sizeof *row);
        float *et = model_emb_t(&m);
        model_input_rows64(&m, et, tab, GH);
        size_t f32 = 0, f64 = 0, one = 0, dots = 0;
        for (size_t v = 0; v < V; v++) {
            model_input_row64(&m, v, row, GH);
            for (size_t r = 0; r < GH; r++) {
                const float *w = l0->w_ih + r * D, *e = m.emb + v * D;
                f32 += m.x_table[v * GH + r] != (float)(l0->b_ih[r] + dot8(w, e, D));
                double four[4];
                if (v % 4 == 0 && v + 4 <= V) { /* the float table's sums before rounding */
                    model_input_dots(&m, et, r, v, four);
                    for (size_t q = 0; q < 4; q++) {
                        const double dq = dot8(w, m.emb + (v + q) * D, D);
                        dots += memcmp(&four[q], &dq, sizeof dq) != 0;
                    }
                }
                double s = l0->b_ih[r];
                for (size_t j = 0; j < D; j++)
                    s += (double)w[j] * e[j];
                f64 += memcmp(&tab[v * GH + r], &s, sizeof s) != 0;
                one += memcmp(&row[r], &s, sizeof s) != 0;
            }
        }
        tap_ok(et && m.x_table && !f32 && !dots && !f64 && !one,
               "%s, V %zu, D %zu, G H %zu: layer 0's input table in float32 (%zu of %zu entries "
               "differ; its sums before rounding, %zu), in double tokens side by side (%zu) and "
               "one at a time (%zu), each entry's sums in its order, bit for bit",
               c[k].cell, V, D, GH, f32, V * GH, dots, f64, one);
        free(et);
        free(tab);
        free(row);
        model_free(&m);
    }
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gatetui-t_model-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_utf8();
    test_scalar_lstm();
    test_gru_reset();
    test_text();
    test_vocab_from();
    test_input_tables();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return tap_done();
}
