/* A model's screen: the state the keys change and what each frame derives from it, the
 * loops over the sheets (see view.h). */
#define _GNU_SOURCE /* wcwidth, qsort_r */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "gatetui/pathname.h"
#include "gatetui/signals.h"
#include "gatetui/utf8.h"
#include "screen/edtext.h"
#include "screen/draw_layout.h"
#include "screen/sheet.h"
#include "screen/view.h"

void view_name(gt_view *v, const char *name, int k, int n)
{
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->stats.model_name, sizeof v->stats.model_name, "%s", name);
    if (n > 1)
        snprintf(v->model_name, sizeof v->model_name, "%.200s [%d/%d]", name, k + 1, n);
    else
        snprintf(v->model_name, sizeof v->model_name, "%s", name);
}

int view_base_init(gt_view *v, const gt_model *m, const gt_text *t, gt_trace *tr, int layer,
                   gt_error *e)
{
    memset(v, 0, sizeof *v);
    v->m = m;
    v->text = t;
    v->tr = tr;
    v->ui = &v->own;
    v->steps = t->steps;
    path_name_among(v->text_name, sizeof v->text_name, (const char *const *)&t->path, 1, 0);
    v->own.layer = layer < 0 ? 0 : layer;
    v->own.horizon = DATA_PERT_KDEFAULT;
    view_clamp(v);
    size_t H = (size_t)m->hidden_max; /* room for the widest layer's units */
    v->order = malloc(H * sizeof *v->order);
    v->key = malloc(H * sizeof *v->key);
    v->zeros = calloc(H, sizeof *v->zeros);
    v->probs = malloc((size_t)m->vocab * sizeof *v->probs);
    v->dbuf = malloc(2 * (size_t)(m->gates + 2) * H * sizeof *v->dbuf);
    if (!v->order || !v->key || !v->zeros || !v->probs || !v->dbuf) {
        view_base_free(v);
        return gt_fail(e, GT_EFAIL, "out of memory for the screen");
    }
    data_probe_init(&v->probe, m, tr);
    data_effect_init(&v->effect);
    data_carriers_init(&v->carriers, m, tr);
    int rc = data_pert_init(&v->pert, m, e);
    if (rc == GT_OK)
        rc = data_stats_init(&v->stats, m, tr, v->text_name, e);
    if (rc == GT_OK) { /* one model's name: its base name (models_open names several) */
        char name[256];
        path_name_among(name, sizeof name, (const char *const *)&m->path, 1, 0);
        view_name(v, name, 0, 1);
    }
    if (rc == GT_OK)
        rc = data_diff_init(&v->dr, m, e);
    if (rc == GT_OK)
        rc = data_find_init(&v->find, m, tr, SIGNALS_DEFAULT_STEPS, e);
    if (rc) {
        view_base_free(v);
        return rc;
    }
    for (int j = 0; j < m->hidden_max; j++)
        v->order[j] = j;
    return GT_OK;
}

void view_base_free(gt_view *v)
{
    free(v->order);
    free(v->key);
    free(v->zeros);
    free(v->probs);
    data_pert_free(&v->pert);
    data_pert_unpin(&v->pin);
    data_stats_free(&v->stats);
    data_diff_free(&v->dr);
    data_find_free(&v->find);
    data_probe_free(&v->probe);
    data_effect_free(&v->effect);
    data_carriers_free(&v->carriers);
    free(v->dbuf);
    v->dbuf = NULL;
    v->order = NULL;
    v->key = v->zeros = v->probs = NULL;
}

void view_say(gt_view *v, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->ui->msg, sizeof v->ui->msg, fmt, ap);
    va_end(ap);
    v->ui->msg_error = error;
}

void view_say_kept(gt_view *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->ui->msg, sizeof v->ui->msg, fmt, ap);
    va_end(ap);
    v->ui->msg_error = 0;
    v->ui->msg_kept = 1;
}

/* The columns of the r column in each unit row (0 without a hypothesis on this layer). */
static int view_r_columns(const gt_view *v)
{
    return data_find_has_r(&v->find, v->layer) ? 8 : 0; /* a space, then " +0.123" */
}

int view_units_per_page(const gt_view *v)
{
    if (v->lay.too_small)
        return 1;
    int n = v->grid.ncols * v->grid.rows;
    return n < 1 ? 1 : n;
}

