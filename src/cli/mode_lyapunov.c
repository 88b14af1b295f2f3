/* --lyapunov: the Lyapunov spectrum of a layer's whole state along the text (doc/usage.md). */
#include "config.h"

#include <math.h>
#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/dynamics.h"
#include "gatetui/report.h"

#define LYAPUNOV_STEPS 5000

/* The report's measured, linearized and forget-only half-lives, for the text's table. */
static int report_halflives(const cli *c, const gt_session_model *im, const gt_text *t, double hl[3],
                            gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_report r;
    int rc = report_compute(&r, &im->mi, t->tok, t->steps, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    cli_report_note(&r, o.windows_asked, t->steps);
    hl[0] = im->mi.cell->has_c ? r.hl_cell : r.hl_hidden; /* the carried state's */
    hl[1] = r.hl_linearized;
    hl[2] = r.hl_forget_only;
    report_free(&r);
    return GT_OK;
}

int cli_lyapunov(const cli *c, const gt_session_model *im, const gt_text *t, gt_lyapunov *l,
                 gt_error *e)
{
    const gt_model *m = &im->mi;
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    /* J_1..J_N at the text's steps 1..N, step 0 setting the state J_1 is taken from: N at
       most the text's steps - 1 (doc/usage.md, "--lyapunov") */
    size_t N = c->find.steps < 0 ? LYAPUNOV_STEPS : (size_t)c->find.steps;
    if (N > t->steps - 1)
        N = t->steps - 1;
    const int n = dyn_state_size(m, layer);
    char run[32];
    if (c->lmodes > n)
        return gt_fail(e, GT_EINPUT, "--modes %ld: the state of layer %d has %d numbers "
                       "(1..%d)", c->lmodes, layer, n, n);
    if (N < 1)
        return gt_fail(e, GT_EINPUT, "--lyapunov: the text has %zu step%s; the spectrum needs "
                       "at least 2 (step 0 sets the state the first step's Jacobian is taken "
                       "from)", t->steps, t->steps == 1 ? "" : "s");
    if ((size_t)c->warmup >= N)
        return gt_fail(e, GT_EINPUT, "--warmup %ld: not below the %s steps whose Jacobians are "
                       "taken (steps 1..%s of the text)", c->warmup,
                       report_commas(N, run, sizeof run), run);
    return lyapunov_compute(l, m, layer, (int)c->lmodes, t->tok, N, (size_t)c->warmup,
                            c->env.threads < 0 ? 0 : c->env.threads, e);
}

static int lyapunov_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                         gt_error *e)
{
    cli_say_interventions(im);
    gt_lyapunov l;
    int rc = cli_lyapunov(c, im, t, &l, e);
    if (rc)
        return rc;
    double hl[3] = {NAN, NAN, NAN};
    if (!c->json)
        rc = report_halflives(c, im, t, hl, e);
    if (!rc)
        rc = c->json ? lyapunov_print_json(out, &l, e) : lyapunov_print_text(out, &l, hl, e);
    lyapunov_free(&l);
    return rc;
}

static const cli_option lyapunov_opts[] = {
    {"modes", 1, cli_set_count, offsetof(cli, lmodes), 1},
    {"warmup", 1, cli_set_count, offsetof(cli, warmup), 0},
    {0}};

const cli_mode cli_mode_lyapunov = {
    .name = "lyapunov",
    .option = "lyapunov",
    .each = lyapunov_each,
    .opts = lyapunov_opts,
    .usage = "--lyapunov [--modes M] [--steps N] [--warmup W] [--layer N] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --lyapunov          the Lyapunov spectrum of the layer's state along the text\n"
            "  --modes M           lyapunov (its figure too): the exponents computed\n"
            "                      (default 32)\n"
            "  --warmup W          lyapunov (its figure too): J_1..J_W left out of the means\n"
            "                      (default 100);\n"
            "                      its --steps N: J_1..J_N, of the text's steps 1..N\n"
            "                      (default 5000; step 0 sets the state J_1 is taken from)\n",
};
