/* gatetui: the command line. Reads the environment and the options, loads the models and
 * the text, and hands them to the mode asked for (the table of src/cli/modes.c); prints
 * the one-line error and sets the exit status. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gatetui/kernset.h"
#include "gatetui/numlibs.h"

/* The environment, read once here and passed down (doc/usage.md, "Environment"); a bad
 * GATETUI_THREADS is bad usage. */
static int read_env(cli_env *env)
{
    const char *th = getenv("GATETUI_THREADS");
    const char *nc = getenv("NO_COLOR");
    *env = (cli_env){.threads = -1,
                     .progress = isatty(STDERR_FILENO),
                     .kernel = getenv("GATETUI_KERNEL"),
                     .color = !(nc && *nc),
                     .mouse = getenv("GATETUI_NOMOUSE") == NULL,
                     .term = getenv("TERM")};
    if (!th || !*th)
        return GT_OK;
    char *end;
    errno = 0;
    long v = strtol(th, &end, 10);
    if (errno || end == th || *end || v < 0 || v > INT_MAX) {
        fprintf(stderr, "gatetui: GATETUI_THREADS wants an integer >= 0, not \"%s\"\n", th);
        return GT_EINPUT;
    }
    env->threads = (int)v;
    return GT_OK;
}

/* Standard error is a terminal (set before the handlers): the line then starts on a line
 * of its own, after the ^C the terminal echoed or a progress bar's line. */
static volatile sig_atomic_t stderr_tty;

/* Ctrl-C (or SIGTERM, SIGHUP) outside the screen: a line saying so, then the default
 * action at once. Files are only ever written whole (src/screen/export.c), so nothing
 * half-written stays behind. */
static void on_interrupt(int sig)
{
    const char *m = sig == SIGINT ? "\ngatetui: interrupted (SIGINT)\n"
                    : sig == SIGTERM ? "\ngatetui: terminated (SIGTERM)\n"
                                     : "\ngatetui: hung up (SIGHUP)\n";
    if (!stderr_tty)
        m++; /* one line in a file or a pipe */
    if (write(STDERR_FILENO, m, strlen(m)) < 0) {
        /* nothing more can be done */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_interrupts(void)
{
    stderr_tty = isatty(STDERR_FILENO);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
    /* only the characters from the environment's locale (a UTF-8 one draws blocks and
       braille): numbers are read and written with a decimal point, messages in English,
       ranges of a regular expression by code point, whatever else it says (doc/usage.md,
       "Environment") */
    setlocale(LC_CTYPE, "");
    cli c;
    int rc = cli_parse(&c, cli_modes, argc, argv);
    if (rc)
        return rc;
    if (c.mode->now) { /* --help, --version, --kernels: 1 when standard output failed */
        rc = c.mode->now(cli_modes);
        if (rc == GT_OK && (fflush(stdout) || ferror(stdout))) {
            fputs("gatetui: writing the output: standard output failed\n", stderr);
            rc = GT_EFAIL;
        }
        return rc;
    }
    if ((rc = read_env(&c.env)))
        return rc;
    gt_error e = {0};
    if ((rc = kernset_choose(c.env.kernel, &e))) {
        fprintf(stderr, "gatetui: GATETUI_KERNEL: %s\n", e.msg);
        return rc;
    }
    /* the screen loads the numerical libraries before any thread or child of its own
       (gatetui/numlibs.h), the other modes when they first call them */
    if ((c.mode->flags & MODE_SCREEN) && (rc = numlibs_load(&e))) {
        fprintf(stderr, "gatetui: %s\n", e.msg);
        return rc;
    }
    if (!(c.mode->flags & MODE_SCREEN))
        catch_interrupts();
    gt_session s = {0};
    rc = cli_session_file(&c, &e);
    if (rc == GT_OK)
        rc = cli_session_open(&s, &c, &e);
    if (rc == GT_OK)
        rc = c.mode->each ? cli_each_model(&c, &s, c.mode->each, &e) : c.mode->run(&c, &s, &e);
    if (rc)
        fprintf(stderr, "gatetui: %s\n", e.msg);
    session_close(&s);
    sessionfile_free(&c.sfile);
    return rc;
}
