/* The command line: its modes as one table of rows (src/cli/modes.c), the options they
 * take, and what every mode shares (doc/usage.md). A row is a mode (the screen, --report,
 * --dump, ...) or a group of options every mode takes; the option table of getopt, the
 * usage, --help, the one-mode check and the dispatch are all made from the rows. */
#ifndef GATETUI_CLI_H
#define GATETUI_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "gatetui/editarg.h"
#include "gatetui/dynamics.h"
#include "gatetui/effect.h"
#include "gatetui/error.h"
#include "gatetui/finding.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/probe.h"
#include "gatetui/report.h"
#include "gatetui/session.h"
#include "gatetui/sessionfile.h"
#include "gatetui/text.h"
#include "screen/export.h"

/* What the environment says, read once by main and passed down (doc/usage.md,
 * "Environment"): the threads, the progress, the kernel set and the terminal. */
typedef struct cli_env {
    int threads;        /* GATETUI_THREADS: N >= 0; -1 when unset or empty */
    int progress;       /* standard error is a terminal: long computations show progress */
    const char *kernel; /* GATETUI_KERNEL, or NULL */
    int color;          /* NO_COLOR unset or empty */
    int mouse;          /* GATETUI_NOMOUSE unset */
    const char *term;   /* TERM, or NULL */
} cli_env;

#define CLI_MAX_IV 256
#define CLI_MAX_ARGS 64
#define CLI_MAX_EDITS 256

typedef struct cli_mode cli_mode;

/* The command line as parsed. */
typedef struct cli {
    const cli_mode *const *modes; /* the table */
    const cli_mode *mode;         /* the mode asked for */
    const char *mode_arg;         /* its option's argument (--export FILE, --units REGEX...) */
    const char *mode_word;        /* the word it takes first among the operands (--figure
                                     FILE KIND: KIND), or NULL */
    const char *mode_args[CLI_MAX_ARGS]; /* a repeatable option's arguments, in order
                                            (MODE_REPEAT: --effect REGEX ...) */
    int nmode_args;
    const cli_mode *variant;      /* an option that replaces the mode (--sweep-forget-bias) */
    const char *variant_arg;
    int json, probs;
    int full;            /* --report --full: several models' whole reports too */
    long layer;          /* -1: not given */
    gt_report_options report; /* windows, window length, horizon */
    long from, to, step;
    gt_editsrc edits[CLI_MAX_EDITS]; /* --edit S:C and --edits FILE, in order */
    int nedits;
    const char *session; /* --session FILE */
    gt_sessionfile sfile; /* that file as read (cli_session_file): the models, the text,
                           * the options and the interventions are its */
    long controls, seed; /* --effect: R (default 20), S (default 1) */
    const char *size;    /* "COLSxROWS" */
    gt_model_options mopt;
    gt_find_options find; /* --unit, --signal, --threshold, --steps */
    gt_probe_options probe; /* --folds, --l2 */
    char **model_path;   /* [nmodels]: MODEL [MODEL ...] */
    int nmodels;
    long model;          /* --model I: the model of several that --dump or --export takes,
                            from 1 as the screen's header counts them; -1: not given */
    const char *text_path;
    long lag;            /* --jacobian: K (default 32); its unit is find.unit (default 0) */
    int matrix;          /* --jacobian: J(T-K, K) as CSV */
    long lmodes, warmup; /* --lyapunov: M (default 32), W (default 100); its N is find.steps */
    long starts, hold;   /* --fixed-points: the Newton starts (default 64), the held
                            character's steps from each first (default 100) */
    gt_session_iv iv[CLI_MAX_IV]; /* the interventions as given, in order */
    int niv;
    cli_env env;
    unsigned given;      /* CLI_GIVEN_*: options only some modes read, as given */
} cli;

/* The options only some modes read (args.c refuses them with any other, not to ignore them):
 * bits of cli.given. */
