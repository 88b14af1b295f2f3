/* The session: the models, their interventions, the text and the vocabulary tables, built
 * once (see session.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/pathname.h"
#include "gatetui/session.h"
#include "gatetui/vocabmap.h"

/* The arrays of n models. */
static int alloc_models(gt_session *s, int n, gt_error *e)
{
    s->n = n;
    s->model = calloc((size_t)n, sizeof *s->model);
    s->maps = calloc((size_t)n, sizeof *s->maps);
    return s->model && s->maps ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory");
}

/* The command line's interventions on model k, and the model they make. */
/* The interventions iv[0..n) made on top of those of sm. */
static int parse_ivs(gt_session_model *sm, const gt_session_iv *iv, int n, gt_error *e)
{
    int rc = GT_OK;
    for (int i = 0; !rc && i < n; i++) {
        const gt_session_iv *a = &iv[i];
        rc = a->kind == 'f' ? iv_parse_forget_bias(&sm->iv, a->arg, e)
             : a->kind == 'c' ? iv_parse_carousel(&sm->iv, a->arg, e)
                              : iv_parse_ablate(&sm->iv, a->arg, e);
    }
    return rc;
}

static int make_intervened(gt_session_model *sm, const gt_model *m, const gt_session_options *o,
                           int k, gt_error *e)
{
    sm->base = m;
    int rc = iv_init(&sm->iv, m, e);
    if (!rc)
        rc = parse_ivs(sm, o->iv, o->niv, e);
    if (!rc && o->each && (rc = parse_ivs(sm, o->each[k].iv, o->each[k].n, e))) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e->msg);
        gt_fail(e, rc, "%s: models[%d].interventions: %s", o->each_file ? o->each_file : "?",
                k, msg);
    }
    if (!rc) {
        iv_describe(&sm->iv, sm->what, sizeof sm->what);
        rc = iv_apply(&sm->mi, m, &sm->iv, e);
    }
    if (rc)
        iv_free(&sm->iv);
    return rc;
}

/* An option of one kind of cell (--gru-reset: a GRU's; --nonlinearity: a plain RNN's) given
 * where no model loaded has that cell: GT_EINPUT naming what they are. */
static int options_apply(const gt_session *s, const gt_session_options *o, gt_error *e)
{
    const struct {
        int given, gates;
        const char *option, *cell;
    } only[] = {{o->model.gru_reset >= 0, 3, "--gru-reset", "GRU"},
                {o->model.nonlinearity >= 0, 1, "--nonlinearity", "plain RNN"}};
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
        int found = 0;
        char what[200] = "";
        size_t at = 0;
        for (int k = 0; k < s->nloaded; k++) {
            found |= s->loaded[k].gates == only[i].gates;
            if (at < sizeof what)
                at += (size_t)snprintf(what + at, sizeof what - at, "%s%s: %s", k ? "; " : "",
                                       s->loaded[k].path, model_kind(&s->loaded[k]));
        }
        if (only[i].given && !found && s->nloaded)
            return gt_fail(e, GT_EINPUT, "%s is for a %s, and no model here is one (%s)",
                           only[i].option, only[i].cell, what);
    }
    return GT_OK;
}

/* Loads each model, checks it, and matches its vocabulary against the first's. */
static int load_models(gt_session *s, const gt_session_options *o, gt_error *e)
{
    for (int k = 0; k < s->n; k++) {
        gt_model *m = &s->loaded[k];
        int rc = model_load(m, o->model_path[k], &o->model, e);
        if (rc)
            return rc;
        s->nloaded++;
        if (o->check && (rc = o->check(m, k, o->ctx, e)))
            return rc;
        if (k > 0 && (rc = vocab_map(&s->loaded[0], m, &s->maps[k], e)))
            return rc;
        s->model[k].map = s->maps[k];
    }
    /* a session file's model options were given to the run that wrote it: a session written
       before they were refused opens as it did */
    return o->each_file ? GT_OK : options_apply(s, o, e);
}

