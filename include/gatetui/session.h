/* What a run of gatetui works on, built once from the command line and handed to every mode
 * and to the screen (doc/architecture.md, "The session"): the models as loaded, each with the
 * command line's interventions and the model they make, the text split once with the first
 * model's vocabulary, and the table from the first model's tokens to each other model's.
 * The modes and the screen read it and change nothing in it, but for session_text_for,
 * which puts the text's tokens in another model's order in place (no model needs a copy of
 * the text, whatever their number: doc/usage.md, "Several models"). Sessions saved to a
 * file serialise this object. */
#ifndef GATETUI_SESSION_H
#define GATETUI_SESSION_H

#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/text.h"

/* An intervention as the command line gives it: 'f' --forget-bias, 'c' --carousel,
 * 'a' --ablate, with its argument. */
typedef struct gt_session_iv {
    char kind;
    const char *arg;
} gt_session_iv;

/* A list of interventions (a session file's, for one model). */
typedef struct gt_session_ivs {
    const gt_session_iv *iv;
    int n;
} gt_session_ivs;

typedef struct gt_session_options {
    const char *const *model_path; /* [nmodels] */
    int nmodels;
    const char *text_path;
    gt_model_options model;
    const gt_session_iv *iv;       /* [niv], applied in order to every model */
    int niv;
    const gt_session_ivs *each;    /* [nmodels]: model k's own, applied after those (a
                                    * session file's); NULL: none */
    const char *each_file;         /* the session file they come from (a message names it) */
    /* called after model k has been loaded, before the next is (NULL: none): the caller's
     * own checks of it (a layer it lacks, a mode it cannot run), so that a run stops at the
     * first model that does not fit */
    int (*check)(const gt_model *m, int k, void *ctx, gt_error *e);
    void *ctx;
} gt_session_options;

/* One model of the session. */
typedef struct gt_session_model {
    const gt_model *base; /* as loaded */
    gt_intervention iv;   /* the command line's interventions on it */
    gt_model mi;          /* base with them (its weights shared where they are the same) */
    char what[1024];      /* the interventions as iv_describe names them; "" when none */
    const uint16_t *map;  /* the first model's token -> this model's (NULL: the same order) */
    gt_text text;         /* the screen's text for this model: the session's steps (not a
                           * copy: the first model's tokens, read through map) with this
                           * model's own loss (the caller measures it) */
    char name[256];       /* what every output calls it among the session's models
                           * (path_name_among, gatetui/pathname.h: run1/model.pt beside
                           * run2/model.pt) */
} gt_session_model;

typedef struct gt_session {
    int n;
    gt_session_model *model; /* [n] */
    gt_text text;            /* the text, in the tokens of model text_of (session_text_for) */
    int text_of;
    gt_session_options opt;  /* what it was opened with (the paths, the model options: a
                              * session file names them); its strings are the caller's */
    /* private */
    gt_model *loaded;        /* [n] */
    uint16_t **maps;         /* [n] */
    int nloaded, nmade, have_text;
    int borrowed;            /* the models and the text are the caller's (session_borrow) */
} gt_session;

/* Loads the models and the text of o into s: each model checked (o->check), every other
 * model's vocabulary matched against the first's (GT_EINPUT naming the characters that
 * differ), the interventions made on each (several models: the message names the model
 * they do not fit). session_close frees what it made, also after a failure. */
int session_open(gt_session *s, const gt_session_options *o, gt_error *e);
void session_close(gt_session *s);

/* A session of n models and a text the caller has loaded and keeps (the tests, the tools):
 * no interventions, the vocabulary tables made, each model's screen text a copy of *t's
 * structure (the same tokens). session_close frees only what it made. */
int session_borrow(gt_session *s, gt_model *models, int n, const gt_text *t, gt_error *e);

/* Puts s->text's tokens in model k's order, in place (s->text_of = k). */
int session_text_for(gt_session *s, int k, gt_error *e);

#endif