/* ---- sorting ---- */

/* Largest key first (ctx: the view); the unit number among equals. */
static int by_key(const void *a, const void *b, void *ctx)
{
    const gt_view *sv = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    float kx = sv->key[x], ky = sv->key[y];
    if (isnan(kx))
        kx = -INFINITY;
    if (isnan(ky))
        ky = -INFINITY;
    int c = kx < ky ? 1 : kx > ky ? -1 : 0; /* largest first */
    if (sv->ui->sort == SORT_INDEX)
        c = 0;
    if (sv->ui->sort_reverse)
        c = -c;
    if (c == 0)
        c = sv->ui->sort_reverse && sv->ui->sort == SORT_INDEX ? y - x : x - y;
    return c;
}

static void sort_units(gt_view *v)
{
    const int H = model_width(v->m, v->layer);
    const int cg = model_carry_gate(v->m); /* -1: a plain RNN, none */
    const float *carry = cg >= 0 ? v->sg + (size_t)cg * H : NULL;
    const int has_c = v->m->cell->has_c;
    const float *now = has_c ? v->sc : v->sh, *before = has_c ? v->spc : v->sph;
    const gt_unit_row *means = data_stats_units(&v->stats, v->layer);
    if (v->stats.carry >= v->stats.ngates) /* a cell without a carry gate */
        means = NULL;
    for (int j = 0; j < H; j++) {
        switch (v->ui->sort) {
        case SORT_INDEX: v->key[j] = 0; break;
        case SORT_CARRY: v->key[j] = carry ? carry[j] : NAN; break;
        case SORT_MEAN:
            v->key[j] = means ? (float)means[j].mean[v->stats.carry] : NAN;
            break;
        case SORT_ABSC: v->key[j] = fabsf(now[j]); break;
        case SORT_CHANGE: v->key[j] = fabsf(now[j] - before[j]); break;
        case SORT_IMPORTANCE:
            v->key[j] = v->ivs && v->ivs->imp_known && v->ivs->imp_layer == v->layer
                            ? (float)v->ivs->imp[j]
                            : NAN;
            break;
        case SORT_R:
            v->key[j] = data_find_has_r(&v->find, v->layer) ? (float)fabs(data_find_r(&v->find, j))
                                                          : NAN;
            break;
        default: v->key[j] = 0;
        }
        v->order[j] = j;
    }
    qsort_r(v->order, (size_t)H, sizeof *v->order, by_key, v);
    for (int j = 0; j < H; j++)
        if (v->order[j] == v->unit)
            v->rank = j;
}

/* ---- the frame's values ---- */

static void top_predictions(gt_view *v)
{
    const int V = v->m->vocab;
    v->ntop = 0;
    for (int tok = 0; tok < V; tok++) {
        float p = v->probs[tok];
        int i = v->ntop < VIEW_TOPK ? v->ntop++ : VIEW_TOPK;
        if (i == VIEW_TOPK) {
            if (p <= v->top_p[VIEW_TOPK - 1])
                continue;
            i = VIEW_TOPK - 1;
        }
        while (i > 0 && v->top_p[i - 1] < p) {
            v->top_p[i] = v->top_p[i - 1];
            v->top_tok[i] = v->top_tok[i - 1];
            i--;
        }
        v->top_p[i] = p;
        v->top_tok[i] = tok;
    }
}

static void shown_values(gt_view *v);

/* The last search's matches among the characters the strip can show (a search, not m or v,
 * was the last), in the text as edited and in the case the search chose. */
static void found_near(gt_view *v, size_t t)
{
    v->nfound = 0;
    if (!v->ui->search[0] || v->find.last != FIND_LAST_SEARCH)
        return;
    size_t span = (size_t)(v->lay.cols > 0 ? v->lay.cols : 80) * 4, len = strlen(v->ui->search);
    size_t a = text_step_offset(v->text, t > span ? t - span : 0);
    size_t b = t + span < v->steps ? text_step_offset(v->text, t + span) : v->text->nbytes;
    gt_edtext x;
    if (edtext_open(&x, v->tr, NULL))
        return;
    x.fold = edtext_smart_fold(v->ui->search);
    for (size_t o = edtext_find_range(&x, v->ui->search, len, a, b);
         o != (size_t)-1 && v->nfound < VIEW_FOUND;
         o = edtext_find_range(&x, v->ui->search, len, o + 1, b)) {
        v->found_a[v->nfound] = o;
        v->found_b[v->nfound++] = o + len;
    }
    edtext_close(&x);
}

