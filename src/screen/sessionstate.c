/* The screen's state in a session file, written by W and put back by --session (see
 * sessionstate.h; the format: doc/usage.md, "Sessions"). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/editarg.h"
#include "gatetui/fileio.h"
#include "gatetui/sessionfile.h"
#include "screen/export_file.h"
#include "screen/keys_run.h"
#include "screen/sessionstate.h"
#include "screen/sheets.h"

/* gt_sort's words, in its order (SORT_R last) */
static const char *const sort_word[] = {"index", "carry", "mean", "abs", "change",
                                        "importance", "r"};
#define NSORT ((int)(sizeof sort_word / sizeof sort_word[0]))
static const char *const last_word[] = {"search", "match", "select"};
static const char *const curve_word[4] = {"c", "h", "F", "L"};

/* ---- writing ---- */

/* A number; NaN as null, the infinities as "inf" and "-inf" (JSON has neither). */
static json_t *num(double x)
{
    return isnan(x) ? json_null() : isinf(x) ? json_string(x > 0 ? "inf" : "-inf") : json_real(x);
}

/* A token as its text: a character as a string of its one code point ("" for a token that
 * is none), a word model's word (model_token_text). */
static json_t *token_json(const gt_model *m, int tok)
{
    char u[8];
    json_t *j = json_string(model_token_text(m, tok, u));
    return j ? j : json_string("");
}

/* A string typed on the screen ("" where it is not UTF-8, which JSON cannot hold). */
static json_t *text_json(const char *s)
{
    json_t *j = json_string(s);
    return j ? j : json_string("");
}

static json_t *edits_json(const gt_view *v)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < trace_edit_count(v->tr); i++) {
        const gt_edit *ed = trace_edit_at(v->tr, i);
        json_array_append_new(a, json_pack("{s:I, s:I, s:o, s:o}", "step", (json_int_t)ed->step,
                                           "offset",
                                           (json_int_t)text_step_offset(v->text, ed->step),
                                           "before", token_json(v->m, ed->old_tok),
                                           "after", token_json(v->m, ed->new_tok)));
    }
    return a;
}

static json_t *marks_json(const gt_shared *ui)
{
    json_t *o = json_object();
    for (int i = 0; o && i < 26; i++)
        if (ui->mark[i]) {
            const char name[2] = {(char)('a' + i), 0};
            json_object_set_new(o, name, json_integer((json_int_t)ui->mark[i] - 1));
        }
    return o;
}

static json_t *find_json(const gt_data_find *f)
{
    return json_pack("{s:o, s:i, s:f, s:I, s:s}", "regex", text_json(f->regex), "signal",
                     f->signal, "threshold", f->threshold, "steps", (json_int_t)f->steps, "last",
                     last_word[f->last]);
}

static json_t *sheet_json(const gt_view *v)
{
    const gt_sheet *up = v->ui->sheet;
    if (!up || !up->id) /* a sheet that a session does not open again */
        return json_null();
    long val[SHEET_SAVED_MAX];
    const int n = up->save ? up->save(v, val) : 0;
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer(val[i]));
    return json_pack("{s:s, s:o}", "name", up->id, "state", a);
}

/* A half-life as a reader takes it: null where there is none (PERTURB_NONE, never crossed
 * within K; a GRU's c). */
static json_t *halflife_json(double hl, int exists)
{
    return exists && hl != PERTURB_NONE ? num(hl) : json_null();
}

static json_t *pin_json(const gt_view *v)
{
    const gt_pert_pin *p = &v->pin;
    if (!p->valid)
        return json_null();
    const double *curve[4] = {p->r.dc, p->r.dh, p->r.fo, p->r.lin};
    json_t *o = json_pack(
        "{s:I, s:o, s:o, s:b, s:I, s:i, s:i, s:i, s:{s:o, s:o, s:o, s:o}}", "step",
        (json_int_t)p->step, "from", token_json(v->m, p->old_tok), "to",
        token_json(v->m, p->new_tok), "all", p->all, "edits", (json_int_t)p->nedits,
        "layer", p->layer, "horizon", p->horizon, "K", p->r.K, "half_lives", "c",
        halflife_json(p->r.hl_c, p->lstm), "h", halflife_json(p->r.hl_h, 1), "F",
        halflife_json(p->r.hl_fo, 1), "L", halflife_json(p->r.hl_lin, 1));
    if (o) /* what they were computed under: "" none */
        json_object_set_new(o, "interventions", json_string(p->what));
    for (int i = 0; o && i < 4; i++) {
        json_t *a = json_array();
        for (int k = 0; a && k <= p->r.K; k++) /* a GRU has no c: nulls */
            json_array_append_new(a, i == 0 && !p->lstm ? json_null() : num(curve[i][k]));
        json_object_set_new(o, curve_word[i], a);
    }
    return o;
}

