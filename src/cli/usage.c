/* The usage, made from the table (cli.h): the modes that read models first, then the
 * groups' lines, then the modes that run at once on one line. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"

void cli_usage(FILE *f, const cli_mode *const *modes)
{
    const char *lead = "usage: gatetui ";
    for (int i = 0; modes[i]; i++)
        if ((modes[i]->each || modes[i]->run) && modes[i]->usage) {
            fprintf(f, "%s%s\n", lead, modes[i]->usage);
            lead = "       gatetui ";
        }
    for (int i = 0; modes[i]; i++)
        if (!modes[i]->each && !modes[i]->run && !modes[i]->now && modes[i]->usage)
            fprintf(f, "%s\n", modes[i]->usage);
    int now = 0;
    for (int i = 0; modes[i]; i++)
        if (modes[i]->now && modes[i]->usage) {
            fprintf(f, "%s%s", now ? " | " : "       gatetui ", modes[i]->usage);
            now = 1;
        }
    if (now)
        fputs("\n", f);
}

int cli_bad_usage(const char *fmt, const char *arg)
{
    fputs("gatetui: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (gatetui --help shows the usage)\n", stderr);
    return GT_EINPUT;
}
