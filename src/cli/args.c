/* Reading the command line (cli.h): getopt's table made from the rows' options and the
 * modes' own, then the checks that hold between them. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define MAX_OPTIONS 96

/* What getopt's option i stands for: a row's option, or the row's own (its mode). */
typedef struct opt_ref {
    const cli_mode *row;
    const cli_option *opt; /* NULL: the row's own option */
} opt_ref;

/* getopt's table from the rows, its size returned; val 256 + i is ref[i]. */
static int getopt_table(const cli_mode *const *modes, struct option *lo, opt_ref *ref)
{
    int n = 0;
    for (int i = 0; modes[i]; i++) {
        const cli_mode *m = modes[i];
        if (m->option && n < MAX_OPTIONS) {
            lo[n] = (struct option){m->option, m->arg ? required_argument : no_argument, 0,
                                    256 + n};
            ref[n++] = (opt_ref){m, NULL};
        }
        for (const cli_option *o = m->opts; o && o->name && n < MAX_OPTIONS; o++) {
            lo[n] = (struct option){o->name, o->arg ? required_argument : no_argument, 0,
                                    256 + n};
            ref[n++] = (opt_ref){m, o};
        }
    }
    lo[n] = (struct option){0, 0, 0, 0};
    return n;
}

static void defaults(cli *c, const cli_mode *const *modes)
{
    memset(c, 0, sizeof *c);
    c->modes = modes;
    c->layer = -1;
    report_options_init(&c->report);
    c->to = LONG_MAX;
    c->step = -1;
    c->model = -1;
    c->lag = 32;
    c->lmodes = 32;
    c->warmup = 100;
    c->starts = 64;
    c->hold = 100;
    c->controls = EFFECT_CONTROLS;
    c->seed = EFFECT_SEED;
    model_options_init(&c->mopt);
    find_options_init(&c->find);
    for (int i = 0; modes[i] && !c->mode; i++)
        if (!modes[i]->option && (modes[i]->each || modes[i]->run))
            c->mode = modes[i]; /* the screen */
}

/* --carousel@L is one word, which getopt does not take apart: kept aside here, and the
 * operands after "--" kept as they are. Returns the new argc. */
static int carousels_aside(cli *c, int argc, char **argv)
{
    int na = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--carousel@", 11) == 0 && c->niv < CLI_MAX_IV) {
            c->iv[c->niv++] = (gt_session_iv){'c', argv[i] + 11};
            continue;
        }
        if (strcmp(argv[i], "--") == 0) { /* the rest are operands */
            while (i < argc)
                argv[na++] = argv[i++];
            break;
        }
        argv[na++] = argv[i];
    }
    return na;
}

/* "--a, --b and --c" from the options of the rows that `pick` takes, and `last`. */
static void options_list(char *buf, size_t n, const cli_mode *const *modes,
                         int (*pick)(const cli_mode *m), const char *last)
{
    const char *names[32];
    int k = 0;
    for (int i = 0; modes[i] && k < 31; i++)
        if (pick(modes[i]))
            names[k++] = modes[i]->option;
    if (last)
        names[k++] = last;
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < k && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s--%s",
                               i == 0 ? "" : i + 1 == k ? " and " : ", ", names[i]);
}

static int is_mode_option(const cli_mode *m)
{
    return m->option && !m->with && (m->each || m->run);
}

static int takes_edits(const cli_mode *m)
{
    return m->option && (m->flags & MODE_EDITS) && !m->word;
}

static int takes_one_model(const cli_mode *m)
{
    return (m->flags & MODE_ONE_MODEL) != 0;
}

static int picks_model(const cli_mode *m)
{
    return (m->flags & MODE_PICK) != 0;
}

static int one_model_only(const cli_mode *m)
{
    return takes_one_model(m) && !picks_model(m);
}

/* --model I: with a mode that takes it, one of the models given (doc/usage.md, "Several
 * models"); a mode that takes one model and --model, without it, one model given. */
static int check_pick(const cli *c)
{
    char list[300], msg[400];
    if (c->model >= 0 && !picks_model(c->mode)) {
        options_list(list, sizeof list, c->modes, picks_model, NULL);
        snprintf(msg, sizeof msg, "--model goes with %s, not %s%s", list,
                 c->mode->option ? "--" : "", c->mode->option ? c->mode->option : "the screen");
        return cli_bad_usage("%s", msg);
    }
    if (c->model > c->nmodels) { /* below 1 refused as it was read */
        fprintf(stderr, "gatetui: --model %ld: %d model%s given (--model 1..%d)\n", c->model,
                c->nmodels, c->nmodels == 1 ? "" : "s", c->nmodels);
        return GT_EINPUT;
    }
    if (c->nmodels > 1 && c->model < 0 && takes_one_model(c->mode) && picks_model(c->mode)) {
        snprintf(msg, sizeof msg, "--%s takes one MODEL: --model I picks one of the %d given "
                 "(1..%d)", c->mode->option, c->nmodels, c->nmodels);
        return cli_bad_usage("%s", msg);
    }
    return GT_OK;
}

