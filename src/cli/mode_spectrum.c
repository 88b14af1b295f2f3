/* --spectrum: the eigenvalues of a layer's step Jacobian at step T (doc/usage.md). */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/dynamics.h"

static int spectrum_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                         gt_error *e)
{
    cli_say_interventions(im);
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    const size_t T = (size_t)c->step;
    if (T >= t->steps)
        return cli_past_end(e, "--step", c->step, t->steps);
    gt_spectrum s;
    int rc = spectrum_compute(&s, &im->mi, layer, t->tok, T, e);
    if (rc)
        return rc;
    rc = c->json ? spectrum_print_json(out, &s, e) : spectrum_print_text(out, &s, e);
    spectrum_free(&s);
    return rc;
}

const cli_mode cli_mode_spectrum = {
    .name = "spectrum",
    .option = "spectrum",
    .needs_step = "T",
    .each = spectrum_each,
    .usage = "--spectrum --step T [--layer N] [--json] MODEL [MODEL ...] TEXT",
    .help = "  --spectrum          the eigenvalues of the layer's step Jacobian at --step T\n",
};
