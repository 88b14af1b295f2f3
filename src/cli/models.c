/* The session a mode runs on (cli.h, gatetui/session.h) as the mode wants it, several
 * models side by side (doc/usage.md, "Several models"), the screen's texts. */
#include "config.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/fileio.h"
#include "gatetui/utf8.h"
#include "gatetui/columns.h"
#include "gatetui/loss.h"

void cli_say_interventions(const gt_session_model *im)
{
    if (im->what[0])
        fprintf(stderr, "gatetui: interventions: %s\n", im->what);
}

/* Where model m's vocabulary came from, and what of its file was left out, said once the
 * session is open (before, a failure after it was two lines: this, then the error). */
static void say_model_notes(const gt_model *m)
{
    char name[1024];
    if (m->vocab_beside)
        fprintf(stderr, "gatetui: %s: the vocabulary of %s\n",
                utf8_printable(name, sizeof name, m->path), m->vocab_where);
    if (m->left_out[0])
        fprintf(stderr, "gatetui: %s: %s\n", utf8_printable(name, sizeof name, m->path),
                m->left_out);
}

/* The mode's checks of model k as it is loaded: the layer asked for, a carry gate for the
 * sweep. */
static int check_model(const gt_model *m, int k, void *ctx, gt_error *e)
{
    const cli *c = ctx;
    (void)k;
    if (m->cell->carry < 0 && strcmp(c->mode->name, "sweep") == 0)
        return gt_fail(e, GT_EINPUT, "--sweep-forget-bias: %s is a %s, with no carry "
                       "gate (no forget or update gate) whose bias to shift", m->path,
                       m->cell->noun);
    if (c->layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %ld: %s has %d layer%s (0..%d)", c->layer,
                       c->nmodels > 1 ? m->path : "the model", m->layers,
                       m->layers == 1 ? "" : "s", m->layers - 1);
    return GT_OK;
}

/* A readout in each model where the mode needs one. */
static int check_readouts(const cli *c, const gt_session *s, gt_error *e)
{
    for (int k = 0; k < s->n; k++)
        if ((c->mode->flags & MODE_READOUT) && !s->model[k].base->has_readout)
            return gt_fail(e, GT_EINPUT, "--%s: %s has no readout, so there is no loss to "
                           "compare", c->mode->option, s->model[k].base->path);
    return GT_OK;
}

/* A session's model reads its vocabulary from the file found beside it when the session
 * was written (sessionfile_read checked that file unchanged), not from another. */
static int check_session_vocab(const cli *c, const gt_session *s, gt_error *e)
{
    for (int k = 0; c->session && c->sfile.vocab_beside && k < s->n; k++) {
        const char *want = c->sfile.vocab_beside[k], *have = s->model[k].base->vocab_beside_path;
        char a[PATH_MAX], b[PATH_MAX];
        if (!want || (!want[0] && !have) ||
            (want[0] && have && realpath(want, a) && realpath(have, b) && !strcmp(a, b)))
            continue;
        return gt_fail(e, GT_EINPUT, "%s: the model's vocabulary was %s when the session %s was "
                       "written, and is now %s: it would not open on the same screen",
                       s->model[k].base->path, want[0] ? want : "not beside it", c->session,
                       have ? have : "not beside it");
    }
    return GT_OK;
}

int cli_session_open(gt_session *s, const cli *c, gt_error *e)
{
    const gt_session_options o = {(const char *const *)c->model_path, c->nmodels, c->text_path,
                                  c->mopt, c->iv, c->niv, c->sfile.each, c->session,
                                  check_model, (void *)c};
    int rc = session_open(s, &o, e);
    if (rc == GT_OK)
        rc = check_readouts(c, s, e);
    if (rc == GT_OK)
        rc = check_session_vocab(c, s, e);
    for (int k = 0; rc == GT_OK && k < s->n; k++)
        say_model_notes(s->model[k].base);
    if (rc == GT_OK) {
        char skip[512], name[1024];
        text_skip_summary(&s->text, skip, sizeof skip);
        if (skip[0] && !(c->mode->flags & MODE_NO_SKIPS) && !c->json)
            fprintf(stderr, "gatetui: %s: %s\n",
                    utf8_printable(name, sizeof name, s->text.path), skip);
    }
    return rc;
}