int view_in_found(const gt_view *v, size_t off)
{
    for (int i = 0; i < v->nfound; i++)
        if (off >= v->found_a[i] && off < v->found_b[i])
            return 1;
    return 0;
}

int view_clamp(gt_view *v)
{
    const gt_shared *u = v->ui;
    int layer = u->layer < v->m->layers ? u->layer : v->m->layers - 1;
    int changed = layer != v->layer;
    v->layer = layer;
    v->unit = u->unit < model_width(v->m, v->layer) ? u->unit : model_width(v->m, v->layer) - 1;
    return changed;
}

void view_set_layer(gt_view *v, int layer)
{
    v->ui->layer = layer;
    view_clamp(v);
}

void view_select_unit(gt_view *v, int unit)
{
    v->ui->unit = unit;
    view_clamp(v);
}

/* What failed and why, in the message line. */
static void failed(gt_view *v, const char *what, const gt_error *e)
{
    snprintf(v->ui->msg, sizeof v->ui->msg, "%s: %.200s", what, e->msg);
    v->ui->msg_error = 1;
}

/* Whether step s's states may be computed now: in the trace's reach within a frame's
 * time, or always in a batch mode (ui->sync), which has no background pass to wait for. */
static int reach(const gt_view *v, size_t s)
{
    return v->ui->sync || trace_reachable(v->tr, s);
}

/* Whether the step the perturbation and the difference start from (the last edit's, or with
 * A the first edited one) is in reach (reach). */
static int edits_reachable(const gt_view *v)
{
    size_t n = trace_edit_count(v->tr);
    if (!n)
        return 1;
    size_t s = trace_edit_at(v->tr, n - 1)->step, first = trace_next_edited(v->tr, 0);
    if (v->ui->pert_all && first < s)
        s = first;
    return reach(v, s);
}

/* The perturbation's curves (every model's: the panel lists their half-lives) and the
 * difference (the model shown's), computed here and only here, as the frame is prepared
 * (view_prepare): after an edit, an undo, another layer or an intervention
 * (view_edits_changed), a new horizon K or A, or the difference turned on; once for any
 * number of keys read before the frame. While the step they start from is out of the
 * trace's reach they wait for the background pass (edits_wait; view_tick ends the wait),
 * the cursor's values shown meanwhile. */
static void follow_edits(gt_view *v, int shown)
{
    gt_shared *u = v->ui;
    gt_error e = {0};
    if (u->diff && !trace_edit_count(v->tr))
        u->diff = 0;
    const int pert = v->curves_stale || v->pert.horizon != u->horizon || !v->pert.all != !u->pert_all;
    const int diff = shown && u->diff && (v->curves_stale || !v->dr.valid);
    if (!pert && !diff)
        return;
    if (!edits_reachable(v)) {
        v->edits_wait = 1;
        v->pert.valid = 0;
        v->dr.valid = 0;
        u->pass_wanted = 1;
        trace_pass_start(v->tr, v->steps, NULL);
        return;
    }
    v->edits_wait = 0;
    v->curves_stale = 0;
    v->pert.all = u->pert_all;
    if (pert && data_pert_update(&v->pert, v->tr, v->layer, u->horizon, &e))
        failed(v, "perturbation", &e);
    if (!u->diff || !shown)
        v->dr.valid = 0; /* computed when the difference is on for the model shown */
    else if (data_diff_update(&v->dr, v->tr, v->layer, &e)) {
        u->diff = 0;
        failed(v, "difference", &e);
    }
}

/* The interventions' effect where the hypothesis holds, while there are both, and the
 * carriers of the last edit, while there is one: asked for (computed in the background,
 * or at once in a batch mode) when what they are for changed. */
static void follow_causes(gt_view *v)
{
    const gt_shared *u = v->ui;
    data_effect_want(&v->effect, v->ivs, v->find.regex);
    data_carriers_want(&v->carriers, u->edit_gen, v->layer, u->horizon,
                       v->ivs ? v->ivs->what : "", u->sync);
}

