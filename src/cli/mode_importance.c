/* --importance: each unit's increase of the loss when it is ablated (doc/usage.md). */
#include "config.h"

#include "cli/cli.h"
#include "gatetui/importance.h"

static int importance_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                           gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_importance im;
    int rc = importance_compute(&im, &ms->mi, t->tok, t->steps, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    cli_windows_note(o.windows_asked, im.windows, im.window_len, t->steps, &ms->mi);
    rc = c->json ? importance_print_json(out, &im, ms->what, e)
                 : importance_print_text(out, &im, ms->what, 0, e);
    importance_free(&im);
    return rc;
}

const cli_mode cli_mode_importance = {
    .name = "importance",
    .option = "importance",
    .flags = MODE_READOUT,
    .each = importance_each,
    .usage = "--importance [--layer N] [--windows N] [--window-len L] [--json] MODEL [MODEL ...] "
             "TEXT",
    .help = "  --importance        each unit's increase of the loss when it is ablated, over\n"
            "                      the report's windows (--layer, --windows, --window-len)\n",
};
