/* A number is never cut (doc/screen.md, "What it shows"): the three sample models over the
 * whole sample text, alone and side by side, with an edit, a hypothesis (m), the derivative
 * (D), the unit table (U), the report's tables (r), the carriers of the edit (B) and the
 * effect of ablating the selected unit where the hypothesis holds (I), drawn at every width
 * from 80 to 200 and every height from 24 to 60 (each against a few of the other), and
 * every frame read back: no number token against a panel's right edge or before an
 * ellipsis, and the items that must be there (every model's half-life of h, the k of the
 * ratio, the curves' end letters, the probe's AUC, the unit table's last column) there or
 * said to be left out. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gatetui/loss.h"
#include "gatetui/perturb.h"
#include "gatetui/report.h"
#include "gatetui/trace.h"
#include "gatetui/vocabmap.h"
#include "screen/frame.h"
#include "screen/keys.h"
#include "screen/models.h"
#include "screen/panel_frame.h"
#include "screen/view.h"
#include "screen/sheet_report.h"
#include "screen/sheet_units.h"
#include "../lib/tap.h"

enum { NMODELS = 3 };

static gt_surface surf;

/* The frame of the view shown at cols x rows, in surf. */
static void draw(gt_models *ms, int cols, int rows)
{
    gt_error e = {0};
    surf_free(&surf);
    surf_init(&surf, cols, rows, 1);
    gt_view *v = models_view(ms);
    view_prepare(v, cols, rows, &e);
    frame_draw(&surf, v);
}

static void press(gt_models *ms, gt_keysym sym, uint32_t cp)
{
    gt_key k = {sym, cp, 0, 0, 0, 0};
    keys_handle_models(ms, &k);
}

static void type(gt_models *ms, const char *s)
{
    for (; *s; s++)
        press(ms, *s == '\n' ? K_ENTER : K_CHAR, (unsigned char)*s);
}

/* Waits while anything computes in the background (the pass, the reports, the hypothesis,
 * the derivative), drawing meanwhile as the screen does. */
static void settle(gt_models *ms)
{
    do { /* a frame asks for what it shows (the derivative, the eigenvalues) */
        draw(ms, 120, 40);
        TAP_WAIT_WHILE(models_busy(ms), (models_tick(ms), draw(ms, 120, 40)));
        models_tick(ms);
        draw(ms, 120, 40);
    } while (models_busy(ms));
}

static int problems;

static void problem(const char *what, int y, const char *detail)
{
    char row[4096];
    surf_row_text(&surf, y, row, sizeof row);
    if (problems++ < 40)
        printf("# %dx%d row %d: %s (%s): %s\n", surf.w, surf.h, y, what, detail, row);
}

static int has_digit(const char *t, size_t n)
{
    for (size_t i = 0; i < n && t[i]; i++)
        if (t[i] >= '0' && t[i] <= '9')
            return 1;
    return 0;
}

