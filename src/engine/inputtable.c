/* Layer 0's input part for every token, W_ih x_v + b_ih, computed once in double when the
 * model is loaded (the steps then look it up): a row of W_ih at a time against every
 * token, so that W_ih is read once, the rows shared among a few threads when there are
 * many products; and the batch's table in double (doc/architecture.md, the code map; the
 * tokens side by side: doc/speed.md, "The Jacobian"). */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compute/threads.h"
#include "compute/x86.h"
#include "gatetui/bigmem.h"
#include "engine/model_impl.h"

/* The table (V x G*H floats) is kept only up to this many elements. */
#define MAX_TABLE (32u << 20)
#define MAX_THREADS 8
/* Below this many multiply-adds one thread does it all. */
#define THREAD_WORK (8u << 20)

typedef struct rows {
    const gt_model *m;
    const float *et; /* the embedding transposed, D x V (model_emb_t) */
    float *tab;
    size_t r0, r1;
} rows;

/* Tokens side by side in the blocked sums below: the same sums, in the same order, for
 * each token as one at a time (the lanes are tokens), about three times faster. */
#define TOKS 4

/* sum w[j] x[j] in double, over eight independent partial sums (so that the products run
 * side by side). */
static double dot64(const float *w, const float *x, size_t n)
{
    double acc[8] = {0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int l = 0; l < 8; l++)
            acc[l] += (double)w[j + l] * x[j + l];
    double s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; j < n; j++)
        s += (double)w[j] * x[j];
    return s;
}

typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

/* TOKS floats from x, widened (a macro: a function returning a vector of 32 bytes would
 * take the AVX calling convention in the baseline clones too). */
#define widen4(x) ((v4d){(double)(x)[0], (double)(x)[1], (double)(x)[2], (double)(x)[3]})

/* dot64 of row w with TOKS tokens' embeddings from v0 (et: D x V) at once: out[q]. */
GT_CLONES_AVX2 static void dot64_tokens(const float *w, const float *et, size_t V, size_t D,
                                        size_t v0, double *out)
{
    v4d acc[8];
    _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++)
        acc[l] = (v4d){0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= D; j += 8)
        _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) /* the sums in registers */
            acc[l] += (double)w[j + (size_t)l] * widen4(et + (j + (size_t)l) * V + v0);
    v4d s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; j < D; j++)
        s += (double)w[j] * widen4(et + j * V + v0);
    memcpy(out, &s, sizeof s);
}

void model_input_dots(const gt_model *m, const float *et, size_t r, size_t v0, double *out)
{
    const size_t D = (size_t)m->input_dim;
    dot64_tokens(m->layer[0].w_ih + r * D, et, (size_t)m->vocab, D, v0, out);
}

static void *fill(void *arg)
{
    const rows *w = arg;
    const gt_model *m = w->m;
    const gt_layer *l0 = &m->layer[0];
    const size_t V = (size_t)m->vocab, GH = (size_t)m->gates * (size_t)m->layer[0].hidden;
    const size_t D = (size_t)m->input_dim;
    for (size_t r = w->r0; r < w->r1; r++) {
        const float *wr = l0->w_ih + r * D;
        size_t v = 0;
        for (; m->has_embedding && w->et && v + TOKS <= V; v += TOKS) {
            double d[TOKS];
            dot64_tokens(wr, w->et, V, D, v, d);
            for (int q = 0; q < TOKS; q++)
                w->tab[(v + (size_t)q) * GH + r] = (float)(l0->b_ih[r] + d[q]);
        }
        for (; v < V; v++) {
            double s = l0->b_ih[r];
            if (m->has_embedding)
                s += dot64(wr, m->emb + v * D, D);
            else
                s += wr[v];
            w->tab[v * GH + r] = (float)s;
        }
    }
    return NULL;
}

/* Token v's row of the table, layer 0's W_ih x_v + b_ih into out[0..GH): each sum over j
 * in order, four rows side by side (the same sums as one row at a time, four times
 * faster: each addition waited for the one before it). */