/* The "screen" object of ms. */
static json_t *screen_json(gt_models *ms)
{
    const gt_shared *ui = &ms->ui;
    const gt_view *v = models_view(ms);
    const int heat = ui->heat;
    json_t *pins = json_array(), *finds = json_array();
    for (int k = 0; pins && finds && k < ms->n; k++) {
        json_array_append_new(pins, pin_json(&ms->v[k]));
        json_array_append_new(finds, find_json(&ms->v[k].find));
    }
    return json_pack(
        "{s:i, s:I, s:i, s:i, s:i, s:{s:s, s:b}, s:{s:s, s:i}, s:{s:i, s:b, s:i, s:b}, s:o, "
        "s:o, s:o, s:o, s:o, s:o, s:o}",
        "model", ms->cur, "step", (json_int_t)ui->t, "layer", ui->layer, "unit", ui->unit, "top",
        ui->top, "sort", "by", sort_word[ui->sort], "reverse", ui->sort_reverse, "colour", "by",
        heat == HEAT_OFF    ? "off"
        : heat == HEAT_UNIT ? "unit"
        : heat == HEAT_PROBE ? "probe"
                             : "component",
        "at", heat == HEAT_UNIT ? ui->heat_pos : heat >= HEAT_COMP ? heat - HEAT_COMP : 0,
        "perturbation", "horizon", ui->horizon, "all_edits", ui->pert_all, "ratio_k",
        ui->ratio_k, "difference", ui->diff, "edits", edits_json(&ms->v[0]), "marks",
        marks_json(ui), "previous",
        ui->have_prev ? json_integer((json_int_t)ui->prev_t) : json_null(), "search",
        text_json(ui->search), "find", finds, "sheet", sheet_json(v), "pinned", pins);
}

/* The session's JSON text of ms into *data. */
static int session_text(gt_models *ms, char **data, gt_error *e)
{
    const gt_intervention *ivs[64];
    for (int k = 0; k < ms->n && k < 64; k++)
        ivs[k] = &ms->ivs[k].iv;
    json_t *root;
    int rc = sessionfile_json(ms->session, ivs, &root, e);
    if (rc)
        return rc;
    json_t *screen = screen_json(ms);
    *data = screen && json_object_set_new(root, "screen", screen) == 0
                ? json_dumps(root, JSON_INDENT(1) | JSON_ENSURE_ASCII)
                : NULL;
    json_decref(root);
    return *data ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory for the session");
}

void sessionstate_own(gt_models *ms, const char *file)
{
    gt_error e = {0};
    unsigned long long size;
    ms->own_file = file;
    if (sha256_file(file, ms->own_sha256, &size, &e))
        ms->own_sha256[0] = 0;
}

/* ms has its own file, and it holds what it held when read or last written (or is gone). */
static int own_unchanged(const gt_models *ms)
{
    if (!ms->own_file)
        return 0;
    char now[SHA256_HEX];
    unsigned long long size;
    gt_error e = {0};
    if (access(ms->own_file, F_OK) != 0)
        return 1; /* gone: nothing there to lose */
    return ms->own_sha256[0] && sha256_file(ms->own_file, now, &size, &e) == GT_OK &&
           strcmp(now, ms->own_sha256) == 0;
}

int sessionstate_write(gt_models *ms, char *out, size_t n, gt_error *e)
{
    if (ms->n > 64)
        return gt_fail(e, GT_EINPUT, "a session holds at most 64 models");
    char *data;
    int rc = session_text(ms, &data, e);
    if (rc)
        return rc;
    const size_t len = strlen(data);
    char *text = malloc(len + 2); /* the file ends with a newline */
    if (!text) {
        free(data);
        return gt_fail(e, GT_EFAIL, "out of memory for the session");
    }
    memcpy(text, data, len);
    text[len] = '\n';
    free(data);
    if (own_unchanged(ms)) {
        rc = file_replace(ms->own_file, text, len + 1, e);
        snprintf(out, n, "%s", ms->own_file);
        if (rc == GT_OK)
            sha256_of(text, len + 1, ms->own_sha256);
    } else {
        char stem[128];
        export_stem(models_view(ms)->text_name, stem, sizeof stem);
        rc = export_new_in_cwd(text, len + 1, stem, SESSIONFILE_EXT, out, n, e);
    }
    free(text);
    return rc;
}

