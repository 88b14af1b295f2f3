/* The derivative's sheet (D; doc/screen.md, "The derivative against the carry line"): over
 * the panels below the strip, for the cursor's step T and the layer shown, one row per lag k:
 * the selected unit's J_jj, its carry line C_jj and its row norm |J_j.|, then over all units
 * |J|_F against |C|_F and the diagonal's share of |J|_F; in two blocks side by side when
 * the lags do not fit one under the other and there is room, and when they still do not
 * fit, some of them (1, 2, 3, ... then further apart, up to K). Below them the moduli of
 * the eigenvalues of the whole state's step Jacobian at T, largest first, above the carry
 * gates at T sorted (computed by a child: "computing" until then); the layer's Lyapunov
 * half-lives along the text and the state's distance from the fixed point under T's
 * character (each by a child too). The last line compares the two at the last lag. Its K
 * (+ -) is every model's; ← → step and ↑ ↓ select the unit as on the panels. The Jacobian
 * is computed on a thread of its own (data_jac.h), the rest by children (data_eig.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/report.h"
#include "screen/draw_logplot.h"
#include "screen/panel_frame.h"
#include "screen/sheet_derivative.h"

/* How its notes and hints name its keys. */
static const gt_keyname lags_name = {KB_CHAR('+', 0), "+/-", NULL, 0};
static const gt_keyname close_name = {KB_SYM(K_ESC, 0), "D Esc", NULL, 0};
static const gt_keyname open_name = {KB_CHAR('D', 0), "D", NULL, 0};

gt_derivative_data *sheet_derivative_data(const gt_view *v)
{
    return sheet_data(v, &sheet_derivative);
}

gt_derivative_ui *sheet_derivative_ui(const gt_view *v)
{
    return sheet_ui(v, &sheet_derivative);
}

/* The columns of one block: k, then five numbers of 10 and the share. */
#define BLOCK_W 59

static void row(gt_surface *s, int x, int y, const gt_jacobian_lag *l)
{
    char b[5][16];
    const double v[5] = {l->diag, l->carry, l->row, l->frob, l->carry_frob};
    for (int i = 0; i < 5; i++) {
        if (isnan(v[i])) /* a plain RNN's carry line: none */
            snprintf(b[i], sizeof b[i], "%10s", "-");
        else
            snprintf(b[i], sizeof b[i], "%10.2e", v[i]); /* one precision down a column */
    }
    static const gt_role role[5] = {R_NORMAL, R_CARRY, R_NORMAL, R_NORMAL, R_CARRY};
    int cx = x + surf_printf(s, x, y, 3, R_DIM, "%3d", l->k);
    for (int i = 0; i < 5; i++)
        cx += surf_text(s, cx, y, 10, role[i], b[i]);
    if (isnan(l->diag_share))
        surf_text(s, cx, y, 6, R_DIM, "     -");
    else
        surf_printf(s, cx, y, 6, R_NORMAL, " %5.2f", l->diag_share);
}

/* The character column after a block: the character read at step T - k, where the lag
 * starts (AT_W cells: two spaces and a character's name of up to 6, U+0301). */
#define AT_W 8

static void header(gt_surface *s, int x, int y, int chars)
{
    surf_text(s, x, y, BLOCK_W, R_DIM,
              "  k      J_jj      C_jj    |J_j.|     |J|_F     |C|_F  diag");
    if (chars)
        surf_text(s, x + BLOCK_W, y, AT_W, R_DIM, "  T-k");
}

/* The character read at step T - k of lag k (as edited), in AT_W cells at x. */
static void lag_char(gt_surface *s, int x, int y, const gt_view *v, size_t T, int k)
{
    char name[32];
    panel_char_name(v, trace_token(v->tr, T - (size_t)k), name, sizeof name);
    surf_text(s, x + 2, y, AT_W - 2, R_NORMAL, name);
}

/* n of the lags 1..K when fewer than K rows are there: 1, 2, 3, ... and then spaced out
 * evenly on a log scale up to K. Returns how many were chosen (<= n). */
