/* gatetui: the command line. Parses the options, loads the model and the text, and hands
 * them to the mode asked for; prints the one-line error and sets the exit status. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "screen/export.h"
#include "gatetui/columns.h"
#include "gatetui/dump.h"
#include "gatetui/kernset.h"
#include "gatetui/loss.h"
#include "gatetui/finding.h"
#include "gatetui/importance.h"
#include "gatetui/intervene.h"
#include "gatetui/jacobian.h"
#include "gatetui/model.h"
#include "gatetui/report.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "gatetui/vocabmap.h"
#include "term/ui.h"

enum mode { MODE_UI, MODE_REPORT, MODE_DUMP, MODE_EXPORT, MODE_FIND, MODE_JACOBIAN,
            MODE_IMPORTANCE };

/* The interventions as given, in order: 'f' --forget-bias, 'c' --carousel, 'a' --ablate. */
#define MAX_IV 256
typedef struct iv_arg {
    char kind;
    const char *arg;
} iv_arg;

typedef struct cli {
    enum mode mode;
    int json, probs;
    long layer;          /* -1: not given */
    gt_report_options report; /* windows, window length, horizon */
    long from, to, step;
    const char *export_file;
    const char *edit;    /* "S:C" */
    const char *size;    /* "COLSxROWS" */
    gt_model_options mopt;
    gt_find_options find; /* --units, --select, --profile, --html */
    char **model_path;   /* [nmodels]: MODEL [MODEL ...] */
    int nmodels;
    const char *text_path;
    long lag;            /* --jacobian: K (default 32); its unit is find.unit (default 0) */
    int matrix;          /* --jacobian: J(T-K, K) as CSV */
    iv_arg iv[MAX_IV];   /* the interventions */
    int niv;
    const char *sweep;   /* --sweep-forget-bias A:B:STEP */
} cli;

static const char usage[] =
    "usage: gatetui [--layer N] [--vocab-from FILE] [--embedding NAME] [--gru-reset before|after] MODEL [MODEL ...] TEXT\n"
    "       gatetui --report [--json] [--layer N] [--windows N] [--window-len L] [--horizon K] MODEL [MODEL ...] TEXT\n"
    "       gatetui --dump [--layer N] [--from A] [--to B] [--probs] MODEL TEXT\n"
    "       gatetui --export FILE --step N [--edit S:C] [--size COLSxROWS] [--layer N] MODEL [MODEL ...] TEXT\n"
    "       gatetui --units REGEX [--signal s] [--steps N] [--layer N] [--json] MODEL [MODEL ...] TEXT\n"
    "       gatetui --select A:B [--signal s] [--threshold T] [--steps N] [--layer N] [--json] MODEL [MODEL ...] TEXT\n"
    "       gatetui --profile --unit J [--signal s] [--steps N] [--layer N] [--json] MODEL [MODEL ...] TEXT\n"
    "       gatetui --html FILE --unit J [--signal s] [--from A] [--to B] [--layer N] MODEL TEXT\n"
    "       gatetui --jacobian --step T [--lag K] [--unit J] [--layer N] [--json | --matrix] MODEL [MODEL ...] TEXT\n"
    "       gatetui --importance [--layer N] [--windows N] [--window-len L] [--json] MODEL [MODEL ...] TEXT\n"
    "       gatetui --report --sweep-forget-bias A:B:STEP [--layer N] [--json] MODEL [MODEL ...] TEXT\n"
    "  any mode: [--forget-bias D[@L[:UNITS]]] [--carousel[@L]] [--ablate L:UNITS]\n"
    "       gatetui --kernels | --help | --version\n";