/* ---- reading ---- */

typedef gt_sessionreader reader;

/* The screen's entry key of r's file is not what it wants. */
static int bad(const reader *r, const char *key, const char *want)
{
    char where[80];
    snprintf(where, sizeof where, "screen.%s", key);
    return sessionfile_bad(r, where, want);
}

/* The last name of a path within the screen's entry ("perturbation.horizon": "horizon"). */
static const char *leaf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* The integer at path's last name of o within lo..hi (missing: dflt); path names it within
 * the screen's entry. */
static int get_long(const reader *r, const json_t *o, const char *key, long lo, long hi,
                    long dflt, long *out)
{
    const json_t *j = json_object_get(o, leaf(key));
    *out = dflt;
    if (!j || json_is_null(j)) /* null: none ("previous" before any jump) */
        return GT_OK;
    char want[96];
    snprintf(want, sizeof want, "wants an integer from %ld to %ld", lo, hi);
    if (!json_is_integer(j) && !json_is_boolean(j))
        return bad(r, key, want);
    const json_int_t v = json_is_boolean(j) ? json_is_true(j) : json_integer_value(j);
    if (v < lo || v > hi)
        return bad(r, key, want);
    *out = (long)v;
    return GT_OK;
}

/* The word at path's last name of o among words[0..n) (missing: dflt). */
static int get_word(const reader *r, const json_t *o, const char *key,
                    const char *const *words, int n, int dflt, int *out)
{
    const json_t *j = json_object_get(o, leaf(key));
    *out = dflt;
    if (!j)
        return GT_OK;
    for (int i = 0; json_is_string(j) && i < n; i++)
        if (strcmp(json_string_value(j), words[i]) == 0) {
            *out = i;
            return GT_OK;
        }
    return bad(r, key, "not one of the words it takes");
}

/* The token a string names (a character, a word model's word), or -1. */
static int token_of(const gt_model *m, const json_t *j)
{
    return json_is_string(j) ? model_token_named(m, json_string_value(j)) : -1;
}

static double num_of(const json_t *j)
{
    if (json_is_number(j))
        return json_number_value(j);
    const char *s = json_string_value(j);
    return s && strcmp(s, "inf") == 0 ? INFINITY : s && strcmp(s, "-inf") == 0 ? -INFINITY : NAN;
}

/* The edits, checked against the text as the edits before each leave it, made on every
 * model. */
static int restore_edits(const reader *r, gt_models *ms, const json_t *list)
{
    gt_view *v = &ms->v[0];
    gt_editlist l = {0};
    size_t i;
    const json_t *o;
    int rc = GT_OK;
    json_array_foreach(list, i, o) {
        json_int_t step = -1, off = -1;
        const char *before = NULL, *after = NULL;
        char where[300];
        snprintf(where, sizeof where, "%s: screen.edits[%zu]", r->file, i);
        if (json_unpack((json_t *)o, "{s:I, s:I, s:s, s:s}", "step", &step, "offset", &off,
                        "before", &before, "after", &after) ||
            step < 0 || off < 0) {
            rc = gt_fail(r->e, GT_EINPUT, "%s: wants {\"step\", \"offset\", \"before\", "
                         "\"after\"}", where);
            break;
        }
        rc = editlist_add_checked(&l, v->m, v->text, (size_t)step, (size_t)off, before, after,
                                  where, r->e);
        if (rc)
            break;
    }
    if (rc == GT_OK)
        rc = view_apply_edits(v, &l, r->e);
    editlist_free(&l);
    return rc;
}