static int pick_lags(int K, int n, int *out)
{
    int cnt = 0;
    unsigned char take[257] = {0};
    for (int i = 0; i < n && n > 1; i++)
        take[(int)lround(pow((double)K, (double)i / (n - 1)))] = 1;
    take[K] = 1;
    for (int k = 1; k <= K; k++)
        cnt += take[k];
    for (int k = 1; k <= K && cnt < n; k++)
        if (!take[k]) {
            take[k] = 1;
            cnt++;
        }
    cnt = 0;
    for (int k = 1; k <= K && cnt < n; k++)
        if (take[k])
            out[cnt++] = k;
    return cnt;
}

/* The table of lags in rows y0 .. y0+rows-1 (the first one its header); the character at
 * each lag's start after each block when there is room; two blocks when the lags need
 * them and w allows. Returns the columns it took. */
static int table(gt_surface *s, int x, int y0, int w, int rows, const gt_view *v)
{
    const gt_data_jac *jv = &sheet_derivative_data(v)->jac;
    const int K = jv->K, per = rows - 1;
    if (per < 1)
        return 0;
    const int blocks = K > per && w >= 2 * BLOCK_W + 1 ? 2 : 1;
    const int chars = w >= blocks * (BLOCK_W + AT_W) + blocks - 1;
    const int bw = BLOCK_W + (chars ? AT_W : 0);
    int lags[DATA_JAC_KMAX], n;
    if (K <= per * blocks) {
        n = K;
        for (int k = 1; k <= K; k++)
            lags[k - 1] = k;
    } else {
        n = pick_lags(K, per * blocks, lags);
    }
    for (int b = 0; b < blocks; b++) {
        int bx = x + b * (bw + 1);
        header(s, bx, y0, chars);
        for (int i = 0; i < per; i++) {
            int at = b * per + i;
            if (at >= n)
                break;
            row(s, bx, y0 + 1 + i, &jv->lag[lags[at] - 1]);
            if (chars)
                lag_char(s, bx + BLOCK_W, y0 + 1 + i, v, jv->step, lags[at]);
        }
    }
    return blocks * (bw + 1) - 1;
}

/* The plot beside the table: narrower than this, none */
#define PLOT_MIN_W 30

/* The norms against the lag on a log scale, over rows y0 .. y0+rows-1 (a legend, the plot,
 * its k axis): |J|_F and |C|_F, each over its value at k = 0 (the identity's, sqrt(H)), and
 * the unit's |J_jj| and C_jj (1 at k = 0). */
static void jac_plot(gt_surface *s, int x, int y0, int w, int rows, const gt_view *v)
{
    const gt_data_jac *jv = &sheet_derivative_data(v)->jac;
    const int K = jv->K, carry = !isnan(jv->lag[0].carry);
    if (rows < 5 || w < PLOT_MIN_W)
        return;
    double fj[DATA_JAC_KMAX + 1], fc[DATA_JAC_KMAX + 1], dj[DATA_JAC_KMAX + 1],
        dc[DATA_JAC_KMAX + 1];
    fj[0] = fc[0] = sqrt((double)model_width(v->m, v->layer));
    dj[0] = dc[0] = 1;
    for (int k = 1; k <= K; k++) {
        const gt_jacobian_lag *l = &jv->lag[k - 1];
        fj[k] = l->frob, fc[k] = l->carry_frob, dj[k] = fabs(l->diag), dc[k] = l->carry;
    }
    plot_curve cv[4];
    const char *what[4];
    int nc = 0;
    if (carry)
        what[nc] = "|C|_F", cv[nc++] = (plot_curve){fc, "C", R_CARRY};
    what[nc] = "|J|_F", cv[nc++] = (plot_curve){fj, "J", R_PLOT};
    if (carry)
        what[nc] = "C_jj", cv[nc++] = (plot_curve){dc, "c", R_BAR0};
    what[nc] = "|J_jj|", cv[nc++] = (plot_curve){dj, "j", R_MARK};
    /* the legend: each curve's letter and what it is, two spaces apart or one, else as
       many as fit and " …" */
    int gap = 2, shown = nc, lx = x, wd = 0;
    for (int i = 0; i < nc; i++)
        wd += 2 + surf_width(what[i]) + (i ? gap : 0);
    if (wd > w)
        gap = 1, wd -= nc - 1;
    while (wd > w && shown > 1) {
        shown--;
        wd = 2;
        for (int i = 0; i < shown; i++)
            wd += 2 + surf_width(what[i]) + (i ? gap : 0);
    }
    for (int i = 0; i < shown; i++) {
        lx += surf_printf(s, lx, y0, x + w - lx, R_DIM, "%*s", i ? gap : 0, "");
        lx += surf_text(s, lx, y0, x + w - lx, cv[i].role, cv[i].label);
        lx += surf_printf(s, lx, y0, x + w - lx, R_DIM, " %s", what[i]);
    }
    if (shown < nc)
        surf_text(s, lx, y0, x + w - lx, R_DIM, s->utf8 ? " …" : " ~");
    plot_log(s, x, y0 + 1, w, rows - 2, K, cv, nc, v->mono);
}

