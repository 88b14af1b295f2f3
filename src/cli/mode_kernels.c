/* --kernels: the kernel sets this processor runs, best first. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "gatetui/kernset.h"

static int kernels_now(const cli_mode *const *modes)
{
    const char *names[8];
    int n = kernset_names(names, 8);
    for (int i = 0; i < n; i++)
        puts(names[i]);
    return GT_OK;
}

const cli_mode cli_mode_kernels = {
    .name = "kernels",
    .option = "kernels",
    .now = kernels_now,
    .usage = "--kernels",
    .help = "  --kernels           list the kernel sets this processor runs, best first\n",
};
