/* The options' setters (cli.h): each sets the field of the cli that its option names. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define FIELD(c, o, type) ((type *)((char *)(c) + (o)->at))

int cli_past_end(gt_error *e, const char *option, long v, size_t steps)
{
    char n[32], last[32];
    return gt_fail(e, GT_EINPUT, "%s %ld: the text has %s steps (0..%s)", option, v,
                   report_commas(steps, n, sizeof n),
                   report_commas(steps ? steps - 1 : 0, last, sizeof last));
}

int cli_set_count(cli *c, const cli_option *o, const char *arg)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno == ERANGE && v == LONG_MAX && end != arg && !*end) {
        fprintf(stderr, "gatetui: --%s %s: more than %ld, the largest it takes\n", o->name, arg,
                LONG_MAX);
        return GT_EINPUT;
    }
    if (errno || end == arg || *end || v < o->min) {
        fprintf(stderr, "gatetui: --%s wants an integer >= %ld, not \"%s\"\n", o->name, o->min,
                arg);
        return GT_EINPUT;
    }
    *FIELD(c, o, long) = v;
    return GT_OK;
}

int cli_set_text(cli *c, const cli_option *o, const char *arg)
{
    *FIELD(c, o, const char *) = arg;
    return GT_OK;
}

int cli_set_text_once(cli *c, const cli_option *o, const char *arg)
{
    const char **field = FIELD(c, o, const char *);
    if (*field) {
        fprintf(stderr, "gatetui: --%s given twice (\"%s\", then \"%s\"): it takes one\n",
                o->name, *field, arg);
        return GT_EINPUT;
    }
    *field = arg;
    return GT_OK;
}

int cli_set_flag(cli *c, const cli_option *o, const char *arg)
{
    *FIELD(c, o, int) = 1;
    return GT_OK;
}

int cli_set_reset(cli *c, const cli_option *o, const char *arg)
{
    if (strcmp(arg, "before") == 0)
        c->mopt.gru_reset = 1;
    else if (strcmp(arg, "after") == 0)
        c->mopt.gru_reset = 0;
    else
        return cli_bad_usage("--gru-reset wants 'before' or 'after', not \"%s\"", arg);
    return GT_OK;
}

int cli_set_nonlinearity(cli *c, const cli_option *o, const char *arg)
{
    if (strcmp(arg, "tanh") == 0 || strcmp(arg, "relu") == 0)
        c->mopt.nonlinearity = arg[0] == 'r';
    else
        return cli_bad_usage("--nonlinearity wants 'tanh' or 'relu', not \"%s\"",
                             arg);
    return GT_OK;
}

int cli_set_tokens(cli *c, const cli_option *o, const char *arg)
{
    if (strcmp(arg, "chars") == 0 || strcmp(arg, "words") == 0)
        c->mopt.tokens = arg[0] == 'w' ? GT_TOKENS_WORDS : GT_TOKENS_CHARS;
    else
        return cli_bad_usage("--tokens wants 'chars' or 'words', not \"%s\"", arg);
    return GT_OK;
}

/* --forget-bias, --carousel, --ablate: kept in order, as the option's first letter. */
int cli_set_iv(cli *c, const cli_option *o, const char *arg)
{
    if (c->niv == CLI_MAX_IV)
        return cli_bad_usage("at most %s interventions", "256");
    c->iv[c->niv++] = (gt_session_iv){o->name[0], arg};
    return GT_OK;
}

/* --edit S:C ('e') and --edits FILE ('f'): kept in the order given. */
int cli_set_edit(cli *c, const cli_option *o, const char *arg)
{
    if (c->nedits == CLI_MAX_EDITS)
        return cli_bad_usage("at most %s --edit and --edits", "256");
    c->edits[c->nedits++] = (gt_editsrc){strcmp(o->name, "edits") == 0 ? 'f' : 'e', arg};
    return GT_OK;
}