/* The gate panel's first row, so that the selected unit is on the page. */
static void scroll_to_selected(gt_view *v)
{
    int page = view_units_per_page(v), H = model_width(v->m, v->layer);
    if (v->ui->top_kept) /* a session's, until a key: its order may be known only later */
        v->ui->top = v->ui->top_kept - 1;
    if (v->rank < v->ui->top)
        v->ui->top = v->rank;
    if (v->rank >= v->ui->top + page)
        v->ui->top = v->rank - page + 1;
    if (v->ui->top > H - page)
        v->ui->top = H - page;
    if (v->ui->top < 0)
        v->ui->top = 0;
}

int view_prepare(gt_view *v, int cols, int rows, gt_error *e)
{
    view_clamp(v);
    for (int k = 0; k < (v->peers ? v->npeers : 0); k++) { /* this one is peers[self] */
        follow_edits(&v->peers[k], k == v->self);
        follow_causes(&v->peers[k]);
    }
    if (!v->peers) {
        follow_edits(v, 1);
        follow_causes(v);
    }
    layout_compute(cols, rows, &v->lay);
    int blocks[3];
    layout_gate_grid_extra(v->lay.r[P_GATES], model_width(v->m, v->layer), model_sigmoid_gates(v->m, blocks),
                           v->ui->sort == SORT_CHANGE, view_r_columns(v), &v->grid);
    if (v->stale) { /* the last frame's values until the pass reaches t (view_tick) */
        v->pass_running = trace_pass_running(v->tr);
        v->pass_progress = trace_pass_progress(v->tr);
        return GT_OK;
    }
    size_t T = v->steps, t = v->t;
    /* the values around t the frame shows: the unit's history (half the right column
     * each side), and with the text coloured, every step the strip shows */
    size_t half = (size_t)(cols > 0 ? cols : 1) / 4 + 50;
    if (v->ui->heat)
        half = (size_t)(cols > 0 ? cols : 1) * 2 + 8; /* a row each side and the cursor's */
    size_t cap = trace_window_len(v->tr);
    if (half > (cap - 1) / 2)
        half = (cap - 1) / 2;
    size_t a = t > half ? t - half : 0, b = t + half + 1 < T ? t + half + 1 : T;
    if (t > 0 && a == t) /* the step before t, for the change since it */
        a = t - 1;
    int rc = trace_load(v->tr, a, b, e);
    if (rc)
        return rc;
    v->win_a = a;
    v->win_b = b;
    v->g = trace_gates(v->tr, t, v->layer);
    v->c = trace_c(v->tr, t, v->layer);
    v->h = trace_h(v->tr, t, v->layer);
    v->pc = t > 0 ? trace_c(v->tr, t - 1, v->layer) : v->zeros;
    v->ph = t > 0 ? trace_h(v->tr, t - 1, v->layer) : v->zeros;
    shown_values(v);
    sort_units(v);
    found_near(v, t);
    if (v->ui->strip_t != t) { /* the cursor moved: the strip follows it again */
        v->ui->strip_t = t;
        v->ui->strip_scroll = 0;
    }
    if (v->ui->select_top) { /* after a new order: its first unit */
        v->ui->select_top = 0;
        view_select_unit(v, v->order[0]);
        v->rank = 0;
    }

    scroll_to_selected(v);

    v->has_next = t + 1 < T;
    v->next_tok = v->has_next ? trace_token(v->tr, t + 1) : -1;
    v->ntop = 0;
    v->loss = NAN;
    if (v->m->has_readout) {
        trace_probs(v->tr, t, v->probs);
        top_predictions(v);
        if (v->has_next)
            v->loss = -log((double)v->probs[v->next_tok]);
    }
    v->pass_running = trace_pass_running(v->tr);
    v->pass_progress = trace_pass_progress(v->tr);
    const gt_sheet *up = v->ui->sheet;
    if (up && up->prepare) /* what it draws, from the values of the frame */
        up->prepare(v);
    return GT_OK;
}

/* 1 when the report of the layer is wanted: a sheet that needs it is up (the report's
 * tables, the unit table), or the units are sorted by their mean carry gate. */
