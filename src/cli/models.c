/* The models and the text a mode runs on (cli.h): loading, the interventions, several
 * models side by side (doc/usage.md, "Several models"), the screen's texts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/utf8.h"
#include "gatetui/columns.h"
#include "gatetui/loss.h"
#include "gatetui/vocabmap.h"

void cli_say_interventions(const intervened *im)
{
    if (im->what[0])
        fprintf(stderr, "gatetui: interventions: %s\n", im->what);
}

/* The interventions of the command line on the model as loaded. */
static int make_intervened(const cli *c, intervened *ms, const gt_model *m, gt_error *e)
{
    memset(ms, 0, sizeof *ms);
    ms->base = m;
    int rc = iv_init(&ms->iv, m, e);
    for (int i = 0; !rc && i < c->niv; i++) {
        const cli_iv *a = &c->iv[i];
        rc = a->kind == 'f' ? iv_parse_forget_bias(&ms->iv, a->arg, e)
             : a->kind == 'c' ? iv_parse_carousel(&ms->iv, a->arg, e)
                              : iv_parse_ablate(&ms->iv, a->arg, e);
    }
    if (!rc) {
        iv_describe(&ms->iv, ms->what, sizeof ms->what);
        rc = iv_apply(&ms->mi, m, &ms->iv, e);
    }
    if (rc)
        iv_free(&ms->iv);
    return rc;
}

/* Loads the models, refusing a layer one of them lacks and vocabularies that differ. */
static int load_models(const cli *c, cli_models *s, gt_error *e)
{
    gt_model *m = s->m;
    for (int k = 0; k < c->nmodels; k++) {
        int rc = model_load(&m[k], c->model_path[k], &c->mopt, e);
        if (rc)
            return rc;
        s->loaded++;
        if (m[k].vocab_beside) {
            char name[1024];
            fprintf(stderr, "gatetui: %s: the vocabulary of %s\n",
                    utf8_printable(name, sizeof name, m[k].path), m[k].vocab_where);
        }
        if (m[k].cell->carry < 0 && strcmp(c->mode->name, "sweep") == 0)
            return gt_fail(e, GT_EINPUT, "--sweep-forget-bias: %s is a %s, with no carry "
                           "gate (no forget or update gate) whose bias to shift", m[k].path,
                           m[k].cell->noun);
        if (c->layer >= m[k].layers)
            return gt_fail(e, GT_EINPUT, "--layer %ld: %s has %d layer%s (0..%d)", c->layer,
                           c->nmodels > 1 ? m[k].path : "the model", m[k].layers,
                           m[k].layers == 1 ? "" : "s", m[k].layers - 1);
        uint16_t *map = NULL;
        if (k > 0 && (rc = vocab_map(&m[0], &m[k], &map, e)))
            return rc;
        free(map);
    }
    return GT_OK;
}

/* Each model with its interventions (and its readout, when the mode needs one). */
static int intervene_models(const cli *c, cli_models *s, gt_error *e)
{
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < s->n; k++) {
        const gt_model *m = &s->m[k];
        if ((c->mode->flags & MODE_READOUT) && !m->has_readout)
            rc = gt_fail(e, GT_EINPUT, "--%s: %s has no readout, so there is no loss to "
                         "compare", c->mode->option, m->path);
        else if ((rc = make_intervened(c, &s->im[k], m, e)) == GT_OK)
            s->ivs[s->made++] = s->im[k].iv;
        else if (s->n > 1) { /* which of the models it does not fit */
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            gt_fail(e, rc, "%s: %s", m->path, why);
        }
    }
    return rc;
}

int cli_models_open(cli_models *s, const cli *c, gt_error *e)
{
    memset(s, 0, sizeof *s);
    const int n = s->n = c->nmodels;
    s->m = calloc((size_t)n, sizeof *s->m);
    s->each = calloc((size_t)n, sizeof *s->each);
    s->map = calloc((size_t)n, sizeof *s->map);
    s->im = calloc((size_t)n, sizeof *s->im);
    s->ivs = calloc((size_t)n, sizeof *s->ivs);
    if (!s->m || !s->each || !s->map || !s->im || !s->ivs)
        return gt_fail(e, GT_EFAIL, "out of memory");
    int rc = load_models(c, s, e);
    if (rc == GT_OK)
        rc = intervene_models(c, s, e);
    if (rc == GT_OK && (rc = text_load(&s->t, c->text_path, &s->m[0], e)) == GT_OK)
        s->have_text = 1;
    if (rc == GT_OK) {
        char skip[512], name[1024];
        text_skip_summary(&s->t, skip, sizeof skip);
        if (skip[0] && !(c->mode->flags & MODE_NO_SKIPS) && !c->json)
            fprintf(stderr, "gatetui: %s: %s\n",
                    utf8_printable(name, sizeof name, s->t.path), skip);
    }
    return rc;
}

void cli_models_close(cli_models *s)
{
    for (int k = 0; k < s->made; k++) {
        iv_model_free(&s->im[k].mi);
        iv_free(&s->im[k].iv);
    }
    free(s->im);
    free(s->ivs);
    if (s->have_text)
        text_free(&s->t);
    for (int k = 0; k < s->loaded; k++)
        model_free(&s->m[k]);
    for (int k = 0; s->map && k < s->n; k++)
        free(s->map[k]);
    free(s->map);
    free(s->each);
    free(s->m);
}

