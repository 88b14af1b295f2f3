/* --version. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"

static int version_now(const cli_mode *const *modes)
{
    printf("gatetui %s\n", PACKAGE_VERSION);
    return GT_OK;
}

const cli_mode cli_mode_version = {
    .name = "version",
    .option = "version",
    .now = version_now,
    .usage = "--version",
};