#define CLI_GIVEN_WINDOWS 1u
#define CLI_GIVEN_WINDOW_LEN 2u
#define CLI_GIVEN_HORIZON 4u
#define CLI_GIVEN_CONTROLS 8u
#define CLI_GIVEN_SEED 16u

/* One option: its name (without "--"), whether it takes an argument, and what it sets
 * (the field at `at` of the cli; a count's least value is min). */
typedef struct cli_option {
    const char *name;
    int arg;
    int (*set)(cli *c, const struct cli_option *o, const char *arg);
    size_t at;
    long min;
} cli_option;

/* A mode that prints one model's tables or JSON to out: for several models, the outputs
 * are put side by side, or in {"models": [...]} (src/cli/models.c, cli_each_model). */
typedef int (*cli_model_fn)(FILE *out, const cli *c, const gt_session_model *im,
                            const gt_text *t, gt_error *e);

/* flags */
#define MODE_ONE_MODEL 1u  /* takes one MODEL */
#define MODE_READOUT 2u    /* each model needs a readout */
#define MODE_NO_SKIPS 4u   /* the characters skipped in the text go unsaid */
#define MODE_SCREEN 8u     /* the screen: signals are its own */
#define MODE_REPEAT 16u    /* its option may be given again (c->mode_args) */
#define MODE_EDITS 32u     /* takes --edit and --edits (every other mode refuses them) */
#define MODE_PICK 64u      /* takes --model I: one of several models (every other mode
                              refuses it) */

/* A row of the table: a mode, or (with no function) a group of options. */
struct cli_mode {
    const char *name;     /* the mode's word (its progress line's) */
    const char *option;   /* its option, without "--"; NULL: none (the screen, a group) */
    int arg;              /* its option takes an argument (c->mode_arg) */
    const char *word;     /* it takes a word first among its operands (c->mode_word): the
                             word's name in the usage ("KIND"), or NULL */
    const char *const *words; /* the words it may be, NULL-terminated */
    const char *with;     /* its option goes with that mode's and replaces it */
    unsigned flags;       /* MODE_... */
    const char *needs_step; /* it needs --step (the word after it in the message) */
    int find;             /* the finding modes: which one (gt_find_mode) */
    int (*check)(const cli *c, gt_error *e); /* its own check of the options, or NULL */
    cli_model_fn each;    /* per model; or */
    int (*run)(const cli *c, gt_session *s, gt_error *e); /* over all the models; or */
    int (*now)(const cli_mode *const *modes); /* at once, without models or text */
    const cli_option *opts; /* the options it brings, ended by {0} */
    const char *usage;    /* its usage line after "gatetui " (a group's: the whole line) */
    const char *help;     /* its lines in --help */
};

/* The table, in the order of --help (src/cli/modes.c). */
extern const cli_mode *const cli_modes[];

/* Reads the options and the operands into c (src/cli/args.c). After GT_OK, a mode with
 * `now` runs without anything more; otherwise c->model_path and c->text_path are set. On
 * bad usage the message went to standard error (the usage too when nothing was given)
 * and GT_EINPUT is returned. */
int cli_parse(cli *c, const cli_mode *const *modes, int argc, char **argv);

/* The usage from the table (src/cli/usage.c); bad usage: one line on standard error,
 * "gatetui: ", the message (fmt with arg) and where the usage is (doc/usage.md, "Exit
 * status"), and GT_EINPUT. */
void cli_usage(FILE *f, const cli_mode *const *modes);
int cli_bad_usage(const char *fmt, const char *arg);

/* The options' setters (src/cli/option.c). */
int cli_set_count(cli *c, const cli_option *o, const char *arg); /* a long >= o->min */
/* GT_EINPUT: "OPTION V: the text has N steps (0..N-1)", the counts with thousands
 * separators. */
