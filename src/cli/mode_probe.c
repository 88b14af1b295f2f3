/* The modes --probe and --components (doc/usage.md, "Probes and components"): one
 * function, told which by the row; --signal and --steps are the finding modes'. */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/probe.h"

static int probe_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                      gt_error *e)
{
    cli_say_interventions(im);
    gt_probe_options o = c->probe;
    o.mode = c->mode->find ? PROBE_COMPONENTS : PROBE_FIT;
    o.arg = c->mode_arg;
    o.signal = c->find.signal;
    o.steps = c->find.steps;
    o.regex_seconds = c->find.regex_seconds;
    o.layer = c->layer < 0 ? 0 : (int)c->layer;
    o.json = c->json;
    o.threads = c->env.threads < 0 ? 1 : c->env.threads;
    o.fit_threads = c->env.threads < 1 ? 0 : c->env.threads; /* 0: the probe's choice */
    cli_progress p;
    cli_progress_start(&p, c, &o.progress, &o.progress_ctx);
    int rc = probe_main(out, &im->mi, t, &o, e);
    cli_progress_end(&p);
    return rc;
}

const cli_mode cli_mode_probe = {
    .name = "probe",
    .option = "probe",
    .arg = 1,
    .each = probe_each,
    .usage = "--probe REGEX [--signal s] [--steps N] [--regex-seconds S] [--folds K] [--l2 L] "
             "[--layer N] [--json] MODEL [MODEL ...] TEXT",
    .help = "  --probe REGEX       a cross-validated logistic probe of REGEX on every unit\n",
};

const cli_mode cli_mode_components = {
    .name = "components",
    .option = "components",
    .arg = 1,
    .find = 1, /* tells the two apart */
    .each = probe_each,
    .usage = "--components K [--signal s] [--steps N] [--layer N] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --components K      the signal's K principal components\n",
};

static const cli_option probe_opts[] = {
    {"folds", 1, cli_set_count, offsetof(cli, probe.folds), 2},
    {"l2", 1, cli_set_text, offsetof(cli, probe.l2), 0},
    {"component", 1, cli_set_count, offsetof(cli, find.component), 0},
    {0}};

/* The probe's options. */
const cli_mode cli_probe_options = {
    .name = "probe options",
    .opts = probe_opts,
    .help = "  --folds K           probe: contiguous folds (default 5)\n"
            "  --l2 L              probe: the weights' L2 penalty (default 0.001)\n"
            "  --component J       html: colour by principal component J, not a unit\n",
};