/* The shared numbers: the layer, the unit, the order, the colour, the perturbation's. */
static int restore_numbers(const reader *r, gt_models *ms, const json_t *st)
{
    gt_shared *ui = &ms->ui;
    int layers = 0, units = 0;
    for (int k = 0; k < ms->n; k++) {
        layers = ms->v[k].m->layers > layers ? ms->v[k].m->layers : layers;
        units = ms->v[k].m->hidden_max > units ? ms->v[k].m->hidden_max : units;
    }
    const json_t *sort = json_object_get(st, "sort"), *colour = json_object_get(st, "colour"),
                 *pert = json_object_get(st, "perturbation");
    long layer, unit, top, rev, at, K, all, rk, diff;
    int by, heat;
    static const char *const heat_word[] = {"off", "unit", "probe", "component"};
    int rc = get_long(r, st, "layer", 0, layers - 1, 0, &layer);
    if (!rc) rc = get_long(r, st, "unit", 0, units - 1, 0, &unit);
    if (!rc) rc = get_long(r, st, "top", 0, units - 1, 0, &top);
    if (!rc) rc = get_word(r, sort, "sort.by", sort_word, NSORT, SORT_INDEX, &by);
    if (!rc) rc = get_long(r, sort, "sort.reverse", 0, 1, 0, &rev);
    if (!rc) rc = get_word(r, colour, "colour.by", heat_word, 4, HEAT_OFF, &heat);
    if (!rc) rc = get_long(r, colour, "colour.at", 0, 63, 0, &at);
    if (!rc) rc = get_long(r, pert, "perturbation.horizon", DATA_PERT_KMIN, DATA_PERT_KMAX,
                           DATA_PERT_KDEFAULT, &K);
    if (!rc) rc = get_long(r, pert, "perturbation.all_edits", 0, 1, 0, &all);
    if (!rc) rc = get_long(r, pert, "perturbation.ratio_k", 0, K, 0, &rk); /* 0: the last k */
    if (!rc) rc = get_long(r, pert, "perturbation.difference", 0, 1, 0, &diff);
    if (rc)
        return rc;
    ui->layer = (int)layer;
    ui->unit = (int)unit;
    ui->top = (int)top;
    ui->top_kept = (int)top + 1;
    ui->sort = (gt_sort)by;
    ui->sort_reverse = (int)rev;
    ui->heat = heat == 3 ? HEAT_COMP + (int)at : heat;
    ui->heat_pos = heat == HEAT_UNIT ? (int)at : 0;
    ui->horizon = (int)K;
    ui->pert_all = (int)all;
    ui->ratio_k = (int)rk;
    ui->diff = (int)diff && trace_edit_count(ms->v[0].tr) > 0;
    return GT_OK;
}

/* The marks, the step before the last jump, the search. */
static int restore_places(const reader *r, gt_models *ms, const json_t *st)
{
    gt_shared *ui = &ms->ui;
    const long T = (long)ms->v[0].steps;
    const json_t *marks = json_object_get(st, "marks"), *search = json_object_get(st, "search");
    long prev;
    int rc = get_long(r, st, "previous", -1, T - 1, -1, &prev);
    for (int i = 0; rc == GT_OK && i < 26; i++) {
        const char name[8] = {'m', 'a', 'r', 'k', 's', '.', (char)('a' + i), 0};
        long at;
        if ((rc = get_long(r, marks, name, 0, T - 1, -1, &at)) == GT_OK)
            ui->mark[i] = at < 0 ? 0 : (size_t)at + 1;
    }
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)marks, key, val) /* only a mark's letter names one */
        if (rc == GT_OK && !(key[0] >= 'a' && key[0] <= 'z' && key[1] == 0))
            rc = bad(r, "marks", "wants marks named a to z (m then a letter sets one)");
    if (rc)
        return rc;
    if (search && !json_is_string(search))
        return bad(r, "search", "wants a string");
    snprintf(ui->search, sizeof ui->search, "%s", search ? json_string_value(search) : "");
    ui->have_prev = prev >= 0;
    ui->prev_t = prev >= 0 ? (size_t)prev : 0;
    return GT_OK;
}