static void print_help(void)
{
    fputs("gatetui: watch the gates of a character-level LSTM or GRU, step by step.\n\n", stdout);
    fputs(usage, stdout);
    fputs("\nMODEL is what torch.save wrote (a state_dict, a checkpoint holding one, or a\n"
          "whole module), read without running it, or a safetensors file: PyTorch nn.LSTM /\n"
          "nn.GRU (or stacked nn.LSTMCell / nn.GRUCell) state_dict names under any prefix,\n"
          "an optional embedding and readout, and the vocabulary the file keeps. TEXT is\n"
          "UTF-8; characters outside the vocabulary are skipped. Several MODELs (their\n"
          "vocabularies holding the same characters, in any order) are compared on TEXT:\n"
          "the screen shows one at a time (Tab switches), the tables put one column per\n"
          "model, --json prints {\"models\": [...]}.\n\n"
          "Options:\n"
          "  --layer N           the layer shown or reported (default 0; --dump: all)\n"
          "  --vocab-from FILE   build the vocabulary from FILE's distinct characters\n"
          "  --embedding NAME    the embedding tensor, when several could be\n"
          "  --gru-reset WHERE   GRU reset gate 'after' W_hn (PyTorch) or 'before' (Cho)\n"
          "  --report            print the gate statistics tables (--json: as JSON)\n",
          stdout);
    printf("  --windows N         report: number of windows (default %d)\n"
           "  --window-len L      report: window length (default %d)\n"
           "  --horizon K         report: perturbation horizon (default %d)\n",
           REPORT_WINDOWS, REPORT_WINDOW_LEN, REPORT_HORIZON);
    fputs("  --dump              every value as CSV on standard output\n"
          "  --from A, --to B    dump: first and last step (inclusive; from 0)\n"
          "  --probs             dump: the readout's next-character probabilities instead\n"
          "  --export FILE       render the screen at --step N as text into FILE\n"
          "  --edit S:C          export: replace the character at step S with C first\n"
          "  --size COLSxROWS    export: the frame size (default 120x40)\n"
          "  --kernels           list the kernel sets this processor runs, best first\n"
          "  --units REGEX       every unit's correlation with where REGEX matches\n"
          "  --select A:B        the units on throughout steps A..B, and where else they are\n"
          "  --profile           a unit's highest and lowest steps, its mean by character\n"
          "  --html FILE         the text coloured by a unit, as a new HTML page\n"
          "  --unit J            profile, html: the unit; jacobian: its row (default 0)\n"
          "  --signal s          i f g o c h (LSTM), r z n h (GRU); default h\n"
          "  --threshold T       select: the value that counts as on (default 0.3)\n"
          "  --steps N           units, select, profile, html and the screen's m, v, p:\n"
          "                      the first N steps (default 100000)\n"
          "  --jacobian          dc_T/dc_(T-k) (GRU: h) against the carry line at --step T\n"
          "  --lag K             jacobian: lags k = 1..K (default 32)\n"
          "  --unit J            jacobian: the unit whose row is shown (default 0)\n"
          "  --matrix            jacobian: J at lag K as CSV (row i, column j) instead\n"
          "  --forget-bias D[@L[:UNITS]]  add D to the forget gate's bias (GRU: update z;\n"
          "                      b_hh) of every unit, or of layer L, or of those UNITS\n"
          "                      (like 3,17,200-210); repeatable, shifts add\n"
          "  --carousel[@L]      LSTM: hold f at 1 (every layer, or layer L)\n"
          "  --ablate L:UNITS    hold those units' c and h at 0 after every step\n"
          "  --importance        each unit's increase of the loss when it is ablated, over\n"
          "                      the report's windows (--layer, --windows, --window-len)\n"
          "  --sweep-forget-bias A:B:STEP  report: the whole report for each shift\n"
          "                      D = A, A+STEP, ..., B of the layer's forget bias, one row each\n"
          "  --help, --version\n\n"
          "Steps count from 0 over the in-vocabulary characters. GATETUI_KERNEL=SET runs\n"
          "the kernel set SET (avx512, avx2 or c) instead of the best. Exit status:\n"
          "0 success, 2 bad usage or input, 1 anything else.\n",
          stdout);
}

static void print_kernels(void)
{
    const char *names[8];
    int n = kernset_names(names, 8);
    for (int i = 0; i < n; i++)
        puts(names[i]);
}

/* The exit status once --help, --version or --kernels has written: 1, with a message,
 * when standard output could not take it (a full disk, /dev/full). */
static int written(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fputs("gatetui: writing the output: standard output failed\n", stderr);
    return 1;
}

static int bad_usage(const char *fmt, const char *arg)
{
    fputs("gatetui: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage, stderr);
    return GT_EINPUT;
}

static int parse_count(const char *opt, const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min) {
        fprintf(stderr, "gatetui: %s wants an integer >= %ld, not \"%s\"\n", opt, min, s);
        return GT_EINPUT;
    }
    *out = v;
    return GT_OK;
}

/* --sweep-forget-bias A:B:STEP: the shifts A, A+STEP, ..., B (at most 1001) into d. */
static int sweep_shifts(const char *arg, double **d, int *n, gt_error *e)
{
    double a, b, st;
    char tail;
    if (sscanf(arg, "%lf:%lf:%lf%c", &a, &b, &st, &tail) != 3 || !isfinite(a) ||
        !isfinite(b) || !isfinite(st) || !(st > 0) || b < a)
        return gt_fail(e, GT_EINPUT, "--sweep-forget-bias wants A:B:STEP with A <= B and STEP "
                       "> 0, not \"%s\"", arg);
    double count = floor((b - a) / st + 1e-9) + 1;
    if (count > 1001)
        return gt_fail(e, GT_EINPUT, "--sweep-forget-bias %s: %.0f shifts, at most 1001", arg,
                       count);
    *n = (int)count;
    *d = malloc((size_t)*n * sizeof **d);
    if (!*d)
        return gt_fail(e, GT_EFAIL, "out of memory for the sweep");
    for (int i = 0; i < *n; i++)
        (*d)[i] = a + st * i;
    return GT_OK;
}