/* The checks that hold between the options once all are read. */
static int check_modes(cli *c, int nmodes)
{
    char msg[400];
    if (nmodes > 1) {
        char list[300];
        options_list(list, sizeof list, c->modes, is_mode_option, NULL);
        snprintf(msg, sizeof msg, "choose one of %s", list);
        return cli_bad_usage("%s", msg);
    }
    if (c->variant && (!c->mode->option || strcmp(c->mode->option, c->variant->with) != 0)) {
        snprintf(msg, sizeof msg, "--%s goes with --%s", c->variant->option, c->variant->with);
        return cli_bad_usage("%s", msg);
    }
    if (c->variant) {
        c->mode = c->variant;
        c->mode_arg = c->variant_arg;
    }
    gt_error e = {0};
    int rc = c->mode->check ? c->mode->check(c, &e) : GT_OK;
    if (rc)
        fprintf(stderr, "gatetui: %s\n", e.msg);
    return rc;
}

/* A mode's word, the first operand (--figure FILE KIND): one of its words. */
static int take_word(cli *c, int argc, char **argv)
{
    const cli_mode *m = c->mode;
    char msg[400], list[300];
    size_t at = 0;
    list[0] = 0;
    for (int i = 0; m->words[i] && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i == 0 ? "" :
                               m->words[i + 1] ? ", " : " or ", m->words[i]);
    if (argc - optind < 3) {
        snprintf(msg, sizeof msg, "--%s needs %s (%s), then MODEL and TEXT", m->option, m->word,
                 list);
        return cli_bad_usage("%s", msg);
    }
    c->mode_word = argv[optind++];
    for (int i = 0; m->words[i]; i++)
        if (strcmp(c->mode_word, m->words[i]) == 0)
            return GT_OK;
    snprintf(msg, sizeof msg, "--%s: %s is %s, not \"%.100s\"", m->option, m->word, list,
             c->mode_word);
    return cli_bad_usage("%s", msg);
}

/* The options only some modes read, and those modes (doc/usage.md): with another mode one
 * is refused, not ignored (--windows with --carriers took the default windows in silence). */
static const struct {
    const char *name;
    unsigned bit;
    const char *modes[6];
} only_some[] = {
    {"windows", CLI_GIVEN_WINDOWS,
     {"report", "sweep-forget-bias", "importance", "effect", "figure", NULL}},
    {"window-len", CLI_GIVEN_WINDOW_LEN,
     {"report", "sweep-forget-bias", "importance", "effect", "figure", NULL}},
    {"horizon", CLI_GIVEN_HORIZON, {"report", "sweep-forget-bias", "carriers", "figure", NULL}},
    {"controls", CLI_GIVEN_CONTROLS, {"effect", NULL}},
    {"seed", CLI_GIVEN_SEED, {"effect", NULL}},
};

static unsigned given_bit(const char *name)
{
    for (size_t i = 0; i < sizeof only_some / sizeof only_some[0]; i++)
        if (!strcmp(name, only_some[i].name))
            return only_some[i].bit;
    return 0;
}

/* An option given that the mode asked for does not read: the usage error naming the modes
 * that do. */
static int check_read(const cli *c)
{
    const char *mode = c->mode->option;
    for (size_t i = 0; i < sizeof only_some / sizeof only_some[0]; i++) {
        if (!(c->given & only_some[i].bit))
            continue;
        int reads = 0;
        char list[200];
        size_t at = 0;
        list[0] = 0;
        for (int k = 0; only_some[i].modes[k]; k++) {
            reads |= mode && !strcmp(mode, only_some[i].modes[k]);
            at += (size_t)snprintf(list + at, at < sizeof list ? sizeof list - at : 0, "%s--%s",
                                   k == 0 ? "" : only_some[i].modes[k + 1] ? ", " : " and ",
                                   only_some[i].modes[k]);
        }
        if (!reads) {
            char msg[400];
            snprintf(msg, sizeof msg, "--%s goes with %s, not %s%s", only_some[i].name, list,
                     mode ? "--" : "the screen", mode ? mode : "");
            return cli_bad_usage("%s", msg);
        }
    }
    return GT_OK;
}

