/* The finding modes, --units, --select, --profile and --html (doc/usage.md, "Finding
 * units"): one function, find_main, told which by the row. */
#include "config.h"

#include <limits.h>
#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/finding.h"

static int find_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                     gt_error *e)
{
    cli_say_interventions(im); /* named wherever values are shown */
    gt_find_options o = c->find;
    o.mode = (gt_find_mode)c->mode->find;
    o.arg = c->mode_arg;
    o.layer = c->layer < 0 ? 0 : (int)c->layer;
    o.json = c->json;
    o.from = c->from;
    o.to = c->to == LONG_MAX ? -1 : c->to;
    o.threads = c->env.threads < 0 ? 1 : c->env.threads;
    cli_progress p;
    cli_progress_start(&p, c, &o.progress, &o.progress_ctx);
    int rc = find_main(out, &im->mi, t, &o, e);
    cli_progress_end(&p);
    return rc;
}

#define FIND_USAGE "[--signal s] [--steps N] [--layer N] [--json] MODEL [MODEL ...] TEXT"

const cli_mode cli_mode_units = {
    .name = "units",
    .option = "units",
    .arg = 1,
    .find = FIND_UNITS,
    .each = find_each,
    .usage = "--units REGEX [--signal s] [--steps N] [--regex-seconds S] [--layer N] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --units REGEX       every unit's correlation with where REGEX matches\n",
};

const cli_mode cli_mode_select = {
    .name = "select",
    .option = "select",
    .arg = 1,
    .find = FIND_SELECT,
    .each = find_each,
    .usage = "--select A:B [--signal s] [--threshold T] [--steps N] [--layer N] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --select A:B        the units on throughout steps A..B, and where else they\n"
            "                      are\n",
};

const cli_mode cli_mode_profile = {
    .name = "profile",
    .option = "profile",
    .find = FIND_PROFILE,
    .each = find_each,
    .usage = "--profile --unit J " FIND_USAGE,
    .help = "  --profile           a unit's highest and lowest steps, its mean by character\n",
};

const cli_mode cli_mode_html = {
    .name = "html",
    .option = "html",
    .arg = 1,
    .flags = MODE_ONE_MODEL,
    .find = FIND_HTML,
    .each = find_each,
    .usage = "--html FILE (--unit J | --component J) [--signal s] [--steps N] [--from A] [--to B] "
             "[--layer N] MODEL TEXT",
    .help = "  --html FILE         the text coloured by a unit, as a new HTML page\n",
};

static const cli_option find_opts[] = {
    {"unit", 1, cli_set_count, offsetof(cli, find.unit), 0},
    {"signal", 1, cli_set_text, offsetof(cli, find.signal), 0},
    {"threshold", 1, cli_set_text, offsetof(cli, find.threshold), 0},
    {"steps", 1, cli_set_count, offsetof(cli, find.steps), 1},
    {"regex-seconds", 1, cli_set_count, offsetof(cli, find.regex_seconds), 1},
    {0}};

/* Their options (--unit also the Jacobian's, --steps also the screen's). */
const cli_mode cli_find_options = {
    .name = "finding options",
    .opts = find_opts,
    .help = "  --unit J            profile, html, figure unit: the unit; jacobian: its row\n"
            "                      (default 0)\n"
            "  --signal s          i f g o c h (LSTM), r z n h (GRU), a h (RNN); default h\n"
            "  --threshold T       select: the value that counts as on (default 0.3)\n"
            "  --steps N           units, select, profile, html, probe, components and the\n"
            "                      screen's m, v, p: the first N steps (default 100000);\n"
            "                      lyapunov (its figure too), fixed-points: the steps run\n"
            "                      (default 5000)\n"
            "  --regex-seconds S   units, probe, effect: stop a search of the text after S\n"
            "                      seconds (default 30)\n",
};
