/* --export FILE --step N: the screen rendered as text, without a terminal. */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"
#include "screen/export.h"

static int export_run(const cli *c, gt_session *s, gt_error *e)
{
    return cli_screen_run(c, s, export_main, e);
}

/* An empty FILE is bad usage (not a file that cannot be written). */
static int export_check(const cli *c, gt_error *e)
{
    if (!c->mode_arg || !*c->mode_arg)
        return gt_fail(e, GT_EINPUT, "--export needs a file name (or - for standard output)");
    return GT_OK;
}

static const cli_option export_opts[] = {
    {"step", 1, cli_set_count, offsetof(cli, step), 0},
    {"edit", 1, cli_set_edit, 0, 0},
    {"edits", 1, cli_set_edit, 0, 0},
    {"size", 1, cli_set_text, offsetof(cli, size), 0},
    {"model", 1, cli_set_count, offsetof(cli, model), 1},
    {0}};

const cli_mode cli_mode_export = {
    .name = "export",
    .option = "export",
    .flags = MODE_EDITS | MODE_PICK,
    .arg = 1,
    .needs_step = "N",
    .check = export_check,
    .run = export_run,
    .opts = export_opts,
    .usage = "--export FILE --step N [--edit S:C ...] [--edits FILE] [--size COLSxROWS] "
             "[--layer N] [--model I] MODEL [MODEL ...] TEXT",
    .help = "  --export FILE       render the screen at --step N as text into FILE\n"
            "  --edit S:C          the screen, export, carriers, figure perturbation: replace\n"
            "                      the character at step S with C first (a word model's\n"
            "                      S:W: the token W); repeatable, made in the order given\n"
            "  --edits FILE        the same for each edit of the list w wrote (its byte\n"
            "                      offsets checked against the text); carriers and figure:\n"
            "                      the last edit measured\n"
            "  --size COLSxROWS    export: the frame size (default 120x40)\n",
};
