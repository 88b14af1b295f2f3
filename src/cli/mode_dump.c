/* --dump: every value, or the readout's probabilities, as CSV (doc/usage.md). */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "gatetui/dump.h"

static int dump_run(const cli *c, gt_session *s, gt_error *e)
{
    /* the model --model picks (the text in its tokens), else the one given */
    const int k = c->model > 0 ? (int)c->model - 1 : 0;
    const gt_session_model *im = &s->model[k];
    int rc = session_text_for(s, k, e);
    /* the loss warning unless the interventions are named instead */
    if (rc == GT_OK)
        rc = cli_measure_loss(&im->mi, &s->text, !im->what[0], e);
    if (rc)
        return rc;
    cli_say_interventions(im);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    const gt_text *t = &s->text;
    if ((size_t)c->from >= t->steps)
        return cli_past_end(e, "--from", c->from, t->steps);
    size_t to = c->to == LONG_MAX ? t->steps - 1 : (size_t)c->to;
    return c->probs ? dump_probs(stdout, &im->mi, t, (size_t)c->from, to, e)
                    : dump_values(stdout, &im->mi, t, (int)c->layer, (size_t)c->from, to, e);
}

static const cli_option dump_opts[] = {
    {"from", 1, cli_set_count, offsetof(cli, from), 0},
    {"to", 1, cli_set_count, offsetof(cli, to), 0},
    {"probs", 0, cli_set_flag, offsetof(cli, probs), 0},
    {"model", 1, cli_set_count, offsetof(cli, model), 1},
    {0}};

const cli_mode cli_mode_dump = {
    .name = "dump",
    .option = "dump",
    .flags = MODE_ONE_MODEL | MODE_PICK | MODE_NO_SKIPS,
    .run = dump_run,
    .opts = dump_opts,
    .usage = "--dump [--layer N] [--from A] [--to B] [--probs] [--model I] MODEL [MODEL ...] TEXT",
    .help = "  --dump              every value as CSV on standard output\n"
            "  --from A, --to B    dump, html, figure unit: first and last step (inclusive;\n"
            "                      from 0)\n"
            "  --probs             dump: the readout's next-character probabilities instead\n"
            "  --model I           dump, export: the I-th MODEL of several (from 1, as the\n"
            "                      screen's header counts them; export's default: the first)\n",
};
