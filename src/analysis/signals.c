/* The signals of a layer along one run from the zero state (see signals.h). */
#include "config.h"

#include <string.h>

#include "gatetui/signals.h"

/* The signals are the cell's (gatetui/cell.h): its gate blocks, then c when it has a cell
 * state, then h. */
int signals_count(const gt_model *m)
{
    return m->cell->nsignals;
}

const char *signals_name(const gt_model *m, int s)
{
    if (s < 0 || s >= signals_count(m))
        return "?";
    return m->cell->signal[s].name;
}

int signals_parse(const gt_model *m, const char *name)
{
    for (int s = 0; s < signals_count(m); s++)
        if (strcmp(name, signals_name(m, s)) == 0)
            return s;
    return -1;
}

const char *signals_list(const gt_model *m)
{
    return m->cell->signal_list;
}

int signals_h(const gt_model *m)
{
    return signals_count(m) - 1;
}

int signals_is_gate(const gt_model *m, int s)
{
    for (int i = 0; i < m->cell->nsigmoid; i++)
        if (m->cell->sigmoid[i] == s)
            return 1;
    return 0;
}

int signals_tanh_shown(const gt_model *m, int s)
{
    return s >= 0 && s < signals_count(m) && m->cell->signal[s].tanh_shown;
}

const float *signals_of(const gt_run *r, int k, int s)
{
    const gt_model *m = r->m;
    if (s < m->gates)
        return run_gates(r, k) + (size_t)s * (size_t)model_width(m, k);
    if (m->cell->has_c && s == m->gates)
        return run_c(r, k);
    return run_h(r, k);
}

#define PROGRESS_EVERY 4096

int signals_pass(const gt_model *m, const uint16_t *tok, size_t n, const gt_pass_options *o,
                 gt_signals_fn fn, void *ctx, gt_error *e)
{
    gt_run r;
    int rc = run_init(&r, m, e);
    if (rc)
        return rc;
    if (o->threads > 1)
        run_set_threads(&r, o->threads);
    for (size_t t = 0; t < n; t++) {
        if (o->progress && t % PROGRESS_EVERY == 0)
            o->progress(o->progress_ctx, (double)t / (double)n);
        run_step_layers(&r, tok[t], o->layer);
        if ((rc = run_check_finite(&r, o->layer, t, e)))
            break;
        if (fn && fn(ctx, t, &r))
            break;
    }
    if (o->progress && !rc)
        o->progress(o->progress_ctx, 1.0);
    run_free(&r);
    return rc;
}

typedef struct collect {
    int layer, signal, unit;
    size_t from, to;
    float *v;
} collect;

static int collect_step(void *ctx, size_t t, const gt_run *r)
{
    collect *c = ctx;
    if (t >= c->from)
        c->v[t - c->from] = signals_of(r, c->layer, c->signal)[c->unit];
    return t >= c->to;
}

int signals_collect(const gt_model *m, const uint16_t *tok, const gt_pass_options *o, int s,
                    int unit, size_t from, size_t to, float *v, gt_error *e)
{
    collect c = {o->layer, s, unit, from, to, v};
    return signals_pass(m, tok, to + 1, o, collect_step, &c, e);
}