static int wants_stats(const gt_view *v)
{
    const gt_sheet *up = v->ui->sheet;
    return (up && (up->needs & SHEET_NEEDS_REPORT)) || v->ui->sort == SORT_MEAN;
}

void view_follow_stats(gt_view *v)
{
    if (wants_stats(v))
        data_stats_want(&v->stats, v->layer);
    else
        data_stats_cancel(&v->stats); /* a computation not finished is ended */
}

/* Every sheet's invalidate hook, for why. */
static void sheets_invalidate(gt_view *v, unsigned why)
{
    for (int i = 0; i < v->nsheets; i++)
        if (v->sheets[i]->invalidate)
            v->sheets[i]->invalidate(v, why);
}

void view_edits_changed(gt_view *v)
{
    sheets_invalidate(v, SHEET_EDITS);
    data_probe_invalidate(&v->probe);
    v->curves_stale = 1; /* the perturbation and the difference: at the next frame */
    data_find_changed(&v->find, v->layer, v->unit);
}

void view_layer_chosen(gt_view *v)
{
    view_edits_changed(v);
    sheets_invalidate(v, SHEET_LAYER);
    view_follow_stats(v);
}

void view_model_changed(gt_view *v)
{
    gt_error e = {0};
    trace_pass_cancel(v->tr);
    sheets_invalidate(v, SHEET_MODEL); /* first: what reads the weights stops */
    data_stats_forget(&v->stats);
    data_effect_forget(&v->effect);
    data_carriers_forget(&v->carriers);
    data_pert_model_changed(&v->pert);
    if (data_interv_apply(v->ivs, &e))
        failed(v, "interventions", &e);
    trace_model_changed(v->tr);
    view_forget_jump(v);
    view_edits_changed(v); /* the perturbation, the difference, m v p computed again */
    if (wants_stats(v))
        data_stats_want(&v->stats, v->layer);
    if (!reach(v, v->t)) { /* the states to the cursor: in the background */
        v->stale = v->pending = 1;
        v->ui->pass_wanted = 1;
    }
    if (v->ui->pass_wanted)
        trace_pass_start(v->tr, v->steps, NULL);
}

int view_heat_signal(const gt_model *m, int pos)
{
    return pos >= 0 && pos < m->cell->nsignals ? m->cell->heat_order[pos] : -1;
}

float view_heat_value(const gt_view *v, size_t s)
{
    const gt_model *m = v->m;
    int sig = view_heat_signal(m, v->ui->heat_pos);
    if (sig < 0) /* another model's signal this one has not: its h */
        sig = signals_h(m);
    const size_t H = (size_t)model_width(m, v->layer), u = (size_t)v->unit;
    if (sig >= 0 && sig < m->gates) {
        const float g = trace_gates(v->tr, s, v->layer)[(size_t)sig * H + u];
        return signals_is_gate(m, sig)      ? 2.0f * g - 1.0f
               : signals_tanh_shown(m, sig) ? tanhf(g)
                                            : g;
    }
    if (m->cell->has_c && sig == m->gates)
        return tanhf(trace_c(v->tr, s, v->layer)[u]);
    return trace_h(v->tr, s, v->layer)[u];
}

void view_follow(gt_view *v, int shown)
{
    if (view_clamp(v))
        view_edits_changed(v); /* another layer: computed when the frame is prepared */
    view_follow_stats(v);
    const gt_sheet *up = v->ui->sheet;
    if (up && up->follow)
        up->follow(v, shown);
}

int view_set_diff(gt_view *v, int on, gt_error *e)
{
    if (on && !trace_edit_count(v->tr))
        return gt_fail(e, GT_EINPUT, "no edit: the difference needs one (e edits)");
    v->ui->diff = on; /* the run before the edit: when the frame is prepared (follow_edits) */
    return GT_OK;
}

float view_diff_value(const gt_view *v, int kind, int block, size_t st)
{
    const gt_data_diff *d = &v->dr;
    if (!d->valid || st < d->step)
        return d->valid ? 0.0f : NAN;
    if (!data_diff_known(d, st) || !trace_has(v->tr, st))
        return NAN;
    const int H = model_width(v->m, v->layer);
    size_t i = (size_t)block * H + v->unit;
    if (kind == 1)
        return trace_c(v->tr, st, v->layer)[v->unit] - data_diff_c(d, st)[v->unit];
    if (kind == 2)
        return trace_h(v->tr, st, v->layer)[v->unit] - data_diff_h(d, st)[v->unit];
    return trace_gates(v->tr, st, v->layer)[i] - data_diff_gates(d, st)[i];
}