/* Model k's hypothesis (m), its signal and the selection's threshold. */
static int restore_find(const reader *r, gt_view *v, const json_t *find, int k)
{
    gt_data_find *f = &v->find;
    long signal, steps;
    int last;
    char key[3][40];
    if (find && !json_is_null(find) && !json_is_object(find)) {
        snprintf(key[0], sizeof key[0], "find[%d]", k);
        return bad(r, key[0], "wants an object");
    }
    snprintf(key[0], sizeof key[0], "find[%d].signal", k);
    snprintf(key[1], sizeof key[1], "find[%d].steps", k);
    snprintf(key[2], sizeof key[2], "find[%d].last", k);
    const json_t *re = json_object_get(find, "regex"), *th = json_object_get(find, "threshold");
    int rc = get_long(r, find, key[0], 0, v->m->cell->nsignals - 1, f->signal, &signal);
    if (!rc)
        rc = get_long(r, find, key[1], 1, 1L << 40, (long)f->steps, &steps);
    if (!rc)
        rc = get_word(r, find, key[2], last_word, 3, FIND_LAST_SEARCH, &last);
    if (rc)
        return rc;
    if ((re && !json_is_string(re)) || (th && !json_is_number(th))) {
        snprintf(key[0], sizeof key[0], "find[%d]", k);
        return bad(r, key[0], "wants {\"regex\": a string, \"threshold\": a number}");
    }
    f->signal = (int)signal;
    f->steps = (size_t)steps;
    if (th)
        f->threshold = json_number_value(th);
    if (re && json_string_value(re)[0] &&
        ((rc = data_find_set_regex(f, json_string_value(re), v->layer, r->e)) ||
         (rc = data_find_check(f, r->e)))) {
        char msg[sizeof r->e->msg];
        snprintf(msg, sizeof msg, "%s", r->e->msg); /* bad() writes over it */
        snprintf(key[0], sizeof key[0], "find[%d].regex", k);
        return bad(r, key[0], msg);
    }
    f->last = (gt_find_last)last;
    return GT_OK;
}

/* The sheet up, with its numbers. */
static int restore_sheet(const reader *r, gt_view *v, const json_t *sh)
{
    if (!sh || json_is_null(sh))
        return GT_OK;
    const char *id = json_string_value(json_object_get(sh, "name"));
    const json_t *state = json_object_get(sh, "state");
    for (int i = 0; id && i < v->nsheets; i++) {
        if (!v->sheets[i]->id || strcmp(v->sheets[i]->id, id) != 0)
            continue;
        sheet_set(v, v->sheets[i]);
        long val[SHEET_SAVED_MAX];
        int n = 0;
        if (state && !json_is_array(state))
            return bad(r, "sheet", "state wants a list of integers");
        for (; n < SHEET_SAVED_MAX && n < (int)json_array_size(state); n++) {
            const json_t *x = json_array_get(state, (size_t)n);
            if (!json_is_integer(x)) {
                char why[64];
                snprintf(why, sizeof why, "state[%d] wants an integer", n);
                return bad(r, "sheet", why);
            }
            val[n] = (long)json_integer_value(x);
        }
        char why[160];
        if (v->sheets[i]->load && v->sheets[i]->load(v, val, n, why, sizeof why))
            return bad(r, "sheet", why);
        return GT_OK;
    }
    char names[200];
    size_t at = 0;
    names[0] = 0;
    for (int i = 0; i < v->nsheets && at < sizeof names; i++)
        if (v->sheets[i]->id)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "",
                                   v->sheets[i]->id);
    char why[260];
    snprintf(why, sizeof why, "names no sheet (%s)", names);
    return bad(r, "sheet", why);
}

