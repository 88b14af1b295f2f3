/* --carriers --edit S:C: which units carry an edit's effect on the predictions
 * (doc/usage.md, "--carriers"). */
#include "config.h"

#include "cli/cli.h"
#include "gatetui/carriers.h"
#include "gatetui/editarg.h"

#define TOP 20 /* the units the table lists */

static int carriers_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                         gt_error *e)
{
    size_t s;
    int to;
    int rc = editarg_parse(ms->base, c->edit, t->steps, &s, &to, e);
    if (rc)
        return rc;
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_carriers r;
    rc = carriers_compute(&r, &ms->mi, t->tok, t->steps, s, to, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    rc = c->json ? carriers_print_json(out, &r, ms->what, e)
                 : carriers_print_text(out, &r, ms->what, TOP, e);
    carriers_free(&r);
    return rc;
}

/* The edit it measures: one line, before any model is read. */
static int carriers_check(const cli *c, gt_error *e)
{
    if (!c->edit)
        return gt_fail(e, GT_EINPUT, "--carriers needs --edit S:C (the step and the character "
                                     "put there)");
    return GT_OK;
}

const cli_mode cli_mode_carriers = {
    .name = "carriers",
    .option = "carriers",
    .flags = MODE_READOUT,
    .check = carriers_check,
    .each = carriers_each,
    .usage = "--carriers --edit S:C [--layer N] [--horizon K] [--json] MODEL [MODEL ...] TEXT",
    .help = "  --carriers          the units of the layer that carry the effect of --edit S:C\n"
            "                      on the next-character distributions over --horizon K steps\n"
            "                      (default 64): each alone, and the share that needs it\n",
};