/* The outputs of several models: side by side, or with --json as {"models": [...], "names":
 * [...]} whose entries are each model's own JSON, and its name (usage.md, "Several
 * models"). */
static int print_joined(const cli *c, const gt_session *s, char **buf, const size_t *len,
                        int n, gt_error *e)
{
    if (c->json) {
        json_t *names = json_array();
        for (int k = 0; names && k < n; k++)
            json_array_append_new(names, json_string(s->model[k].name));
        char *list = names ? json_dumps(names, JSON_ENSURE_ASCII) : NULL;
        json_decref(names);
        if (!list)
            return gt_fail(e, GT_EFAIL, "out of memory");
        fputs("{\"models\": [\n", stdout);
        for (int k = 0; k < n; k++) {
            size_t l = len[k];
            while (l && buf[k][l - 1] == '\n')
                l--;
            fwrite(buf[k], 1, l, stdout);
            fputs(k + 1 < n ? ",\n" : "\n", stdout);
        }
        printf("],\n\"names\": %s}\n", list);
        free(list);
    } else {
        columns_print(stdout, (const char *const *)buf, n, "   ");
    }
    return file_flushed(stdout, "the output", e);
}

int cli_each_model(const cli *c, gt_session *s, cli_model_fn fn, gt_error *e)
{
    const int n = s->n;
    if (n == 1)
        return fn(stdout, c, &s->model[0], &s->text, e);
    char **buf = calloc((size_t)n, sizeof *buf);
    size_t *len = calloc((size_t)n, sizeof *len);
    int rc = buf && len ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory");
    for (int k = 0; rc == GT_OK && k < n; k++) {
        FILE *f = open_memstream(&buf[k], &len[k]);
        if (!f) {
            rc = gt_fail(e, GT_EFAIL, "out of memory");
            break;
        }
        char name[1024]; /* each column headed by its model's name, printable (doc/usage.md) */
        if (!c->json)
            fprintf(f, "%s\n\n", utf8_printable(name, sizeof name, s->model[k].name));
        if ((rc = session_text_for(s, k, e)) == GT_OK)
            rc = fn(f, c, &s->model[k], &s->text, e);
        if (fclose(f) && rc == GT_OK)
            rc = gt_fail(e, GT_EFAIL, "out of memory");
    }
    int back = session_text_for(s, 0, e);
    if (rc == GT_OK)
        rc = back;
    if (rc == GT_OK)
        rc = print_joined(c, s, buf, len, n, e);
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
    const size_t len = (size_t)ro.window_len, all = (t->steps + len - 1) / len;
    t->loss_windows = windows < all && windows < (size_t)ro.windows ? windows : 0;
    if (warn && loss_suspect(&l)) {
        char w[400];
        if (loss_warning(m, &l, w, sizeof w)) /* where the vocabulary it blames came from */
            fprintf(stderr, "gatetui: warning: %s (%s)\n", w, m->vocab_where);
        else
            fprintf(stderr, "gatetui: warning: %s\n", w);
    }
    return GT_OK;
}

/* The screen's text for each model: the same steps (no copy of them), each with the loss
 * of its own model measured on it. */
static int screen_texts(gt_session *s, gt_error *e)
{
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < s->n; k++)
        if ((rc = session_text_for(s, k, e)) == GT_OK &&
            (rc = cli_measure_loss(&s->model[k].mi, &s->text, 0, e)) == GT_OK)
            s->model[k].text = s->text;
    int back = session_text_for(s, 0, e);
    for (int k = 0; k < s->n; k++) { /* every model reads the first's tokens through its map */
        s->model[k].text.tok = s->text.tok;
        s->model[k].text.model = s->model[0].base;
    }
    return rc ? rc : back;
}

int cli_screen_run(const cli *c, gt_session *s,
                   int (*show)(const gt_session *, const gt_screen_opts *, gt_error *),
                   gt_error *e)
{
    /* a session without the screen's entry opens at step 0, on the screen as by --export */
    const long step = c->session && c->step < 0 ? 0 : c->step;
    gt_screen_opts so = {(int)c->layer, step, c->edits, c->nedits, c->size, c->mode_arg,
                         c->find.steps, c->env.color, c->env.mouse, c->env.term,
                         c->env.threads, c->sfile.screen, c->session,
                         c->model > 0 ? (int)c->model - 1 : 0};
    int rc = screen_texts(s, e);
    return rc ? rc : show(s, &so, e);
}