/* The differences at step st into g [G*H], c [H], h [H]; 0 when they are not known. */
static int diff_at(const gt_view *v, size_t st, const float *tg, const float *tc,
                   const float *th, float *g, float *c, float *h)
{
    const gt_data_diff *d = &v->dr;
    const size_t H = (size_t)model_width(v->m, v->layer), GH = (size_t)v->m->gates * H;
    if (st < d->step) {
        memset(g, 0, GH * sizeof *g);
        memset(c, 0, H * sizeof *c);
        memset(h, 0, H * sizeof *h);
        return 1;
    }
    if (!data_diff_known(d, st)) {
        for (size_t j = 0; j < GH; j++)
            g[j] = NAN;
        for (size_t j = 0; j < H; j++)
            c[j] = h[j] = NAN;
        return 0;
    }
    const float *bg = data_diff_gates(d, st), *bc = data_diff_c(d, st), *bh = data_diff_h(d, st);
    for (size_t j = 0; j < GH; j++)
        g[j] = tg[j] - bg[j];
    for (size_t j = 0; j < H; j++) {
        c[j] = tc[j] - bc[j];
        h[j] = th[j] - bh[j];
    }
    return 1;
}

static void shown_values(gt_view *v)
{
    v->sg = v->g;
    v->sc = v->c;
    v->sh = v->h;
    v->spc = v->pc;
    v->sph = v->ph;
    v->diff_known = 1;
    if (!v->ui->diff || !v->dr.valid)
        return;
    const size_t H = (size_t)model_width(v->m, v->layer), GH = (size_t)v->m->gates * H;
    float *g = v->dbuf, *c = g + GH, *h = c + H, *pc = h + H, *ph = pc + H, *pg = ph + H;
    size_t t = v->t;
    v->diff_known = diff_at(v, t, v->g, v->c, v->h, g, c, h);
    if (t > 0)
        diff_at(v, t - 1, trace_gates(v->tr, t - 1, v->layer), v->pc, v->ph, pg, pc, ph);
    else {
        memset(pc, 0, H * sizeof *pc);
        memset(ph, 0, H * sizeof *ph);
    }
    v->sg = g;
    v->sc = c;
    v->sh = h;
    v->spc = pc;
    v->sph = ph;
}

/* ---- moving ---- */

void view_seek(gt_view *v, size_t s)
{
    if (s >= v->steps)
        s = v->steps - 1;
    v->ui->t = s;
    if (reach(v, s)) {
        v->t = s;
        v->pending = v->stale = 0;
        return;
    }
    v->pending = 1;
    v->ui->pass_wanted = 1;
    trace_pass_start(v->tr, v->steps, NULL);
}

void view_jump(gt_view *v, size_t s)
{
    size_t now = v->ui->t;
    if (s != now) {
        v->ui->prev_t = now;
        v->ui->have_prev = 1;
    }
    view_seek(v, s);
}

void view_step(gt_view *v, long d)
{
    size_t base = v->ui->t;
    if (d < 0)
        view_seek(v, (size_t)-d > base ? 0 : base - (size_t)-d);
    else
        view_seek(v, base + (size_t)d);
}

int view_settled(const gt_view *v)
{
    return !v->pending && !v->stale && !v->edits_wait && !v->curves_stale &&
           (!trace_edit_count(v->tr) || v->pert.valid);
}

/* 1 while the pass or the panels' own work computes (the sheets' aside). */
static int panels_busy(const gt_view *v)
{
    return v->pass_running || v->pending || data_stats_busy(&v->stats) ||
           data_find_busy(&v->find) || data_probe_busy(&v->probe) ||
           data_effect_busy(&v->effect) || data_carriers_busy(&v->carriers) ||
           (v->ivs && data_interv_busy(v->ivs));
}

int view_shown_busy(const gt_view *v)
{
    const gt_sheet *up = v->ui->sheet;
    return (up && up->busy && up->busy(v)) || panels_busy(v);
}