/* How many of n values of 7 columns fit in room: all, or as many as leave room for " …". */
static int fitting(int n, int room)
{
    return n * 7 <= room ? n : room >= 9 ? (room - 2) / 7 : 0;
}

/* As many of the n values in v as fit in w columns after the label, each in 7, and " …"
 * after them when some are left out, or when v holds the first n of `of`. */
static void values(gt_surface *s, int x, int y, int w, gt_role role, const char *label,
                   const double *v, int n, int of)
{
    int cx = x + surf_text(s, x, y, w, R_DIM, label);
    int fit = fitting(n < of ? n + 1 : n, x + w - cx); /* n + 1: room for " …" */
    fit = fit < n ? fit : n;
    for (int i = 0; i < fit; i++)
        cx += surf_printf(s, cx, y, 7, role, " %6.4f", v[i]);
    if (fit < of)
        surf_text(s, cx, y, x + w - cx, R_DIM, s->utf8 ? " …" : " ~");
}

/* Two lines at y: the step's eigenvalue moduli above the sorted carry gates. */
static void eigen(gt_surface *s, int x, int y, int w, const gt_view *v, const char *g)
{
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    char label[32];
    if (de->error[0]) {
        panel_line(s, x, y, w, R_ERROR, de->error);
        return;
    }
    if (!de->valid || de->step != v->t || de->layer != v->layer) {
        panel_line(s, x, y, w, R_DIM, "|eigenvalues| of the step's whole Jacobian: computing");
        return;
    }
    values(s, x, y, w, R_NORMAL, "|eig J_T|   ", de->abs, de->count, de->n);
    if (!g) {
        panel_line(s, x, y + 1, w, R_DIM, "no carry gates to set beside them: a plain RNN");
        return;
    }
    snprintf(label, sizeof label, "%s_T sorted  ", g);
    values(s, x, y + 1, w, R_CARRY, label, de->carry, de->H, de->H);
}

/* The layer's Lyapunov half-lives along the text, largest first, each +- the half-width of
 * its 95% interval (doc/measures.md, "The whole state's dynamics"). */
static void lyapunov(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    char buf[256], a[32], b[32];
    if (de->ly_layer == v->layer && de->ly_error[0]) {
        snprintf(buf, sizeof buf, "Lyapunov half-lives: %.200s", de->ly_error);
        panel_line(s, x, y, w, R_ERROR, buf);
        return;
    }
    if (!de->ly_valid || de->ly_layer != v->layer) {
        panel_line(s, x, y, w, R_DIM, "Lyapunov half-lives along the text: computing");
        return;
    }
    /* the steps whose Jacobians are summed, W+1..N: --lyapunov's default N is another */
    const char *pm = s->utf8 ? "±" : "+-";
    snprintf(buf, sizeof buf, "Lyapunov t%s (steps %s..%s, %s 95%%):", s->utf8 ? "½" : "1/2",
             report_commas(de->ly_warmup + 1, a, sizeof a),
             report_commas(de->ly_steps, b, sizeof b), pm);
    int cx = x + panel_line(s, x, y, w, R_DIM, buf), fit = 0;
    for (int i = 0; i < de->ly_modes; i++) {
        char cell[64];
        if (isnan(de->ly_hl[i]))
            snprintf(cell, sizeof cell, " %6s", "-");
        else if (isnan(de->ly_hw[i]))
            snprintf(cell, sizeof cell, " %6.1f", de->ly_hl[i]);
        else
            snprintf(cell, sizeof cell, " %6.1f%s%.1f", de->ly_hl[i], pm, de->ly_hw[i]);
        const int cols = (int)strlen(cell) - (s->utf8 && strstr(cell, pm) ? 1 : 0); /* ± */
        if (cx + cols + 2 > x + w && (i + 1 < de->ly_modes || cx + cols > x + w))
            break; /* room for the " …" that says the rest is left out */
        cx += surf_text(s, cx, y, cols, R_NORMAL, cell);
        fit++;
    }
    if (fit < de->ly_modes)
        surf_text(s, cx, y, x + w - cx, R_DIM, s->utf8 ? " …" : " ~");
}

