/* The table of the command line's rows (cli.h), in the order of --help. A new mode is one
 * row here and one file, src/cli/mode_NAME.c, that defines it (doc/architecture.md, "Where
 * a change goes"). */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"

extern const cli_mode cli_mode_screen, cli_mode_report, cli_mode_dump, cli_mode_export,
    cli_mode_kernels, cli_mode_units, cli_mode_select, cli_mode_profile, cli_mode_html,
    cli_find_options, cli_mode_probe, cli_mode_components, cli_probe_options,
    cli_mode_jacobian, cli_mode_importance, cli_mode_sweep, cli_mode_lyapunov, cli_mode_spectrum,
    cli_mode_fixed, cli_mode_effect, cli_mode_carriers, cli_mode_figure, cli_session_options,
    cli_mode_help,
    cli_mode_version;

static const cli_option iv_opts[] = {
    {"forget-bias", 1, cli_set_iv, 0, 0},
    {"carousel", 0, cli_set_iv, 0, 0}, /* --carousel@L: taken apart before getopt */
    {"ablate", 1, cli_set_iv, 0, 0},
    {0}};

/* The interventions, which every mode takes. */
static const cli_mode interventions = {
    .name = "interventions",
    .opts = iv_opts,
    .usage = "  any mode: [--forget-bias D[@L[:UNITS]]] [--carousel[@L]] [--ablate L:UNITS]",
    .help = "  --forget-bias D[@L[:UNITS]]  add D to the forget gate's bias (GRU: update z;\n"
            "                      b_hh) of every unit, or of layer L, or of those UNITS\n"
            "                      (like 3,17,200-210); repeatable, shifts add\n"
            "  --carousel[@L]      LSTM: hold f at 1 (every layer, or layer L)\n"
            "  --ablate L:UNITS    hold those units' c and h at 0 after every step\n",
};

const cli_mode *const cli_modes[] = {
    &cli_mode_screen,    /* the first without an option: the mode when none is given */
    &cli_mode_report,
    &cli_mode_dump,
    &cli_mode_export,
    &cli_mode_kernels,
    &cli_mode_units,
    &cli_mode_select,
    &cli_mode_profile,
    &cli_mode_html,
    &cli_find_options,
    &cli_mode_probe,
    &cli_mode_components,
    &cli_probe_options,
    &cli_mode_jacobian,
    &cli_mode_lyapunov,
    &cli_mode_spectrum,
    &cli_mode_fixed,
    &cli_session_options,
    &interventions,
    &cli_mode_importance,
    &cli_mode_effect,
    &cli_mode_carriers,
    &cli_mode_figure,
    &cli_mode_sweep,
    &cli_mode_help,
    &cli_mode_version,
    NULL,
};
