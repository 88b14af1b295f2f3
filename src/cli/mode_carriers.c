/* --carriers --edit S:C: which units carry an edit's effect on the predictions
 * (doc/usage.md, "--carriers"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/carriers.h"
#include "gatetui/editarg.h"

#define TOP 20 /* the units the table lists */

/* The edits of the command line for model ms; the tokens with every edit but the last
 * made into *tok (NULL: none before it, t's own), those edits into *before (l.n - 1 of
 * them), the last's step and token in *s, *to. */
static int last_edit(const cli *c, const gt_session_model *ms, const gt_text *t,
                     uint16_t **tok, gt_carriers_edit **before, size_t *nbefore, size_t *s,
                     int *to, gt_error *e)
{
    gt_editlist l;
    int rc = editlist_parse(&l, ms->base, t, c->edits, c->nedits, e);
    if (rc)
        return rc;
    *tok = NULL;
    *before = NULL;
    *nbefore = l.n > 1 ? l.n - 1 : 0;
    if (!l.n)
        rc = gt_fail(e, GT_EINPUT, "--carriers: %s holds no edit", c->edits[0].arg);
    else if (l.n > 1 && (!(*tok = malloc(t->steps * sizeof **tok)) ||
                         !(*before = malloc((l.n - 1) * sizeof **before))))
        rc = gt_fail(e, GT_EFAIL, "out of memory for the edits");
    if (rc == GT_OK && *tok) {
        memcpy(*tok, t->tok, t->steps * sizeof **tok);
        for (size_t i = 0; i + 1 < l.n; i++) {
            (*before)[i] = (gt_carriers_edit){l.at[i].step, (*tok)[l.at[i].step], l.at[i].tok};
            (*tok)[l.at[i].step] = (uint16_t)l.at[i].tok;
        }
    }
    if (rc == GT_OK) {
        *s = l.at[l.n - 1].step;
        *to = l.at[l.n - 1].tok;
    }
    editlist_free(&l);
    return rc;
}

/* The last edit against the text as the edits before it leave it. */
static int carriers_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                         gt_error *e)
{
    size_t s;
    int to;
    uint16_t *tok = NULL;
    gt_carriers_edit *before = NULL;
    size_t nbefore;
    int rc = last_edit(c, ms, t, &tok, &before, &nbefore, &s, &to, e);
    if (rc) {
        free(tok);
        free(before);
        return rc;
    }
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_carriers r;
    rc = carriers_compute(&r, &ms->mi, tok ? tok : t->tok, t->steps, s, to, &o, e);
    cli_progress_end(&p);
    free(tok);
    if (rc) {
        free(before);
        return rc;
    }
    r.before = before;
    r.nbefore = before ? nbefore : 0;
    const long asked = o.horizon > 0 ? o.horizon : REPORT_HORIZON;
    static int said; /* every model's K is the same: said once */
    if ((long)r.horizon < asked && !said) { /* the text ends before the horizon */
        char a[32], b[32], h[48], k[32];
        snprintf(h, sizeof h, o.horizon > 0 ? "--horizon %ld" : "the horizon %ld by default",
                 asked);
        if (r.horizon == 0)
            fprintf(stderr, "gatetui: K is 0: the text ends at the edit (step %s; %s)\n",
                    report_commas(s, b, sizeof b), h);
        else
            fprintf(stderr, "gatetui: K is %s: the text ends %s after the edit at step %s "
                            "(%s)\n", report_commas(r.horizon, k, sizeof k),
                    report_count(r.horizon, "step", a, sizeof a),
                    report_commas(s, b, sizeof b), h);
        said = 1;
    }
    rc = c->json ? carriers_print_json(out, &r, ms->what, e)
                 : carriers_print_text(out, &r, ms->what, TOP, e);
    carriers_free(&r);
    free(before);
    return rc;
}

/* The edit it measures: one line, before any model is read. */
static int carriers_check(const cli *c, gt_error *e)
{
    if (!c->nedits)
        return gt_fail(e, GT_EINPUT, "--carriers needs --edit S:C (the step and the character "
                                     "put there) or --edits FILE");
    return GT_OK;
}

const cli_mode cli_mode_carriers = {
    .name = "carriers",
    .option = "carriers",
    .flags = MODE_READOUT | MODE_EDITS,
    .check = carriers_check,
    .each = carriers_each,
    .usage = "--carriers (--edit S:C ... | --edits FILE) [--layer N] [--horizon K] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --carriers          the units of the layer that carry the effect of the last\n"
            "                      edit (--edit S:C, --edits FILE) on the next-character\n"
            "                      distributions over --horizon K steps (default 64), against\n"
            "                      the text with the edits before it: each unit alone, and\n"
            "                      the share that needs it\n",
};
