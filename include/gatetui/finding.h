/* The command-line modes that find the units that mean something (doc/usage.md, "Finding
 * units"): --units REGEX, --select A:B, --profile and --html FILE, each over one run from
 * the zero state over the first `steps` steps of a text, printed as text for people or as
 * JSON for programs (doc/measures.md gives the formats). */
#ifndef GATETUI_FINDING_H
#define GATETUI_FINDING_H

#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/mask.h"
#include "gatetui/model.h"
#include "gatetui/profile.h"
#include "gatetui/select.h"
#include "gatetui/text.h"
#include "gatetui/units.h"

typedef enum gt_find_mode { FIND_UNITS, FIND_SELECT, FIND_PROFILE, FIND_HTML } gt_find_mode;

typedef struct gt_find_options {
    gt_find_mode mode;
    const char *arg;        /* the regex, the span "A:B" or the HTML file */
    long unit;              /* --unit; -1: not given */
    long component;         /* --html --component J; -1: not given */
    const char *signal;     /* --signal; NULL: h (--units: every signal) */
    const char *threshold;  /* --threshold; NULL: 0.3 */
    long steps;             /* --steps; -1: SIGNALS_DEFAULT_STEPS */
    long regex_seconds;     /* --regex-seconds; 0: MASK_SECONDS */
    long from, to;          /* --html's steps; to -1: the last step searched */
    int layer, json, threads;
    void (*progress)(void *ctx, double done);
    void *progress_ctx;
} gt_find_options;

void find_options_init(gt_find_options *o);

/* The signal called name (h when name is NULL), or -1 with e filled. */
int find_pick_signal(const gt_model *m, const char *name, gt_error *e);

/* Runs the mode on model m and text t and prints its result to out. */
int find_main(FILE *out, const gt_model *m, const gt_text *t, const gt_find_options *o,
              gt_error *e);

/* Printing (finding_print.c). text_name names the text in the plain output. */
int find_print_units(FILE *f, const gt_units *u, const char *regex, int only_signal,
                     const char *text_name, int json);
int find_print_selection(FILE *f, const gt_selection *s, const uint16_t *tok, int json);
int find_print_profile(FILE *f, const gt_profile *p, const uint16_t *tok, size_t ntok,
                       int json);

#endif