/* The state's distance from the fixed point under the cursor's character. */
static void fixed_point(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    const gt_data_eig *de = &sheet_derivative_data(v)->eig;
    char buf[256], ch[32], hl[32];
    panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
    if (de->fp_error[0]) {
        panel_line(s, x, y, w, R_ERROR, de->fp_error);
        return;
    }
    if (!de->fp_valid || de->fp_step != v->t || de->fp_layer != v->layer) {
        snprintf(buf, sizeof buf, "fixed point under %s: computing", ch);
        panel_line(s, x, y, w, R_DIM, buf);
        return;
    }
    if (!de->fp_found) {
        snprintf(buf, sizeof buf, "fixed point under %s: Newton from here (%d steps of it held) "
                 "did not converge", ch, DATA_EIG_HOLD);
        panel_line(s, x, y, w, R_DIM, buf);
        return;
    }
    if (isnan(de->fp_halflife))
        snprintf(hl, sizeof hl, "unstable (|eig| %.4f)", de->fp_max_abs);
    else
        snprintf(hl, sizeof hl, "stable, slowest %s %.1f", s->utf8 ? "t½" : "t1/2",
                 de->fp_halflife);
    /* how it was found left out first, then what follows the distance */
    char how[64], dist[64], stab[64];
    snprintf(buf, sizeof buf, "fixed point under %s", ch);
    snprintf(how, sizeof how, " (%d steps of it held, then Newton)", DATA_EIG_HOLD);
    snprintf(dist, sizeof dist, ": |s_T - s*| = %.3g,", de->fp_dist);
    snprintf(stab, sizeof stab, " %s", hl);
    const char *items[4] = {buf, how, dist, stab};
    int wd = 0;
    for (int i = 0; i < 4; i++)
        wd += surf_width(items[i]);
    if (wd <= w)
        panel_items(s, x, y, w, R_NORMAL, items, 4);
    else
        panel_items(s, x, y, w, R_NORMAL, (const char *const[]){buf, dist, stab}, 3);
}

/* The two at the last lag compared: the norms, the diagonal's share, the unit's J_jj (and
 * C_jj), each part whole or left out. */
static void last_line(gt_surface *s, int x, int y, int w, const gt_data_jac *jv, int rnn)
{
    const gt_jacobian_lag *l = &jv->lag[jv->K - 1];
    char a[96], b[64], c[96];
    if (rnn) {
        snprintf(a, sizeof a, "k = %d: |J|_F = %.3g,", jv->K, l->frob);
        snprintf(c, sizeof c, " unit %d: J_jj %.3g", jv->lag_unit, l->diag);
    } else {
        snprintf(a, sizeof a, "k = %d: |J|_F = %.3g times |C|_F,", jv->K,
                 l->frob / l->carry_frob);
        snprintf(c, sizeof c, " unit %d: J_jj %.3g against C_jj %.3g", jv->lag_unit, l->diag,
                 l->carry);
    }
    snprintf(b, sizeof b, " the diagonal %.0f%% of it;", 100 * l->diag_share);
    const char *items[3] = {a, b, c};
    panel_items(s, x, y, w, R_NORMAL, items, 3);
}

