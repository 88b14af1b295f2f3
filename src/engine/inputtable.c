/* Layer 0's input part for every token, W_ih x_v + b_ih, computed once in double when the
 * model is loaded (the steps then look it up): a row of W_ih at a time against every
 * token, so that W_ih is read once, the rows shared among a few threads when there are
 * many products. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "compute/threads.h"
#include "gatetui/bigmem.h"
#include "engine/model_impl.h"

/* The table (V x G*H floats) is kept only up to this many elements. */
#define MAX_TABLE (32u << 20)
#define MAX_THREADS 8
/* Below this many multiply-adds one thread does it all. */
#define THREAD_WORK (8u << 20)

typedef struct rows {
    const gt_model *m;
    float *tab;
    size_t r0, r1;
} rows;

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

static void *fill(void *arg)
{
    const rows *w = arg;
    const gt_model *m = w->m;
    const gt_layer *l0 = &m->layer[0];
    const size_t V = (size_t)m->vocab, GH = (size_t)m->gates * (size_t)m->layer[0].hidden;
    const size_t D = (size_t)m->input_dim;
    for (size_t r = w->r0; r < w->r1; r++)
        for (size_t v = 0; v < V; v++) {
            double s = l0->b_ih[r];
            if (m->has_embedding)
                s += dot64(l0->w_ih + r * D, m->emb + v * D, D);
            else
                s += l0->w_ih[r * D + v];
            w->tab[v * GH + r] = (float)s;
        }
    return NULL;
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
    rows w[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (size_t i = 0; i < nt; i++) {
        w[i] = (rows){m, tab, GH * i / nt, GH * (i + 1) / nt};
        started[i] = i > 0 && pthread_create(&th[i], NULL, fill, &w[i]) == 0;
        if (i > 0 && !started[i])
            fill(&w[i]);
    }
    fill(&w[0]);
    for (size_t i = 1; i < nt; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    m->x_table = tab;
    return GT_OK;
}
