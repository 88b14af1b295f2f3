/* --session FILE: a session written by the screen's W opened again (doc/usage.md,
 * "Sessions"), on the screen or by --export. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_session_alone(const cli *c)
{
    const char *given = c->niv                      ? "--forget-bias, --carousel or --ablate"
                        : c->nedits                 ? "--edit or --edits"
                        : c->model >= 0             ? "--model"
                        : c->layer >= 0             ? "--layer"
                        : c->step >= 0              ? "--step"
                        : c->find.steps >= 0        ? "--steps"
                        : c->mopt.vocab_file        ? "--vocab"
                        : c->mopt.vocab_from        ? "--vocab-from"
                        : c->mopt.tokens            ? "--tokens"
                        : c->mopt.embedding         ? "--embedding"
                        : c->mopt.gru_reset >= 0    ? "--gru-reset"
                        : c->mopt.nonlinearity >= 0 ? "--nonlinearity"
                                                    : NULL;
    if (c->mode->option && strcmp(c->mode->option, "export") != 0)
        return cli_bad_usage("--session goes with the screen or --export, not --%s",
                             c->mode->option);
    if (given)
        return cli_bad_usage("--session FILE: the models, the text, their options, "
                             "the edits, the interventions, the layer, the step and the steps "
                             "searched are the session's (%s given)", given);
    return GT_OK;
}

int cli_session_file(cli *c, gt_error *e)
{
    if (!c->session)
        return GT_OK;
    int rc = sessionfile_read(&c->sfile, c->session, e);
    if (rc)
        return rc;
    c->model_path = (char **)c->sfile.model_path;
    c->nmodels = c->sfile.nmodels;
    c->text_path = c->sfile.text_path;
    c->mopt = c->sfile.mopt;
    return GT_OK;
}

static const cli_option session_opts[] = {
    {"session", 1, cli_set_text_once, offsetof(cli, session), 0},
    {0}};

/* --session, which the screen and --export take in place of their models and text. */
const cli_mode cli_session_options = {
    .name = "session",
    .opts = session_opts,
    .usage = "       gatetui [--export FILE [--size COLSxROWS]] --session SESSION",
    .help = "  --session SESSION   the screen as W wrote it to SESSION\n"
            "                      (NAME.gatetui-session.json): its models, text, edits,\n"
            "                      interventions, layer, step, unit, order, hypothesis and\n"
            "                      sheet; a file changed since is refused; with --export\n"
            "                      FILE, that frame written to FILE\n",
};