static void derivative_draw(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_jac *jv = &sheet_derivative_data(v)->jac;
    const gt_celltype *cl = v->m->cell;
    const char *st = cl->carried, *g = cl->carry < 0 ? NULL : model_gate_name(v->m, cl->carry);
    const int nocarry = cl->carry < 0;
    char title[160], note[64], ch[32], buf[256];
    panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
    char at[32];
    snprintf(title, sizeof title, "derivative: layer %d, step %s %s, unit %d", v->layer,
             report_commas(v->t, at, sizeof at), ch, v->unit);
    snprintf(note, sizeof note, "K %d  %s  %s closes", jv->horizon, lags_name.text,
             open_name.text);
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1, w = in.w - 1, y = in.y, end = in.y + in.h;
    if (jv->error[0]) {
        panel_wrap(s, x, y, w, in.h, R_ERROR, jv->error);
        return;
    }
    if (!jv->valid && v->stale) {
        panel_wrap(s, x, y, w, in.h, R_DIM,
                   "waiting for the states of the model as changed (the status line)");
        return;
    }
    if ((!jv->valid || jv->K < 1) && jv->computing) { /* nothing to show meanwhile */
        snprintf(buf, sizeof buf, "computing the derivative at step %s ...",
                 report_commas(v->t, at, sizeof at));
        panel_wrap(s, x, y, w, in.h, R_DIM, buf);
        return;
    }
    if (!jv->valid || jv->K < 1) {
        panel_wrap(s, x, y, w, in.h, R_DIM,
                   "step 0: no state before it to differentiate by; step on to see J");
        return;
    }
    /* what is shown while the cursor's is computed: the step it is of */
    char took[96];
    if (jv->computing || jv->stale || jv->step != v->t || jv->layer != v->layer ||
        jv->lag_unit != v->unit)
        snprintf(took, sizeof took, "step %s's, unit %d's; computing step %s ...",
                 report_commas(jv->step, at, sizeof at), jv->lag_unit,
                 report_commas(v->t, ch, sizeof ch));
    else
        snprintf(took, sizeof took, "%.0f ms", jv->ms);
    if (nocarry)
        snprintf(buf, sizeof buf,
                 "J = d%s_T/d%s_(T-k), every later slope of the nonlinearity moving; a %s "
                 "has no carry gate, so no carry line C (%s)", st, st, cl->noun, took);
    else
        snprintf(buf, sizeof buf,
                 "J = d%s_T/d%s_(T-k), every later gate moving, against the carry line C = "
                 "%s_(T-k+1)...%s_T (%s)", st, st, g, g, took);
    y += panel_wrap(s, x, y, w, 2, R_DIM, buf);
    /* then the eigenvalues (two lines), the Lyapunov half-lives, the fixed point and the
       comparison at k = K */
    int rows = end - y - 5;
    const int used = table(s, x, y, w, rows, v);
    jac_plot(s, x + used + 2, y, w - used - 2, rows, v);
    eigen(s, x, end - 5, w, v, g);
    lyapunov(s, x, end - 3, w, v);
    fixed_point(s, x, end - 2, w, v);
    last_line(s, x, end - 1, w, jv, nocarry);
}

/* ---- the keys ---- */

static gt_act derivative_toggle(gt_view *v, int arg)
{
    (void)arg;
    sheet_toggle(v, &sheet_derivative);
    if (!sheet_up(v, &sheet_derivative))
        return ACT_REDRAW;
    const gt_celltype *cl = v->m->cell;
    char against[64] = "against the carry line";
    if (cl->carry < 0)
        snprintf(against, sizeof against, "(a %s: no carry line)", cl->noun);
    view_say(v, 0, "d%s_T / d%s_(T-k) %s at the cursor: %s, %s closes", cl->carried,
             cl->carried, against, "arrows step and select", open_name.text);
    return ACT_REDRAW;
}

/* + (more > 0) doubles its K, - halves it, within DATA_JAC_KMIN..DATA_JAC_KMAX. */
static gt_act derivative_lags(gt_view *v, int more)
{
    gt_derivative_ui *u = sheet_derivative_ui(v);
    int K = u->K, nk = more > 0 ? K * 2 : K / 2;
    if (nk < DATA_JAC_KMIN || nk > DATA_JAC_KMAX)
        view_say(v, 0, "K is %d (%d-%d)", K, DATA_JAC_KMIN, DATA_JAC_KMAX);
    else {
        u->K = nk;
        view_say(v, 0, "the derivative's lags: K = %d", nk);
    }
    return ACT_REDRAW;
}

static const gt_keyline keys[] = {
    {NULL, "close the derivative", 0, 1, sheet_close_key, {KB_CHAR('D', 0), KB_SYM(K_ESC, 0)}},
    {NULL, "the derivative's K", 0, 1, derivative_lags,
     {KB_CHAR('+', 1), KB_CHAR('=', 1), KB_CHAR('-', -1)}},
    {"D", "dc_T/dc_(T-k) against the carry line at the cursor (+ - its K, D Esc close)", 0, 0,
     derivative_toggle, {KB_CHAR('D', 0)}},
};