static int parse_args(cli *c, int argc, char **argv)
{
    enum { O_LAYER = 256, O_VOCAB, O_EMBEDDING, O_RESET, O_REPORT, O_JSON, O_WINDOWS, O_WLEN, O_HORIZON,
           O_DUMP, O_FROM, O_TO, O_PROBS, O_EXPORT, O_STEP, O_EDIT, O_SIZE, O_HELP,
           O_VERSION, O_KERNELS, O_UNITS, O_SELECT, O_PROFILE, O_HTML, O_UNIT, O_SIGNAL,
           O_THRESHOLD, O_STEPS, O_JACOBIAN, O_LAG, O_MATRIX, O_FBIAS, O_CAROUSEL, O_ABLATE,
           O_IMPORTANCE, O_SWEEP };
    static const struct option opts[] = {
        {"layer", required_argument, 0, O_LAYER},   {"vocab-from", required_argument, 0, O_VOCAB},
        {"embedding", required_argument, 0, O_EMBEDDING},
        {"gru-reset", required_argument, 0, O_RESET}, {"report", no_argument, 0, O_REPORT},
        {"json", no_argument, 0, O_JSON},           {"windows", required_argument, 0, O_WINDOWS},
        {"window-len", required_argument, 0, O_WLEN}, {"horizon", required_argument, 0, O_HORIZON},
        {"dump", no_argument, 0, O_DUMP},           {"from", required_argument, 0, O_FROM},
        {"to", required_argument, 0, O_TO},         {"probs", no_argument, 0, O_PROBS},
        {"export", required_argument, 0, O_EXPORT}, {"step", required_argument, 0, O_STEP},
        {"edit", required_argument, 0, O_EDIT},     {"size", required_argument, 0, O_SIZE},
        {"help", no_argument, 0, O_HELP},           {"version", no_argument, 0, O_VERSION},
        {"kernels", no_argument, 0, O_KERNELS},     {"units", required_argument, 0, O_UNITS},   {"select", required_argument, 0, O_SELECT},
        {"profile", no_argument, 0, O_PROFILE},     {"html", required_argument, 0, O_HTML},
        {"unit", required_argument, 0, O_UNIT},     {"signal", required_argument, 0, O_SIGNAL},
        {"threshold", required_argument, 0, O_THRESHOLD},
        {"steps", required_argument, 0, O_STEPS},
        {"jacobian", no_argument, 0, O_JACOBIAN},   {"lag", required_argument, 0, O_LAG},
        {"matrix", no_argument, 0, O_MATRIX},
        {"forget-bias", required_argument, 0, O_FBIAS},
        {"carousel", no_argument, 0, O_CAROUSEL},
        {"ablate", required_argument, 0, O_ABLATE},
        {"importance", no_argument, 0, O_IMPORTANCE},
        {"sweep-forget-bias", required_argument, 0, O_SWEEP},
        {0, 0, 0, 0}};
    memset(c, 0, sizeof *c);
    c->layer = -1;
    report_options_init(&c->report);
    c->to = LONG_MAX;
    c->step = -1;
    c->lag = 32;
    model_options_init(&c->mopt);
    find_options_init(&c->find);
    int nmodes = 0, o, rc = GT_OK;
    opterr = 0;
    /* --carousel@L is one word, which getopt does not take apart: kept aside here */
    int na = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--carousel@", 11) == 0 && c->niv < MAX_IV) {
            c->iv[c->niv++] = (iv_arg){'c', argv[i] + 11};
            continue;
        }
        if (strcmp(argv[i], "--") == 0) { /* the rest are operands */
            while (i < argc)
                argv[na++] = argv[i++];
            break;
        }
        argv[na++] = argv[i];
    }
    argc = na;
    while (rc == GT_OK && (o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case O_LAYER: rc = parse_count("--layer", optarg, 0, &c->layer); break;
        case O_VOCAB: c->mopt.vocab_from = optarg; break;
        case O_EMBEDDING: c->mopt.embedding = optarg; break;
        case O_RESET:
            if (strcmp(optarg, "before") == 0)
                c->mopt.gru_reset = 1;
            else if (strcmp(optarg, "after") == 0)
                c->mopt.gru_reset = 0;
            else
                return bad_usage("--gru-reset wants 'before' or 'after', not \"%s\"", optarg);
            break;
        case O_REPORT: c->mode = MODE_REPORT; nmodes++; break;
        case O_JSON: c->json = 1; break;
        case O_WINDOWS: rc = parse_count("--windows", optarg, 1, &c->report.windows); break;
        case O_WLEN: rc = parse_count("--window-len", optarg, 2, &c->report.window_len); break;
        case O_HORIZON: rc = parse_count("--horizon", optarg, 1, &c->report.horizon); break;
        case O_DUMP: c->mode = MODE_DUMP; nmodes++; break;
        case O_FROM: rc = parse_count("--from", optarg, 0, &c->from); break;
        case O_TO: rc = parse_count("--to", optarg, 0, &c->to); break;
        case O_PROBS: c->probs = 1; break;
        case O_EXPORT:
            if (!*optarg)
                return bad_usage("--export needs a file name (or - for standard output)%s", "");
            c->mode = MODE_EXPORT; c->export_file = optarg; nmodes++; break;
        case O_STEP: rc = parse_count("--step", optarg, 0, &c->step); break;
        case O_EDIT: c->edit = optarg; break;
        case O_SIZE: c->size = optarg; break;
        case O_UNITS:
        case O_SELECT:
        case O_PROFILE:
        case O_HTML:
            c->mode = MODE_FIND;
            c->find.mode = o == O_UNITS ? FIND_UNITS : o == O_SELECT ? FIND_SELECT
                           : o == O_PROFILE ? FIND_PROFILE : FIND_HTML;
            c->find.arg = optarg;
            nmodes++;
            break;
        case O_UNIT: rc = parse_count("--unit", optarg, 0, &c->find.unit); break;
        case O_SIGNAL: c->find.signal = optarg; break;
        case O_THRESHOLD: c->find.threshold = optarg; break;
        case O_STEPS: rc = parse_count("--steps", optarg, 1, &c->find.steps); break;
        case O_JACOBIAN: c->mode = MODE_JACOBIAN; nmodes++; break;
        case O_LAG: rc = parse_count("--lag", optarg, 1, &c->lag); break;
        case O_MATRIX: c->matrix = 1; break;
        case O_FBIAS:
        case O_CAROUSEL:
        case O_ABLATE:
            if (c->niv == MAX_IV)
                return bad_usage("at most %s interventions", "256");
            c->iv[c->niv++] = (iv_arg){o == O_FBIAS ? 'f' : o == O_CAROUSEL ? 'c' : 'a',
                                       o == O_CAROUSEL ? NULL : optarg};
            break;
        case O_IMPORTANCE: c->mode = MODE_IMPORTANCE; nmodes++; break;
        case O_SWEEP: c->sweep = optarg; break;
        case O_HELP: print_help(); exit(written());
        case O_VERSION: printf("gatetui %s\n", PACKAGE_VERSION); exit(written());
        case O_KERNELS: print_kernels(); exit(written());
        default:
            return bad_usage("unknown option or missing argument: %s", argv[optind - 1]);
        }
    }
    if (rc)
        return rc;
    if (nmodes > 1)
        return bad_usage("%s", "choose one of --report, --dump, --export, --units, --select, "
                               "--profile, --html, --jacobian and --importance");
    if (c->sweep && c->mode != MODE_REPORT)
        return bad_usage("%s", "--sweep-forget-bias goes with --report");
    if (c->sweep) {
        gt_error e = {0};
        double *d = NULL;
        int n = 0;
        if ((rc = sweep_shifts(c->sweep, &d, &n, &e))) {
            fprintf(stderr, "gatetui: %s\n", e.msg);
            return rc;
        }
        free(d);
    }
    if (argc - optind < 2)
        return bad_usage("%s", "expected MODEL and TEXT");
    c->model_path = argv + optind;
    c->nmodels = argc - optind - 1;
    c->text_path = argv[argc - 1];
    if (c->nmodels > 1 && (c->mode == MODE_DUMP || (c->mode == MODE_FIND && c->find.mode == FIND_HTML) ||
                           c->matrix))
        return bad_usage("%s", "--dump, --html and --matrix take one MODEL");
    if (c->mode == MODE_EXPORT && c->step < 0)
        return bad_usage("%s", "--export needs --step N");
    if (c->mode == MODE_JACOBIAN && c->step < 0)
        return bad_usage("%s", "--jacobian needs --step T");
    if (c->from > c->to)
        return bad_usage("%s", "--from is after --to");
    return GT_OK;
}