static int check_operands(cli *c, int argc, char **argv)
{
    if (check_read(c)) /* with --session too */
        return GT_EINPUT;
    if (c->session && argc > optind)
        return cli_bad_usage("%s", "--session FILE takes no MODEL or TEXT: they are "
                             "the session's");
    if (c->session)
        return cli_session_alone(c);
    if (c->mode->word && take_word(c, argc, argv))
        return GT_EINPUT;
    if (c->nedits && !(c->mode->flags & MODE_EDITS)) {
        char list[300], msg[400];
        options_list(list, sizeof list, c->modes, takes_edits, "figure perturbation");
        snprintf(msg, sizeof msg, "--edit and --edits go with the screen, %s, not --%s", list,
                 c->mode->option);
        return cli_bad_usage("%s", msg);
    }
    if (argc - optind < 2)
        return cli_bad_usage("%s", "expected MODEL and TEXT");
    c->model_path = argv + optind;
    c->nmodels = argc - optind - 1;
    c->text_path = argv[argc - 1];
    char msg[300];
    if (check_pick(c))
        return GT_EINPUT;
    if (c->nmodels > 1 && (one_model_only(c->mode) || c->matrix)) {
        options_list(msg, sizeof msg, c->modes, one_model_only, "matrix");
        return cli_bad_usage("%s take one MODEL", msg);
    }
    if (c->mode->needs_step && c->step < 0) {
        snprintf(msg, sizeof msg, "--%s needs --step %s", c->mode->option, c->mode->needs_step);
        return cli_bad_usage("%s", msg);
    }
    if (c->from > c->to)
        return cli_bad_usage("%s", "--from is after --to");
    return GT_OK;
}

/* getopt_long's '?': an option it does not know, or one without its argument. gatetui has
 * no one-letter options, so an argument that starts with a single - is a cluster of them
 * getopt stopped at its first letter, still at argv[optind] (a file named -weird.txt: the
 * message said the argument before it). */
static int unknown_option(int argc, char **argv)
{
    const char *arg = argv[optind - 1];
    const int letter = optopt != 0 && optopt < 256; /* (a byte over 127: negative) */
    if (letter && optind < argc && argv[optind][0] == '-' &&
        (unsigned char)argv[optind][1] == (unsigned char)optopt)
        arg = argv[optind];
    if (letter && arg[0] == '-' && arg[1] != '-') {
        char msg[600];
        snprintf(msg, sizeof msg, "unknown option %.250s (a file whose name starts with - is "
                 "given as ./%.250s)", arg, arg);
        return cli_bad_usage("%s", msg);
    }
    return cli_bad_usage("unknown option or missing argument: %s", arg);
}

int cli_parse(cli *c, const cli_mode *const *modes, int argc, char **argv)
{
    struct option lo[MAX_OPTIONS + 1];
    opt_ref ref[MAX_OPTIONS];
    const int nopt = getopt_table(modes, lo, ref);
    defaults(c, modes);
    if (argc < 2) { /* nothing given: the usage */
        fputs("gatetui: expected MODEL and TEXT\n", stderr);
        cli_usage(stderr, modes);
        return GT_EINPUT;
    }
    argc = carousels_aside(c, argc, argv);
    int nmodes = 0, o, rc = GT_OK;
    opterr = 0;
    while (rc == GT_OK && (o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (o < 256 || o >= 256 + nopt)
            return unknown_option(argc, argv);
        const opt_ref *r = &ref[o - 256];
        if (r->opt) {
            c->given |= given_bit(r->opt->name);
            rc = r->opt->set(c, r->opt, r->opt->arg ? optarg : NULL);
        } else if (r->row->now) { /* --help, --version, --kernels: at once */
            c->mode = r->row;
            return GT_OK;
        } else if (r->row->with) {
            c->variant = r->row;
            c->variant_arg = optarg;
        } else if (c->mode == r->row && (r->row->flags & MODE_REPEAT)) {
            if (c->nmode_args == CLI_MAX_ARGS)
                return cli_bad_usage("--%s: at most 64 of them", r->row->option);
            c->mode_args[c->nmode_args++] = optarg;
        } else {
            if (c->mode == r->row && nmodes)
                return cli_bad_usage("--%s is given twice: a run has one", r->row->option);
            c->mode = r->row;
            c->mode_arg = r->row->arg ? optarg : NULL;
            c->mode_args[0] = c->mode_arg;
            c->nmode_args = 1;
            nmodes++;
        }
    }
    if (rc == GT_OK)
        rc = check_modes(c, nmodes);
    return rc ? rc : check_operands(c, argc, argv);
}