/* Model k's pinned curves. */
static int restore_pin(const reader *r, gt_view *v, const json_t *o)
{
    if (!o || json_is_null(o))
        return GT_OK;
    json_int_t step, nedits, K;
    int all, layer, horizon;
    json_t *from, *to, *hl;
    if (json_unpack((json_t *)o, "{s:I, s:o, s:o, s:b, s:I, s:i, s:i, s:I, s:o}", "step", &step,
                    "from", &from, "to", &to, "all", &all, "edits", &nedits, "layer", &layer,
                    "horizon", &horizon, "K", &K, "half_lives", &hl) ||
        step < 0 || K < 0 || K > DATA_PERT_KMAX || layer < 0 || layer >= v->m->layers)
        return bad(r, "pinned", "wants the curves as W writes them");
    if ((size_t)step >= v->steps) {
        char want[96];
        snprintf(want, sizeof want, "a step from 0 to %zu", v->steps - 1);
        return bad(r, "pinned", want);
    }
    const int a = token_of(v->m, from), b = token_of(v->m, to);
    if (a < 0 || b < 0)
        return bad(r, "pinned", v->m->words ? "a token not in the model's vocabulary"
                                            : "a character not in the model's vocabulary");
    gt_pert_pin *p = &v->pin;
    int rc = data_pert_pin_alloc(p, (int)K, r->e);
    for (int i = 0; rc == GT_OK && i < 4; i++) {
        const json_t *c = json_object_get(o, curve_word[i]);
        if (json_array_size(c) != (size_t)K + 1)
            rc = bad(r, "pinned", "a curve of K + 1 numbers each");
        for (size_t k = 0; rc == GT_OK && k <= (size_t)K; k++) {
            const json_t *x = json_array_get(c, k);
            const double d = num_of(x);
            if (isnan(d) && !json_is_null(x)) /* a number, null (none) or "inf"/"-inf" */
                rc = bad(r, "pinned", "a curve of K + 1 numbers each (null where none)");
            p->curves[(size_t)i * ((size_t)K + 1) + k] = d;
        }
    }
    if (rc) {
        data_pert_unpin(p);
        return rc;
    }
    /* what they were computed under; a session without it: those in force */
    const json_t *under = json_object_get(o, "interventions");
    if (under && !json_is_string(under)) {
        data_pert_unpin(p);
        return bad(r, "pinned", "wants \"interventions\" as a string, as W writes it");
    }
    *p = (gt_pert_pin){1, (size_t)step, a, b, all, layer, v->m->cell->has_c, horizon,
                       (size_t)nedits, p->r, p->curves, ""};
    snprintf(p->what, sizeof p->what, "%s",
             under ? json_string_value(under) : v->ivs ? v->ivs->what : "");
    (void)hl; /* the half-lives W writes beside the curves are the curves' own: taken from
                 them here, so that a file cannot show others */
    p->r.hl_c = p->lstm ? perturb_halflife(p->r.dc, (int)K) : PERTURB_NONE;
    p->r.hl_h = perturb_halflife(p->r.dh, (int)K);
    p->r.hl_fo = perturb_halflife(p->r.fo, (int)K);
    p->r.hl_lin = perturb_halflife(p->r.lin, (int)K);
    return GT_OK;
}

/* The kinds of the screen's entries that hold others: each an object or a list, or absent
 * (null: absent). */
static int check_kinds(const reader *r, const json_t *st)
{
    static const char *const objects[] = {"sort", "colour", "perturbation", "marks", "sheet"};
    static const char *const lists[] = {"edits", "find", "pinned"};
    for (size_t i = 0; i < sizeof objects / sizeof *objects; i++) {
        const json_t *j = json_object_get(st, objects[i]);
        if (j && !json_is_null(j) && !json_is_object(j))
            return bad(r, objects[i], "wants an object");
    }
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        const json_t *j = json_object_get(st, lists[i]);
        if (j && !json_is_null(j) && !json_is_array(j))
            return bad(r, lists[i], "wants a list");
    }
    return GT_OK;
}

int sessionstate_restore(gt_models *ms, const json_t *st, const char *file, gt_error *e)
{
    if (!st)
        return GT_OK;
    const reader r = {file, e};
    if (!json_is_object(st))
        return gt_fail(e, GT_EINPUT, "%s: screen: wants an object", file);
    gt_shared *ui = &ms->ui;
    long model, step;
    int rc = check_kinds(&r, st);
    if (!rc) rc = get_long(&r, st, "model", 0, ms->n - 1, 0, &model);
    if (!rc) rc = get_long(&r, st, "step", 0, (long)ms->v[0].steps - 1, 0, &step);
    if (!rc) rc = restore_edits(&r, ms, json_object_get(st, "edits"));
    if (!rc) rc = restore_numbers(&r, ms, st);
    if (!rc) rc = restore_places(&r, ms, st);
    const json_t *pins = json_object_get(st, "pinned");
    for (int k = 0; rc == GT_OK && k < ms->n; k++)
        rc = restore_pin(&r, &ms->v[k], json_array_get(pins, (size_t)k));
    if (rc)
        return rc;
    ms->cur = (int)model;
    ui->t = (size_t)step;
    gt_view *v = models_view(ms);
    for (int k = 0; k < ms->n; k++)
        view_follow(&ms->v[k], k == ms->cur);
    const json_t *finds = json_object_get(st, "find");
    for (int k = 0; rc == GT_OK && k < ms->n; k++)
        rc = restore_find(&r, &ms->v[k], json_array_get(finds, (size_t)k), k);
    if (rc || (rc = restore_sheet(&r, v, json_object_get(st, "sheet"))))
        return rc;
    keys_set_sort(v, ui->sort);
    models_sync(ms);
    ui->written_gen = ui->edit_gen;
    ui->msg[0] = 0; /* what the restoring said on the way */
    ui->msg_error = 0;
    return GT_OK;
}