/* Progress of a long computation on standard error, when that is a terminal. */
typedef struct progress {
    struct timespec start;
    int shown, percent;
    const char *what;
} progress;

static void report_progress(void *ctx, double done)
{
    progress *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double el = (double)(now.tv_sec - p->start.tv_sec) +
                1e-9 * (double)(now.tv_nsec - p->start.tv_nsec);
    int percent = (int)(100 * done);
    if (el > 1.0 && (!p->shown || percent != p->percent)) {
        fprintf(stderr, "\rgatetui: %s %3d%%", p->what, percent);
        p->shown = 1;
        p->percent = percent;
    }
}

/* A model with its interventions, what they are, and the model as loaded. */
typedef struct intervened {
    const gt_model *base;  /* as loaded */
    gt_intervention iv;
    gt_model mi;           /* base with iv */
    char what[1024];       /* iv_describe, "" when none */
} intervened;

static void report_opts(const cli *c, gt_report_options *o, progress *p, const char *what)
{
    *o = c->report;
    o->layer = c->layer < 0 ? 0 : (int)c->layer;
    const char *th = getenv("GATETUI_THREADS");
    o->threads = th ? atoi(th) : 0;
    *p = (progress){.shown = 0, .percent = -1, .what = what};
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    if (isatty(STDERR_FILENO)) {
        o->progress = report_progress;
        o->progress_ctx = p;
    }
}

