/* --effect REGEX: what an intervention does where a hypothesis holds and where it does not,
 * against random sets of units (doc/usage.md, "--effect"). */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/effect.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static int effect_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                       gt_error *e)
{
    gt_effect_options o;
    effect_options_init(&o);
    cli_progress p;
    cli_report_options(c, &o.win, &p);
    o.controls = c->controls;
    o.seed = (unsigned long long)c->seed;
    o.regex_seconds = c->find.regex_seconds;
    gt_effect r;
    int rc = effect_compute(&r, ms->base, &ms->mi, &ms->iv, t->tok, t->steps, c->mode_args,
                            c->nmode_args, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    cli_windows_note(o.win.windows_asked, r.windows, r.window_len, t->steps, &ms->mi);
    rc = c->json ? effect_print_json(out, &r, ms->what, e)
                 : effect_print_text(out, &r, ms->what, e);
    effect_free(&r);
    return rc;
}

/* An intervention to measure: one line, before any model is read. */
static int effect_check(const cli *c, gt_error *e)
{
    if (c->niv == 0)
        return gt_fail(e, GT_EINPUT, "--effect needs an intervention: --ablate L:UNITS, "
                                     "--forget-bias D[@L[:UNITS]] or --carousel[@L]");
    return GT_OK;
}

static const cli_option effect_opts[] = {
    {"controls", 1, cli_set_count, offsetof(cli, controls), 0},
    {"seed", 1, cli_set_count, offsetof(cli, seed), 0},
    {0}};

const cli_mode cli_mode_effect = {
    .name = "effect",
    .option = "effect",
    .arg = 1,
    .flags = MODE_READOUT | MODE_REPEAT,
    .check = effect_check,
    .each = effect_each,
    .opts = effect_opts,
    .usage = "--effect REGEX [--effect REGEX ...] (--ablate L:UNITS | --forget-bias D[@L[:UNITS]] "
             "| --carousel[@L]) [--controls R] [--seed S] [--windows N] [--window-len L] "
             "[--regex-seconds S] [--json] MODEL [MODEL ...] TEXT",
    .help = "  --effect REGEX      the loss with and without the interventions where the next\n"
            "                      character lies inside a match of REGEX and elsewhere, with\n"
            "                      95% intervals over the report's windows (repeatable)\n"
            "  --controls R        effect of --ablate: R random sets of the same size ablated\n"
            "                      in its place (default " STR(EFFECT_CONTROLS) ")\n"
            "  --seed S            effect: the seed of the control sets (default " STR(EFFECT_SEED)
            ")\n",
};