/* Each model with its interventions. */
static int intervene_models(gt_session *s, const gt_session_options *o, gt_error *e)
{
    for (int k = 0; k < s->n; k++) {
        int rc = make_intervened(&s->model[k], &s->loaded[k], o, k, e);
        if (rc) {
            if (s->n > 1) { /* which of the models they do not fit */
                char why[sizeof e->msg];
                snprintf(why, sizeof why, "%s", e->msg);
                gt_fail(e, rc, "%s: %s", s->loaded[k].path, why);
            }
            return rc;
        }
        s->nmade++;
    }
    return GT_OK;
}

/* Each model's name among the others (gt_session_model.name), from their paths. */
static int name_models(gt_session *s, gt_error *e)
{
    const char **path = malloc((size_t)s->n * sizeof *path);
    if (!path)
        return gt_fail(e, GT_EFAIL, "out of memory");
    for (int k = 0; k < s->n; k++)
        path[k] = s->loaded[k].path;
    for (int k = 0; k < s->n; k++)
        path_name_among(s->model[k].name, sizeof s->model[k].name, path, s->n, k);
    free(path);
    return GT_OK;
}

int session_open(gt_session *s, const gt_session_options *o, gt_error *e)
{
    memset(s, 0, sizeof *s);
    s->opt = *o;
    s->loaded = calloc((size_t)(o->nmodels > 0 ? o->nmodels : 1), sizeof *s->loaded);
    int rc = s->loaded ? alloc_models(s, o->nmodels, e) : gt_fail(e, GT_EFAIL, "out of memory");
    if (rc == GT_OK)
        rc = load_models(s, o, e);
    if (rc == GT_OK)
        rc = intervene_models(s, o, e);
    if (rc == GT_OK && (rc = text_load(&s->text, o->text_path, &s->loaded[0], e)) == GT_OK)
        s->have_text = 1;
    if (rc == GT_OK)
        rc = name_models(s, e);
    return rc;
}

int session_borrow(gt_session *s, gt_model *models, int n, const gt_text *t, gt_error *e)
{
    memset(s, 0, sizeof *s);
    s->borrowed = 1;
    s->loaded = models;
    int rc = alloc_models(s, n, e);
    const gt_session_options none = {0};
    for (int k = 0; rc == GT_OK && k < n; k++) {
        s->nloaded++;
        if (k > 0 && (rc = vocab_map(&models[0], &models[k], &s->maps[k], e)))
            break;
        s->model[k].map = s->maps[k];
        if ((rc = make_intervened(&s->model[k], &models[k], &none, k, e)) == GT_OK)
            s->nmade++;
        s->model[k].text = *t;
    }
    if (rc == GT_OK) {
        s->text = *t;
        s->have_text = 1;
        rc = name_models(s, e);
    }
    return rc;
}

void session_close(gt_session *s)
{
    for (int k = 0; k < s->nmade; k++) {
        iv_model_free(&s->model[k].mi);
        iv_free(&s->model[k].iv);
    }
    if (s->have_text && !s->borrowed)
        text_free(&s->text);
    for (int k = 0; k < s->nloaded && !s->borrowed; k++)
        model_free(&s->loaded[k]);
    for (int k = 0; s->maps && k < s->n; k++)
        free(s->maps[k]);
    free(s->maps);
    free(s->model);
    if (!s->borrowed)
        free(s->loaded);
    memset(s, 0, sizeof *s);
}

int session_text_for(gt_session *s, int k, gt_error *e)
{
    if (k == s->text_of)
        return GT_OK;
    uint16_t *map;
    int rc = vocab_map(&s->loaded[s->text_of], &s->loaded[k], &map, e);
    if (rc)
        return rc;
    if (map)
        vocab_map_tokens(s->text.tok, s->text.steps, map);
    free(map);
    s->text.model = &s->loaded[k];
    s->text_of = k;
    return GT_OK;
}