/* The loss of the model without interventions over the report's windows, when it has
 * some (count 0 otherwise). */
static int base_loss(const intervened *ms, const gt_report_options *o, const gt_text *t,
                     gt_loss *l, gt_error *e)
{
    memset(l, 0, sizeof *l);
    if (!ms->what[0])
        return GT_OK;
    return loss_measure(l, ms->base, t->tok, t->steps, (size_t)o->window_len,
                        (size_t)o->windows, o->threads, e);
}

/* The whole report for each shift of the layer's forget bias (on top of the other
 * interventions), one after the other. */
static int sweep_mode(FILE *out, const cli *c, const intervened *ms, const gt_text *t,
                      gt_error *e)
{
    gt_report_options o;
    progress p;
    report_opts(c, &o, &p, "sweep");
    double *d = NULL;
    int n = 0, rc = sweep_shifts(c->sweep, &d, &n, e);
    if (rc)
        return rc;
    gt_report *rs = calloc((size_t)n, sizeof *rs);
    char (*what)[1024] = calloc((size_t)n, sizeof *what);
    gt_loss lb;
    memset(&lb, 0, sizeof lb);
    if (!rs || !what)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the sweep");
    if (!rc)
        rc = loss_measure(&lb, ms->base, t->tok, t->steps, (size_t)o.window_len,
                          (size_t)o.windows, o.threads, e);
    int done = 0;
    for (int i = 0; !rc && i < n; i++) {
        gt_intervention iv;
        gt_model m;
        if ((rc = iv_copy(&iv, &ms->iv, e)))
            break;
        iv_shift(&iv, o.layer, -1, d[i]);
        iv_describe(&iv, what[i], sizeof what[i]);
        if (!(rc = iv_apply(&m, ms->base, &iv, e))) {
            rc = report_compute(&rs[i], &m, t->tok, t->steps, &o, e);
            iv_model_free(&m);
        }
        iv_free(&iv);
        if (!rc) {
            rs[i].m = ms->base; /* the model named; its interventions are named apart */
            rs[i].interventions = what[i];
            rs[i].loss_base = lb;
            done++;
        }
    }
    if (p.shown)
        fputs("\r\033[K", stderr);
    if (!rc)
        rc = c->json ? report_print_sweep_json(out, rs, d, n, e)
                     : report_print_sweep_text(out, rs, d, n, t->path, ms->what, e);
    for (int i = 0; i < done; i++)
        report_free(&rs[i]);
    free(rs);
    free(what);
    free(d);
    return rc;
}

static int report_mode(FILE *out, const cli *c, const intervened *ms, const gt_text *t,
                       gt_error *e)
{
    gt_report_options o;
    progress p;
    report_opts(c, &o, &p, "report");
    gt_report r;
    gt_loss lb;
    int rc = base_loss(ms, &o, t, &lb, e);
    if (!rc)
        rc = report_compute(&r, &ms->mi, t->tok, t->steps, &o, e);
    if (p.shown)
        fputs("\r\033[K", stderr);
    if (rc)
        return rc;
    r.m = ms->base;
    r.interventions = ms->what;
    r.loss_base = lb;
    rc = c->json ? report_print_json(out, &r, e)
                 : report_print_text(out, &r, t->path, e);
    report_free(&r);
    return rc;
}

static int importance_mode(FILE *out, const cli *c, const intervened *ms, const gt_text *t,
                           gt_error *e)
{
    gt_report_options o;
    progress p;
    report_opts(c, &o, &p, "importance");
    gt_importance im;
    int rc = importance_compute(&im, &ms->mi, t->tok, t->steps, &o, e);
    if (p.shown)
        fputs("\r\033[K", stderr);
    if (rc)
        return rc;
    rc = c->json ? importance_print_json(out, &im, ms->what, e)
                 : importance_print_text(out, &im, ms->what, 0, e);
    importance_free(&im);
    return rc;
}

/* The interventions of the command line on the model as loaded. */
static int make_intervened(const cli *c, intervened *ms, const gt_model *m, gt_error *e)
{
    memset(ms, 0, sizeof *ms);
    ms->base = m;
    int rc = iv_init(&ms->iv, m, e);
    for (int i = 0; !rc && i < c->niv; i++) {
        const iv_arg *a = &c->iv[i];
        rc = a->kind == 'f' ? iv_parse_forget_bias(&ms->iv, a->arg, e)
             : a->kind == 'c' ? iv_parse_carousel(&ms->iv, a->arg, e)
                              : iv_parse_ablate(&ms->iv, a->arg, e);
    }
    if (!rc) {
        iv_describe(&ms->iv, ms->what, sizeof ms->what);
        rc = iv_apply(&ms->mi, m, &ms->iv, e);
    }
    if (rc)
        iv_free(&ms->iv);
    return rc;
}