void model_input_row64(const gt_model *m, size_t v, double *out, size_t GH)
{
    const gt_layer *l0 = &m->layer[0];
    const size_t D = (size_t)m->input_dim;
    if (!m->has_embedding) {
        for (size_t r = 0; r < GH; r++)
            out[r] = (double)l0->b_ih[r] + l0->w_ih[r * D + v];
        return;
    }
    const float *x = m->emb + v * D;
    size_t r = 0;
    for (; r + 4 <= GH; r += 4) {
        const float *w0 = l0->w_ih + r * D, *w1 = w0 + D, *w2 = w1 + D, *w3 = w2 + D;
        double s0 = l0->b_ih[r], s1 = l0->b_ih[r + 1], s2 = l0->b_ih[r + 2],
               s3 = l0->b_ih[r + 3];
        for (size_t j = 0; j < D; j++) {
            const double xj = x[j];
            s0 += (double)w0[j] * xj;
            s1 += (double)w1[j] * xj;
            s2 += (double)w2[j] * xj;
            s3 += (double)w3[j] * xj;
        }
        out[r] = s0;
        out[r + 1] = s1;
        out[r + 2] = s2;
        out[r + 3] = s3;
    }
    for (; r < GH; r++) {
        const float *w = l0->w_ih + r * D;
        double s = l0->b_ih[r];
        for (size_t j = 0; j < D; j++)
            s += (double)w[j] * x[j];
        out[r] = s;
    }
}

float *model_emb_t(const gt_model *m)
{
    const size_t V = (size_t)m->vocab, D = (size_t)m->input_dim;
    if (!m->has_embedding)
        return NULL;
    float *et = malloc(V * D * sizeof *et);
    for (size_t v = 0; et && v < V; v++)
        for (size_t j = 0; j < D; j++)
            et[j * V + v] = m->emb[v * D + j];
    return et;
}

/* Rows r.. (four) of layer 0's input part in double for TOKS tokens from v0: out[i][q]
 * = b_ih[r + i] + the sum over j in order of W_ih[r + i][j] x_(v0 + q)[j]. */
GT_CLONES_AVX2 static void sums_tokens(const gt_layer *l0, const float *et, size_t V, size_t D,
                                       size_t r, size_t v0, double out[4][TOKS])
{
    v4d s[4];
    _Pragma("GCC unroll 4") for (int i = 0; i < 4; i++) {
        const double b = l0->b_ih[r + (size_t)i];
        s[i] = (v4d){b, b, b, b};
    }
    const float *w = l0->w_ih + r * D;
    for (size_t j = 0; j < D; j++) {
        const v4d x = widen4(et + j * V + v0);
        _Pragma("GCC unroll 4") for (int i = 0; i < 4; i++)
            s[i] += (double)w[(size_t)i * D + j] * x;
    }
    memcpy(out, s, sizeof s);
}

void model_input_rows64(const gt_model *m, const float *et, double *tab, size_t GH)
{
    const gt_layer *l0 = &m->layer[0];
    const size_t V = (size_t)m->vocab, D = (size_t)m->input_dim;
    size_t v = 0;
    for (; et && V >= TOKS && v + TOKS <= V; v += TOKS) {
        size_t r = 0;
        for (; r + 4 <= GH; r += 4) {
            double o[4][TOKS];
            sums_tokens(l0, et, V, D, r, v, o);
            for (int q = 0; q < TOKS; q++)
                for (int i = 0; i < 4; i++)
                    tab[(v + (size_t)q) * GH + r + (size_t)i] = o[i][q];
        }
        for (; r < GH; r++)
            for (size_t q = v; q < v + TOKS; q++) {
                double s = l0->b_ih[r];
                for (size_t j = 0; j < D; j++)
                    s += (double)l0->w_ih[r * D + j] * et[j * V + q];
                tab[q * GH + r] = s;
            }
    }
    for (; v < V; v++)
        model_input_row64(m, v, tab + v * GH, GH);
}

int model_input_table(gt_model *m, gt_error *e)
{
    const size_t V = (size_t)m->vocab, GH = (size_t)m->gates * (size_t)m->layer[0].hidden;
    if (V * GH > MAX_TABLE)
        return GT_OK; /* computed at each step instead */
    float *tab = model_own(m, big_zalloc(V * GH * sizeof *tab)); /* gatetui/bigmem.h */
    if (!tab)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", m->path);
    double work = (double)V * (double)GH * (m->has_embedding ? (double)m->input_dim : 1.0);
    size_t nt = work < THREAD_WORK ? 1 : (size_t)threads_choose(0, MAX_THREADS);
    float *et = model_emb_t(m); /* NULL: one token at a time */
    rows w[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (size_t i = 0; i < nt; i++) {
        w[i] = (rows){m, et, tab, GH * i / nt, GH * (i + 1) / nt};
        started[i] = i > 0 && pthread_create(&th[i], NULL, fill, &w[i]) == 0;
        if (i > 0 && !started[i])
            fill(&w[i]);
    }
    fill(&w[0]);
    for (size_t i = 1; i < nt; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    free(et);
    m->x_table = tab;
    return GT_OK;
}