static int has_alnum(const char *t)
{
    for (; *t; t++)
        if ((*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z'))
            return 1;
    return 0;
}

/* Every text the frame cut short: a number split, or anything left out without an
 * ellipsis saying so. */
static void check_clips(void)
{
    for (int i = 0; i < surf.nclips && i < SURF_CLIPS; i++) {
        const gt_clip *c = &surf.clips[i];
        const char *rest = c->dropped + strspn(c->dropped, " ");
        if (!*rest)
            continue;
        size_t dl = strlen(c->drawn);
        const char *tail = c->drawn + dl;
        while (tail > c->drawn && tail[-1] != ' ')
            tail--;
        const int split = dl && c->drawn[dl - 1] != ' ' && c->dropped[0] != ' ';
        const int ellipsis = c->x < surf.w && strcmp(surf_cell(&surf, c->x, c->y)->s, "…") == 0;
        char detail[96];
        snprintf(detail, sizeof detail, "\"%s|%s\"", c->drawn, c->dropped);
        if (split && (has_digit(tail, strlen(tail)) || has_digit(c->dropped, strcspn(c->dropped, " "))))
            problem("a number cut", c->y, detail);
        else if (!ellipsis && has_alnum(rest))
            problem("left out, not said", c->y, detail);
    }
    if (surf.nclips > SURF_CLIPS)
        problem("more texts cut than noted", 0, "");
}

/* Every row: no digit right before an ellipsis. */
static void check_ellipses(void)
{
    for (int y = 0; y < surf.h; y++)
        for (int x = 0; x + 1 < surf.w; x++) {
            const char *g = surf_cell(&surf, x, y)->s;
            if (has_digit(g, 1) && !g[1] && strcmp(surf_cell(&surf, x + 1, y)->s, "…") == 0)
                problem("a number before an ellipsis", y, "");
        }
}

/* Row y of the frame from column x0 to x1 (exclusive) into buf. */
static void row_part(int y, int x0, int x1, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int x = x0; x < x1 && x < surf.w; x++) {
        const char *g = surf_cell(&surf, x, y)->s;
        size_t len = strlen(g);
        if (k + len + 1 > n)
            break;
        memcpy(buf + k, g, len);
        k += len;
        buf[k] = 0;
    }
}

/* A half-life as the perturbation panel gives it. */
static void hl_text(char *buf, size_t n, double hl, int K)
{
    if (hl == PERTURB_NONE || !(hl >= 0))
        snprintf(buf, n, ">%d", K);
    else
        snprintf(buf, n, "%.1f", hl);
}

/* The perturbation panel: every model's half-life of h on the models' line (or how many are
 * left out), the ratio's k, and every curve's letter at the plot's right end. */
static void check_perturbation(const gt_view *v)
{
    const gt_rect r = v->lay.r[P_PERTURB];
    const gt_data_pert *pv = &v->pert;
    if (v->ui->sheet || r.h < 2 || !pv->valid)
        return;
    char row[2048], want[64];
    int axis = -1, top = -1;
    for (int y = r.y + 1; y < r.y + r.h; y++) {
        row_part(y, r.x + 1, r.x + r.w, row, sizeof row);
        if ((strstr(row, "c/F") || strstr(row, "h/F")) && !strstr(row, "/F(") &&
            !strstr(row, "/F at k="))
            problem("the ratio without its k", y, "");
        if (strstr(row, " by model:") || strncmp(row, " h t", 4) == 0) {
            for (int k = 0; k < v->npeers; k++) {
                const gt_data_pert *o = &v->peers[k].pert;
                hl_text(want, sizeof want, o->r.hl_h, o->r.K);
                char one[96];
                snprintf(one, sizeof one, k == v->self ? "[%d] %s" : " %d %s", k + 1, want);
                if (!strstr(row, one) && !strstr(row, " +"))
                    problem("a model's half-life of h left out, not said", y, one);
            }
        }
        if (top < 0 && strstr(row, "│"))
            top = y;
        if (top >= 0 && axis < 0 && strstr(row, " k ") && !strstr(row, "│"))
            axis = y;
    }
    if (top < 0 || axis < 0)
        return; /* no plot */
    /* the letters in the last columns of the plot's rows (its names' columns, four at most
       where no more are needed, and the panel's edge) */
    char letters[256] = "";
    for (int y = top; y < axis; y++) {
        row_part(y, r.x + r.w - 5, r.x + r.w, row, sizeof row);
        strncat(letters, row, sizeof letters - strlen(letters) - 1);
    }
    char need[16] = "";
    int n = 0;
    if (pv->lstm && pv->r.dc[0] > 0)
        need[n++] = 'c';
    if (!isnan(pv->r.fo[0]) && pv->r.fo[0] > 0)
        need[n++] = 'F';
    if (pv->r.lin[0] > 0)
        need[n++] = 'L';
    if (pv->r.dh[0] > 0)
        need[n++] = 'h';
    for (int k = 0; k < v->npeers && k < 9; k++)
        if (k != v->self && v->peers[k].pert.valid && v->peers[k].pert.r.dh[0] > 0)
            need[n++] = (char)('1' + k);
    for (int i = 0; i < n; i++)
        if (!strchr(letters, need[i])) {
            snprintf(want, sizeof want, "%c of %s", need[i], need);
            problem("a curve without its letter", top, want);
        }
}

/* The strip's title keeps the hypothesis and its probe's AUC, or says what it left out; the
 * unit table its last column, or says so. */
static void check_titles(const gt_view *v)
{
    char row[4096];
    const gt_rect st = v->lay.r[P_STRIP];
    row_part(st.y, st.x, st.x + st.w, row, sizeof row);
    if (v->find.hyp_state == FIND_KNOWN && !strstr(row, "…") &&
        (!strstr(row, "\"LORD\"") || !strstr(row, "AUC 1.000")))
        problem("the hypothesis or its AUC left out of the strip's title, not said", st.y, "");
    const gt_rect g = v->lay.r[P_GATES];
    if (sheet_up(v, &sheet_units) && sheet_units_data(v)->known) {
        row_part(g.y + 1, 0, surf.w, row, sizeof row);
        if (!strstr(row, "right") && !strstr(row, "…"))
            problem("the unit table's last column left out, not said", g.y + 1, "");
        row_part(g.y, 0, surf.w, row, sizeof row);
        if (!strstr(row, "row "))
            problem("the unit table's row left out of its title", g.y, "");
    }
    gt_compare_col c[8];
    if (sheet_up(v, &sheet_report) && sheet_report_compares(v) &&
        sheet_report_cols(v, c, 8) > 0) {
        row_part(g.y, 0, surf.w, row, sizeof row);
        const char *m = strstr(row, "models ");
        while (m && !(m[7] >= '1' && m[7] <= '9')) /* "models 1-1 of 3", not "3 models" */
            m = strstr(m + 1, "models ");
        if (!m)
            problem("the models shown left out of the table's title", g.y, "");
    }
}

static void check_frame(const gt_view *v)
{
    check_clips();
    check_ellipses();
    check_perturbation(v);
    check_titles(v);
}

/* The frames of the view shown at every size from 80x24 to 200x60. */
static void sweep(gt_models *ms, const char *what)
{
    int before = problems, frames = 0;
    double t0 = tap_clock();
    for (int rows = 24; rows <= 60; rows++)
        for (int cols = 80; cols <= 200; cols++, frames++) {
            draw(ms, cols, rows);
            check_frame(models_view(ms));
        }
    const char *show = getenv("T_CUT_SHOW"); /* COLSxROWS: print that frame */
    int sc, sr;
    if (show && sscanf(show, "%dx%d", &sc, &sr) == 2) {
        draw(ms, sc, sr);
        printf("# %s at %s:\n", what, show);
        surf_write(&surf, stdout);
    }
    tap_ok(problems == before, "%s: %d frames from 80x24 to 200x60 (%.1f s), %d cut", what,
           frames, tap_clock() - t0, problems - before);
}

/* The screen's models over a session of the first n models (each with its own loss in
 * t[k]); the session must outlive them. */
static int open_models(gt_models *ms, gt_session *sn, gt_model *m, gt_text *t, int n)
{
    gt_error e = {0};
    if (session_borrow(sn, m, n, &t[0], &e) == GT_OK)
        for (int k = 0; k < n; k++)
            sn->model[k].text.loss_nats = t[k].loss_nats, sn->model[k].text.loss_uniform =
                t[k].loss_uniform, sn->model[k].text.loss_count = t[k].loss_count;
    if (e.msg[0] || models_open(ms, sn, -1, 0, 1, &e)) {
        printf("Bail out! %s\n", e.msg);
        return -1;
    }
    return 0;
}

/* The edit at step 1,200 (' ' to 'x'), the cursor on it. */
static void edit(gt_models *ms)
{
    gt_error e = {0};
    gt_view *v = models_view(ms);
    view_seek(v, 1200);
    settle(ms);
    tap_ok(view_apply_edit(v, 1200, model_token(v->m, 'x'), &e) == GT_OK, "the edit at 1,200");
    models_sync(ms);
    settle(ms);
}

static void scenarios(gt_models *ms, const char *name)
{
    char what[128];
    edit(ms);
    snprintf(what, sizeof what, "%s, an edit", name);
    sweep(ms, what);
    press(ms, K_CHAR, 'm');
    type(ms, "LORD\n");
    for (int i = 0; i < 4; i++) /* the text coloured by f: a longer title */
        press(ms, K_CHAR, 'c');
    settle(ms);
    for (int k = 0; k < ms->n; k++) {
        snprintf(what, sizeof what, "%s, model %d shown, a hypothesis", name, ms->cur + 1);
        sweep(ms, what);
        press(ms, K_TAB, 0);
        settle(ms);
    }
    static const struct {
        uint32_t key;
        const char *name;
    } views[] = {{'D', "the derivative"},     {'U', "the unit table"},
                 {'r', "the report's tables"}, {'p', "the selected unit's profile"},
                 {'B', "the carriers of the edit"},
                 {'I', "the effect of ablating the selected unit"}};
    for (int i = 0; i < 6; i++) {
        if (i == 4) { /* the selected unit ablated: the effect has an intervention */
            press(ms, K_CHAR, 'a');
            settle(ms);
        }
        press(ms, K_CHAR, views[i].key);
        settle(ms);
        snprintf(what, sizeof what, "%s, a hypothesis, %s", name, views[i].name);
        sweep(ms, what);
        press(ms, K_ESC, 0);
        settle(ms);
    }
}

int main(void)
{
    if (!tap_utf8_locale())
        return 0;
    const char *top = getenv("top_srcdir");
    static const char *const names[NMODELS] = {"kjv-lstm.bin", "kjv-gru.bin", "kjv-rnn.bin"};
    gt_model m[NMODELS];
    gt_text t[NMODELS];
    uint16_t *map[NMODELS] = {NULL};
    gt_error e = {0};
    char path[1024];
    for (int k = 0; k < NMODELS; k++) {
        snprintf(path, sizeof path, "%s/samples/%s", top ? top : ".", names[k]);
        if (model_load(&m[k], path, NULL, &e) || (k && vocab_map(&m[0], &m[k], &map[k], &e))) {
            printf("Bail out! %s\n", e.msg);
            return 1;
        }
    }
    snprintf(path, sizeof path, "%s/samples/kjv-valid.txt", top ? top : ".");
    if (text_load(&t[0], path, &m[0], &e)) {
        printf("Bail out! %s\n", e.msg);
        return 1;
    }
    for (int k = 0; k < NMODELS; k++) { /* each model's loss on the text, for the header */
        gt_report_options ro;
        report_options_init(&ro);
        gt_loss l;
        t[k] = t[0];
        uint16_t *tok = malloc(t[0].steps * sizeof *tok);
        if (!tok)
            return 1;
        memcpy(tok, t[0].tok, t[0].steps * sizeof *tok);
        if (map[k])
            vocab_map_tokens(tok, t[0].steps, map[k]);
        if (loss_measure(&l, &m[k], tok, t[0].steps, (size_t)ro.window_len,
                         loss_quick_windows(&m[k], (size_t)ro.window_len, (size_t)ro.windows),
                         0, &e) == GT_OK)
            t[k].loss_nats = l.nats, t[k].loss_uniform = l.uniform, t[k].loss_count = l.count;
        free(tok);
    }
    gt_models one, three;
    gt_session s1, s3;
    if (open_models(&one, &s1, m, t, 1))
        return 1;
    scenarios(&one, "the LSTM alone");
    models_close(&one);
    session_close(&s1);
    if (open_models(&three, &s3, m, t, NMODELS))
        return 1;
    scenarios(&three, "three models");
    models_close(&three);
    session_close(&s3);
    surf_free(&surf);
    text_free(&t[0]);
    for (int k = 0; k < NMODELS; k++) {
        free(map[k]);
        model_free(&m[k]);
    }
    return tap_done();
}