static void free_intervened(intervened *ms)
{
    iv_model_free(&ms->mi);
    iv_free(&ms->iv);
}

/* The readout's loss over the report's default windows (as many as about 2e9 multiply-adds
 * allow, at least one, so that a wide model starts at once), for the screen's header; with
 * warn, a warning on standard error when it is no better than a uniform guess (--dump:
 * the screen says it in its header, the report in its own output). */
static int measure_loss(const gt_model *m, gt_text *t, int warn, gt_error *e)
{
    gt_report_options ro;
    report_options_init(&ro);
    size_t windows = loss_quick_windows(m, (size_t)ro.window_len, (size_t)ro.windows);
    gt_loss l;
    int rc = loss_measure(&l, m, t->tok, t->steps, (size_t)ro.window_len, windows, 0, e);
    if (rc)
        return rc;
    t->loss_nats = l.nats;
    t->loss_uniform = l.uniform;
    t->loss_count = l.count;
    if (warn && loss_suspect(&l)) {
        char w[400];
        loss_warning(&l, w, sizeof w);
        fprintf(stderr, "gatetui: warning: %s (%s)\n", w, m->vocab_where);
    }
    return GT_OK;
}

static int find_mode(FILE *out, const cli *c, const intervened *im, const gt_text *t,
                     gt_error *e)
{
    const gt_model *m = &im->mi;
    if (im->what[0]) /* named wherever values are shown */
        fprintf(stderr, "gatetui: interventions: %s\n", im->what);
    gt_find_options opts = c->find, *o = &opts;
    o->layer = c->layer < 0 ? 0 : (int)c->layer;
    o->json = c->json;
    o->from = c->from;
    o->to = c->to == LONG_MAX ? -1 : c->to;
    const char *th = getenv("GATETUI_THREADS");
    o->threads = th ? atoi(th) : 1;
    static const char *const what[] = {"units", "select", "profile", "html"};
    progress p = {.shown = 0, .percent = -1, .what = what[o->mode]};
    clock_gettime(CLOCK_MONOTONIC, &p.start);
    if (isatty(STDERR_FILENO)) {
        o->progress = report_progress;
        o->progress_ctx = &p;
    }
    int rc = find_main(out, m, t, o, e);
    if (p.shown)
        fputs("\r\033[K", stderr);
    return rc;
}

/* The longest lag --jacobian takes (its memory grows as K x H). */
#define JACOBIAN_MAX_LAG 100000

static int jacobian_mode(FILE *out, const cli *c, const intervened *im, const gt_text *t,
                         gt_error *e)
{
    const gt_model *m = &im->mi;
    if (im->what[0])
        fprintf(stderr, "gatetui: interventions: %s\n", im->what);
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    const size_t T = (size_t)c->step;
    if (T >= t->steps)
        return gt_fail(e, GT_EINPUT, "--step %zu: the text has %zu steps (0..%zu)", T, t->steps,
                       t->steps - 1);
    if (c->lag > JACOBIAN_MAX_LAG)
        return gt_fail(e, GT_EINPUT, "--lag %ld: at most %d", c->lag, JACOBIAN_MAX_LAG);
    if ((size_t)c->lag > T)
        return gt_fail(e, GT_EINPUT, "--step %zu --lag %ld: the lags reach back before step 0 "
                       "(T - K = %ld)", T, c->lag, (long)T - c->lag);
    const long unit = c->find.unit < 0 ? 0 : c->find.unit;
    if (unit >= m->hidden)
        return gt_fail(e, GT_EINPUT, "--unit %ld: layer %d has %d unit%s (0..%d)", unit,
                       layer, m->hidden, m->hidden == 1 ? "" : "s", m->hidden - 1);
    const int K = (int)c->lag;
    gt_run r;
    int rc = run_init(&r, m, e);
    if (rc)
        return rc;
    for (size_t s = 0; s < T - (size_t)K; s++) /* the state before step T - K */
        run_step_layers(&r, t->tok[s], layer);
    const char *th = getenv("GATETUI_THREADS");
    gt_jacobian j;
    rc = jacobian_init(&j, m, layer, K, th ? atoi(th) : 0, e);
    if (!rc)
        rc = jacobian_run(&j, r.h, r.c, t->tok + T - K, K, e);
    run_free(&r);
    if (!rc)
        rc = c->matrix ? jacobian_print_matrix(out, &j, e)
             : c->json ? jacobian_print_json(out, &j, T, (int)unit, e)
                       : jacobian_print_text(out, &j, T, (int)unit, e);
    jacobian_free(&j);
    return rc;
}

/* Ctrl-C (or SIGTERM, SIGHUP) during --report, --dump or --export: a line saying so, then
 * the default action at once. Files are only ever written whole (export.c), so nothing
 * half-written stays behind. */