int view_busy(const gt_view *v)
{
    for (int i = 0; i < v->nsheets; i++)
        if (v->sheets[i]->busy && v->sheets[i]->busy(v))
            return 1;
    return panels_busy(v);
}

int view_tick(gt_view *v)
{
    int running = trace_pass_running(v->tr);
    int redraw = running || v->pass_running != running;
    if (data_stats_tick(&v->stats))
        redraw = 1;
    if (data_find_tick(&v->find))
        redraw = 1;
    for (int i = 0; i < v->nsheets; i++)
        if (v->sheets[i]->tick && v->sheets[i]->tick(v))
            redraw = 1;
    /* the hypothesis's probe, once its correlations are known (none without one) */
    const gt_data_find *f = &v->find;
    data_probe_want(&v->probe, f->hyp_state == FIND_KNOWN ? f->regex : "", f->hyp_layer,
                    f->signal, f->searched);
    if (v->ui->heat >= HEAT_COMP) /* the components the text is coloured by */
        data_comp_want(&v->probe, v->layer, f->signal, f->steps < v->steps ? f->steps : v->steps);
    if (data_probe_tick(&v->probe))
        redraw = 1;
    if (data_effect_tick(&v->effect))
        redraw = 1;
    if (data_carriers_tick(&v->carriers))
        redraw = 1;
    if (v->ivs && data_interv_tick(v->ivs)) {
        redraw = 1;
        if (v->ivs->imp_error[0]) {
            snprintf(v->ui->msg, sizeof v->ui->msg, "%.200s", v->ivs->imp_error);
            v->ui->msg_error = 1;
            v->ivs->imp_error[0] = 0;
        }
    }
    if (v->find.msg_new) { /* a computation ended: what it found, in the message line (a
                              file written is said until the next key; a failure is said) */
        v->find.msg_new = 0;
        if (!v->ui->msg_kept || v->find.msg_error) {
            snprintf(v->ui->msg, sizeof v->ui->msg, "%s", v->find.msg);
            v->ui->msg_error = v->find.msg_error;
            v->ui->msg_kept = 0;
        }
        redraw = 1;
    }
    if (v->edits_wait && edits_reachable(v)) {
        v->edits_wait = 0; /* the curves: when the frame is prepared (follow_edits) */
        redraw = 1;
    } else if (v->edits_wait && !running) {
        trace_pass_start(v->tr, v->steps, NULL);
    }
    if (v->pending) {
        if (reach(v, v->ui->t)) {
            v->t = v->ui->t;
            v->pending = v->stale = 0;
            redraw = 1;
        } else if (!running) {
            trace_pass_start(v->tr, v->steps, NULL);
        }
    }
    return redraw;
}

void view_forget_jump(gt_view *v)
{
    if (v->pending)
        v->ui->t = v->t;
    if (!v->stale) /* the states at t itself are still wanted: the pass goes on */
        v->pending = 0;
}

void view_cancel_pass(gt_view *v)
{
    trace_pass_cancel(v->tr);
    view_forget_jump(v);
    v->ui->pass_wanted = 0;
}

/* ---- glyphs ---- */

void view_cp_glyph(int utf8, int bytes_mode, uint32_t cp, char *buf)
{
    const char *g = NULL;
    if (cp == '\n')
        g = utf8 ? "↵" : "$";
    else if (cp == '\t')
        g = utf8 ? "⇥" : ">";
    else if (cp == UTF8_INVALID || cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
             (bytes_mode && cp >= 0x80))
        g = utf8 ? "�" : "?";
    else if (utf8 && cp >= 0x300 && wcwidth((wchar_t)cp) == 0) {
        /* a combining mark (or another character of no width) on a dotted circle */
        int n = utf8_encode(0x25CC, buf);
        n += utf8_encode(cp, buf + n);
        buf[n] = 0;
        return;
    } else if (cp >= 0x80 && (!utf8 || wcwidth((wchar_t)cp) < 1))
        g = utf8 ? "�" : "?";
    if (g) {
        strcpy(buf, g);
        return;
    }
    int n = utf8_encode(cp, buf);
    buf[n] = 0;
}

void view_token_glyph(const gt_view *v, int tok, char *buf)
{
    view_cp_glyph(v->utf8, v->m->vocab_bytes, v->m->vocab_cp[tok], buf);
}