/* ---- its status line ---- */

static const gt_hint hints[] = {
    {&keys_names[KN_STEP], "step", NULL}, {&keys_names[KN_UNIT], "unit", NULL},
    {&lags_name, "K", NULL}, {&keys_names[KN_LAYER], "layer", NULL},
    {&close_name, "close", NULL}, {&keys_names[KN_HELP], "help", NULL},
    {&keys_names[KN_QUIT], "quit", NULL}, {NULL, NULL, NULL},
};
static const gt_keyname *const names[] = {&lags_name, &open_name, NULL};
static const gt_hint *const contexts[] = {hints, NULL};
static const gt_hint open_hint = {&open_name, "derivative", NULL};

/* Its own, but a selection's (v) while one is made over it. */
static const gt_hint *derivative_hints(const gt_view *v)
{
    return v->find.selecting ? NULL : hints;
}

/* ---- its hooks ---- */

static int derivative_init(gt_view *v, gt_error *e)
{
    gt_derivative_data *d = sheet_derivative_data(v);
    gt_derivative_ui *u = sheet_derivative_ui(v);
    if (!u->K)
        u->K = DATA_JAC_KDEFAULT;
    int rc = data_jac_init(&d->jac, v->m, e);
    if (rc == GT_OK && (rc = data_eig_init(&d->eig, v->m, e)) != GT_OK)
        data_jac_free(&d->jac);
    return rc;
}

static void derivative_free(gt_view *v)
{
    gt_derivative_data *d = sheet_derivative_data(v);
    data_jac_free(&d->jac);
    data_eig_free(&d->eig);
}

/* The derivative at the cursor asked for (the last result shown meanwhile), and its
 * eigenvalues, fixed point and Lyapunov half-lives. */
static void derivative_prepare(gt_view *v)
{
    gt_derivative_data *d = sheet_derivative_data(v);
    d->jac.threads = d->eig.threads = v->threads;
    /* the children first: forked before the Jacobian's thread makes its buffers, they do
       not wait for it (data_jac.c) */
    data_eig_want(&d->eig, v->tr, v->layer, v->t);
    data_jac_update(&d->jac, v->tr, v->layer, v->t, v->unit, sheet_derivative_ui(v)->K);
}

static int derivative_tick(gt_view *v)
{
    gt_derivative_data *d = sheet_derivative_data(v);
    int redraw = data_eig_tick(&d->eig);
    return data_jac_tick(&d->jac) || redraw;
}

static int derivative_busy(const gt_view *v)
{
    const gt_derivative_data *d = sheet_derivative_data(v);
    return data_eig_busy(&d->eig) || data_jac_busy(&d->jac);
}

static void derivative_invalidate(gt_view *v, unsigned why)
{
    gt_derivative_data *d = sheet_derivative_data(v);
    if (why & SHEET_MODEL) {
        data_jac_model_changed(&d->jac);
        data_eig_model_changed(&d->eig);
    }
    if (why & SHEET_EDITS) {
        data_jac_invalidate(&d->jac);
        data_eig_invalidate(&d->eig);
    }
}

/* A session keeps its K. */
static int derivative_save(const gt_view *v, long *val)
{
    val[0] = sheet_derivative_ui(v)->K;
    return 1;
}

static int derivative_load(gt_view *v, const long *val, int n, char *why, size_t len)
{
    if (sheet_load_check(val, n, 0, DATA_JAC_KMIN, DATA_JAC_KMAX, "the lag K", why, len))
        return -1;
    if (n > 0)
        sheet_derivative_ui(v)->K = (int)val[0];
    return 0;
}

const gt_sheet sheet_derivative = {
    .id = "derivative",
    .name = "the derivative against the carry line",
    .data_size = sizeof(gt_derivative_data),
    .ui_size = sizeof(gt_derivative_ui),
    .init = derivative_init,
    .free = derivative_free,
    .prepare = derivative_prepare,
    .tick = derivative_tick,
    .busy = derivative_busy,
    .invalidate = derivative_invalidate,
    .draw = derivative_draw,
    .save = derivative_save,
    .load = derivative_load,
    .hints = derivative_hints,
    .contexts = contexts,
    .names = names,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .panels_hint = &open_hint,
    .panels_at = 16,
};