static void on_interrupt(int sig)
{
    const char *m = sig == SIGINT ? "\ngatetui: interrupted (SIGINT)\n"
                    : sig == SIGTERM ? "\ngatetui: terminated (SIGTERM)\n"
                                     : "\ngatetui: hung up (SIGHUP)\n";
    if (write(STDERR_FILENO, m, strlen(m)) < 0) {
        /* nothing more can be done */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* ---- several models on one text (doc/usage.md, "Several models") ---- */

/* A mode that prints one model's tables or JSON to out. */
typedef int (*model_mode)(FILE *out, const cli *c, const intervened *im, const gt_text *t,
                          gt_error *e);

/* Puts the text's tokens, now in the order of the vocabulary of t->model, in the order of
 * to's, in place: the text is never copied, whatever the number of models. */
static int retokenise(gt_text *t, const gt_model *to, gt_error *e)
{
    if (t->model == to)
        return GT_OK;
    uint16_t *map;
    int rc = vocab_map(t->model, to, &map, e);
    if (rc)
        return rc;
    if (map)
        vocab_map_tokens(t->tok, t->steps, map);
    free(map);
    t->model = to;
    return GT_OK;
}

/* Runs fn for each model: for one, straight to standard output; for several, each into
 * memory, then side by side (one column per model) or, with --json, as
 * {"models": [...]} whose entries are each model's own JSON. A new mode that prints per
 * model (statistics, importances, ...) is one more model_mode called here. */
static int each_model(const cli *c, const intervened *im, int n, gt_text *t, model_mode fn,
                      gt_error *e)
{
    if (n == 1)
        return fn(stdout, c, &im[0], t, e);
    char **buf = calloc((size_t)n, sizeof *buf);
    size_t *len = calloc((size_t)n, sizeof *len);
    int rc = buf && len ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory");
    for (int k = 0; rc == GT_OK && k < n; k++) {
        FILE *f = open_memstream(&buf[k], &len[k]);
        if (!f) {
            rc = gt_fail(e, GT_EFAIL, "out of memory");
            break;
        }
        if ((rc = retokenise(t, im[k].base, e)) == GT_OK)
            rc = fn(f, c, &im[k], t, e);
        if (fclose(f) && rc == GT_OK)
            rc = gt_fail(e, GT_EFAIL, "out of memory");
    }
    int back = retokenise(t, im[0].base, e);
    if (rc == GT_OK)
        rc = back;
    if (rc == GT_OK && c->json) {
        fputs("{\"models\": [\n", stdout);
        for (int k = 0; k < n; k++) {
            size_t l = len[k];
            while (l && buf[k][l - 1] == '\n')
                l--;
            fwrite(buf[k], 1, l, stdout);
            fputs(k + 1 < n ? ",\n" : "\n", stdout);
        }
        fputs("]}\n", stdout);
    } else if (rc == GT_OK) {
        columns_print(stdout, (const char *const *)buf, n, "   ");
    }
    if (rc == GT_OK && (fflush(stdout) || ferror(stdout)))
        rc = gt_fail(e, GT_EFAIL, "writing the output: standard output failed");
    for (int k = 0; buf && k < n; k++)
        free(buf[k]);
    free(buf);
    free(len);
    return rc;
}

/* Loads the models, refusing a layer one of them lacks and vocabularies that differ. */
static int load_models(const cli *c, gt_model *m, int *loaded, gt_error *e)
{
    for (int k = 0; k < c->nmodels; k++) {
        int rc = model_load(&m[k], c->model_path[k], &c->mopt, e);
        if (rc)
            return rc;
        (*loaded)++;
        if (c->layer >= m[k].layers)
            return gt_fail(e, GT_EINPUT, "--layer %ld: %s has %d layer%s (0..%d)", c->layer,
                           c->nmodels > 1 ? m[k].path : "the model", m[k].layers,
                           m[k].layers == 1 ? "" : "s", m[k].layers - 1);
        uint16_t *map = NULL;
        if (k > 0 && (rc = vocab_map(&m[0], &m[k], &map, e)))
            return rc;
        free(map);
    }
    return GT_OK;
}

/* The screen's text for each model: the same steps (no copy of them), each with the loss
 * of its own model measured on it. */
static int screen_texts(gt_model *m, const intervened *im, int n, gt_text *t, gt_text *each,
                        uint16_t **map, int warn, gt_error *e)
{
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < n; k++) {
        if ((rc = retokenise(t, &m[k], e)) == GT_OK &&
            (rc = measure_loss(&im[k].mi, t, warn, e)) == GT_OK) {
            each[k] = *t;
            if (k > 0)
                rc = vocab_map(&m[0], &m[k], &map[k], e);
        }
    }
    int back = retokenise(t, &m[0], e);
    for (int k = 0; k < n; k++) {
        each[k].tok = t->tok; /* every model reads model 0's tokens through its map */
        each[k].model = &m[0];
    }
    return rc ? rc : back;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    cli c;
    int rc = parse_args(&c, argc, argv);
    if (rc)
        return rc;
    gt_error e = {0};
    if ((rc = kernset_choose(getenv("GATETUI_KERNEL"), &e))) {
        fprintf(stderr, "gatetui: GATETUI_KERNEL: %s\n", e.msg);
        return rc;
    }
    if (c.mode != MODE_UI)
        catch_interrupts();
    const int n = c.nmodels;
    gt_model *m = calloc((size_t)n, sizeof *m);
    gt_text *each = calloc((size_t)n, sizeof *each);
    uint16_t **map = calloc((size_t)n, sizeof *map);
    intervened *im = calloc((size_t)n, sizeof *im);
    gt_intervention *ivs = calloc((size_t)n, sizeof *ivs);
    int loaded = 0, made = 0, have_text = 0;
    gt_text t;
    if (!m || !each || !map || !im || !ivs)
        rc = gt_fail(&e, GT_EFAIL, "out of memory");
    if (rc == GT_OK)
        rc = load_models(&c, m, &loaded, &e);
    for (int k = 0; rc == GT_OK && k < n; k++) { /* each model with its interventions */
        if (c.mode == MODE_IMPORTANCE && !m[k].has_readout)
            rc = gt_fail(&e, GT_EINPUT, "--importance: %s has no readout, so there is no loss "
                         "to compare", m[k].path);
        else if ((rc = make_intervened(&c, &im[k], &m[k], &e)) == GT_OK)
            ivs[made++] = im[k].iv;
        else if (n > 1) { /* which of the models it does not fit */
            char why[sizeof e.msg];
            snprintf(why, sizeof why, "%s", e.msg);
            gt_fail(&e, rc, "%s: %s", m[k].path, why);
        }
    }
    if (rc == GT_OK && (rc = text_load(&t, c.text_path, &m[0], &e)) == GT_OK)
        have_text = 1;
    if (rc == GT_OK) {
        char skip[512];
        text_skip_summary(&t, skip, sizeof skip);
        if (skip[0] && c.mode != MODE_DUMP && !c.json)
            fprintf(stderr, "gatetui: %s: %s\n", t.path, skip);
    }
    if (rc == GT_OK && c.mode == MODE_DUMP)
        rc = measure_loss(&im[0].mi, &t, !im[0].what[0], &e);
    if (rc == GT_OK && c.mode == MODE_DUMP && im[0].what[0]) /* named wherever values are shown */
        fprintf(stderr, "gatetui: interventions: %s\n", im[0].what);
    if (rc == GT_OK && (c.mode == MODE_UI || c.mode == MODE_EXPORT))
        rc = screen_texts(m, im, n, &t, each, map, 0, &e);

    if (rc == GT_OK) {
        switch (c.mode) {
        case MODE_DUMP: {
            static char obuf[1 << 16];
            setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
            if ((size_t)c.from >= t.steps) {
                rc = gt_fail(&e, GT_EINPUT, "--from %ld: the text has %zu steps (0..%zu)", c.from,
                             t.steps, t.steps - 1);
                break;
            }
            size_t to = c.to == LONG_MAX ? t.steps - 1 : (size_t)c.to;
            rc = c.probs ? dump_probs(stdout, &im[0].mi, &t, (size_t)c.from, to, &e)
                         : dump_values(stdout, &im[0].mi, &t, (int)c.layer, (size_t)c.from, to,
                                       &e);
            break;
        }
        case MODE_REPORT:
            rc = each_model(&c, im, n, &t, c.sweep ? sweep_mode : report_mode, &e);
            break;
        case MODE_IMPORTANCE:
            rc = each_model(&c, im, n, &t, importance_mode, &e);
            break;
        case MODE_FIND:
            rc = each_model(&c, im, n, &t, find_mode, &e);
            break;
        case MODE_JACOBIAN:
            rc = each_model(&c, im, n, &t, jacobian_mode, &e);
            break;
        case MODE_EXPORT:
        case MODE_UI: {
            gt_screen_opts so = {(int)c.layer, c.step, c.edit, c.size, c.export_file, c.find.steps};
            gt_screen_models sm = {m, each, (const uint16_t *const *)map, ivs, n};
            rc = c.mode == MODE_UI ? ui_main(&sm, &so, &e) : export_main(&sm, &so, &e);
            break;
        }
        }
    }
    for (int k = 0; k < made; k++)
        free_intervened(&im[k]);
    free(im);
    free(ivs);
    if (rc)
        fprintf(stderr, "gatetui: %s\n", e.msg);
    if (have_text)
        text_free(&t);
    for (int k = 0; k < loaded; k++)
        model_free(&m[k]);
    for (int k = 0; map && k < n; k++)
        free(map[k]);
    free(map);
    free(each);
    free(m);
    return rc;
}