int cli_past_end(gt_error *e, const char *option, long v, size_t steps);
int cli_set_text(cli *c, const cli_option *o, const char *arg);  /* a const char * */
/* The same, refusing a second one (where the last would silently win over the first). */
int cli_set_text_once(cli *c, const cli_option *o, const char *arg);
int cli_set_flag(cli *c, const cli_option *o, const char *arg);  /* an int set to 1 */
int cli_set_reset(cli *c, const cli_option *o, const char *arg); /* --gru-reset */
int cli_set_nonlinearity(cli *c, const cli_option *o, const char *arg); /* --nonlinearity */
int cli_set_tokens(cli *c, const cli_option *o, const char *arg);       /* --tokens */
int cli_set_iv(cli *c, const cli_option *o, const char *arg);    /* an intervention */
int cli_set_edit(cli *c, const cli_option *o, const char *arg);  /* --edit, --edits */

/* --session FILE (src/cli/sessionarg.c): the session file read, every file it names checked,
 * and c's models, text, model options and interventions made its (c->sfile, freed by
 * sessionfile_free). Nothing without --session. */
int cli_session_file(cli *c, gt_error *e);
/* The options that --session takes the place of, refused beside it: bad usage naming the
 * first given. */
int cli_session_alone(const cli *c);

/* The session of c's mode (src/cli/models.c, gatetui/session.h): its models loaded and
 * checked against the mode (--layer, a readout, a carry gate to shift), each with its
 * interventions, the text, what was skipped and where a vocabulary came from said.
 * session_close frees what it made, also after a failure. */
int cli_session_open(gt_session *s, const cli *c, gt_error *e);
/* Runs fn for each model: for one, straight to standard output; for several, side by side
 * or in {"models": [...]}. */
int cli_each_model(const cli *c, gt_session *s, cli_model_fn fn, gt_error *e);
/* The screen or the export (show): handed the session, each model's screen text with its
 * own loss, and c's options. */
int cli_screen_run(const cli *c, gt_session *s,
                   int (*show)(const gt_session *, const gt_screen_opts *, gt_error *),
                   gt_error *e);
/* The readout's loss for the screen's header or the dump; with warn, a warning on
 * standard error when it is no better than a uniform guess. */
int cli_measure_loss(const gt_model *m, gt_text *t, int warn, gt_error *e);
/* "gatetui: interventions: ..." on standard error, when there are some. */
void cli_say_interventions(const gt_session_model *im);

/* Progress of a long computation on standard error (src/cli/progress.c), when c->env
 * says standard error is a terminal: after a second, "gatetui: WHAT  NN%" on one line
 * (WHAT the mode's name), cleared by cli_progress_end. */
typedef struct cli_progress {
    struct timespec start;
    int shown, percent;
    const char *what;
} cli_progress;
/* Sets p up; *fn and *ctx are the computation's callback, NULL when there is none. */
void cli_progress_start(cli_progress *p, const cli *c, void (**fn)(void *, double),
                        void **ctx);
void cli_progress_end(const cli_progress *p);
/* The report's options from c (the layer, the threads, the progress in p), for the
 * report, the importance and the sweep. */
void cli_report_options(const cli *c, gt_report_options *o, cli_progress *p);
/* Says on stderr, once a run, that more windows were asked for (asked, 0: none) than the
 * text of `steps` holds (report_windows_note). */
void cli_windows_note(long asked, size_t used, size_t window_len, size_t steps,
                      const gt_model *m);
/* The same of a report, and, once a run, that its horizon was more than its windows hold
 * (report_horizon_note). */
void cli_report_note(const gt_report *r, long windows_asked, size_t steps);
/* Model ms's report on t (src/cli/mode_report.c), with its interventions named and the
 * loss of the model without them; report_free frees it. */
int cli_report_one(const cli *c, const gt_session_model *ms, const gt_text *t, gt_report *r,
                   gt_error *e);
/* Model im's Lyapunov spectrum on t with c's --modes, --steps, --warmup and --layer
 * (src/cli/mode_lyapunov.c), each checked; lyapunov_free frees it. */
int cli_lyapunov(const cli *c, const gt_session_model *im, const gt_text *t, gt_lyapunov *l,
                 gt_error *e);

#endif