/* Puts the text's tokens, now in the order of the vocabulary of t->model, in the order of
 * to's, in place: the text is never copied, whatever the number of models. */
static int retokenise(gt_text *t, const gt_model *to, gt_error *e)
{
    if (t->model == to)
        return GT_OK;
    uint16_t *map;
    int rc = vocab_map(t->model, to, &map, e);
    if (rc)
        return rc;
    if (map)
        vocab_map_tokens(t->tok, t->steps, map);
    free(map);
    t->model = to;
    return GT_OK;
}

/* The outputs of several models: side by side, or with --json as {"models": [...]} whose
 * entries are each model's own JSON. */
static int print_joined(const cli *c, char **buf, const size_t *len, int n, gt_error *e)
{
    if (c->json) {
        fputs("{\"models\": [\n", stdout);
        for (int k = 0; k < n; k++) {
            size_t l = len[k];
            while (l && buf[k][l - 1] == '\n')
                l--;
            fwrite(buf[k], 1, l, stdout);
            fputs(k + 1 < n ? ",\n" : "\n", stdout);
        }
        fputs("]}\n", stdout);
    } else {
        columns_print(stdout, (const char *const *)buf, n, "   ");
    }
    if (fflush(stdout) || ferror(stdout))
        return gt_fail(e, GT_EFAIL, "writing the output: standard output failed");
    return GT_OK;
}

int cli_model_text(cli_models *s, int k, gt_error *e)
{
    return retokenise(&s->t, s->im[k].base, e);
}

int cli_each_model(const cli *c, cli_models *s, cli_model_fn fn, gt_error *e)
{
    const int n = s->n;
    if (n == 1)
        return fn(stdout, c, &s->im[0], &s->t, e);
    char **buf = calloc((size_t)n, sizeof *buf);
    size_t *len = calloc((size_t)n, sizeof *len);
    int rc = buf && len ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory");
    for (int k = 0; rc == GT_OK && k < n; k++) {
        FILE *f = open_memstream(&buf[k], &len[k]);
        if (!f) {
            rc = gt_fail(e, GT_EFAIL, "out of memory");
            break;
        }
        if ((rc = retokenise(&s->t, s->im[k].base, e)) == GT_OK)
            rc = fn(f, c, &s->im[k], &s->t, e);
        if (fclose(f) && rc == GT_OK)
            rc = gt_fail(e, GT_EFAIL, "out of memory");
    }
    int back = retokenise(&s->t, s->im[0].base, e);
    if (rc == GT_OK)
        rc = back;
    if (rc == GT_OK)
        rc = print_joined(c, buf, len, n, e);
    for (int k = 0; buf && k < n; k++)
        free(buf[k]);
    free(buf);
    free(len);
    return rc;
}

/* The readout's loss over the report's default windows (as many as about 2e9
 * multiply-adds allow, at least one, so that a wide model starts at once). */
int cli_measure_loss(const gt_model *m, gt_text *t, int warn, gt_error *e)
{
    gt_report_options ro;
    report_options_init(&ro);
    size_t windows = loss_quick_windows(m, (size_t)ro.window_len, (size_t)ro.windows);
    gt_loss l;
    int rc = loss_measure(&l, m, t->tok, t->steps, (size_t)ro.window_len, windows, 0, e);
    if (rc)
        return rc;
    t->loss_nats = l.nats;
    t->loss_uniform = l.uniform;
    t->loss_count = l.count;
    if (warn && loss_suspect(&l)) {
        char w[400];
        loss_warning(&l, w, sizeof w);
        fprintf(stderr, "gatetui: warning: %s (%s)\n", w, m->vocab_where);
    }
    return GT_OK;
}

/* The screen's text for each model: the same steps (no copy of them), each with the loss
 * of its own model measured on it. */
static int screen_texts(cli_models *s, gt_error *e)
{
    gt_text *t = &s->t;
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < s->n; k++) {
        if ((rc = retokenise(t, &s->m[k], e)) == GT_OK &&
            (rc = cli_measure_loss(&s->im[k].mi, t, 0, e)) == GT_OK) {
            s->each[k] = *t;
            if (k > 0)
                rc = vocab_map(&s->m[0], &s->m[k], &s->map[k], e);
        }
    }
    int back = retokenise(t, &s->m[0], e);
    for (int k = 0; k < s->n; k++) {
        s->each[k].tok = t->tok; /* every model reads model 0's tokens through its map */
        s->each[k].model = &s->m[0];
    }
    return rc ? rc : back;
}

int cli_screen_run(const cli *c, cli_models *s,
                   int (*show)(const gt_screen_models *, const gt_screen_opts *, gt_error *),
                   gt_error *e)
{
    gt_screen_opts so = {(int)c->layer, c->step, c->edit, c->size, c->mode_arg,
                         c->find.steps, c->env.color, c->env.mouse, c->env.term};
    gt_screen_models sm = {s->m, s->each, (const uint16_t *const *)s->map, s->ivs, s->n,
                           c->env.threads};
    int rc = screen_texts(s, e);
    return rc ? rc : show(&sm, &so, e);
}
