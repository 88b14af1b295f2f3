/* A view: one model's screen. The state the keys change (gt_shared, one per screen and
 * shared by every model's view: the layer, the selected unit, sorting, the sheet up, what
 * the next key is for, the message, ...; and each model's own: its data, the step its
 * states are shown at) and, derived from it for each frame by view_prepare, the values the
 * panels draw. The panels and the sheets read a const gt_view and change nothing. The
 * view's work goes through every sheet's hooks (sheet.h) in a loop over v->sheets: a frame's
 * preparation, the background work, what an edit or an intervention makes out of date. */
#ifndef GATETUI_VIEW_H
#define GATETUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/editarg.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/trace.h"
#include "screen/data_carriers.h"
#include "screen/data_diff.h"
#include "screen/data_effect.h"
#include "screen/data_find.h"
#include "screen/data_interv.h"
#include "screen/data_probe.h"
#include "screen/draw_layout.h"
#include "screen/data_pert.h"
#include "screen/prompt.h"
#include "screen/data_stats.h"

typedef enum gt_sort {
    SORT_INDEX,    /* unit number */
    SORT_CARRY,    /* the carry gate (f or z) at the cursor */
    SORT_MEAN,     /* the mean carry gate over the text (the unit table's, computed in the
                    * background with the report's tables) */
    SORT_ABSC,     /* |c| (|h| for a GRU) */
    SORT_CHANGE,   /* |c_t - c_(t-1)| (h for a GRU); the half-life, ln 0.5 / ln carry, would
                    * only repeat the carry gate's order */
    SORT_IMPORTANCE, /* the loss's increase with the unit ablated (computed in the background) */
    SORT_COUNT,    /* the orders s always goes through; then, while there is a hypothesis: */
    SORT_R = SORT_COUNT /* |r| with the hypothesis */
} gt_sort;

/* What the next key is for, one value at a time (doc/screen.md, "Keys"): the key table, or
 * a prompt's line, the help box, or the second key of o, M or '. The prompts come first:
 * each keeps its history (gt_shared.hist). */
typedef enum gt_input {
    INPUT_KEYS,    /* the key table (keys_table.c) */
    INPUT_GOTO, INPUT_SEARCH, INPUT_EDIT, /* the prompts of g, / and e */
    INPUT_MATCH,   /* a regular expression for m */
    INPUT_UNIT,    /* a unit to select (#) */
    INPUT_NEWLINE, /* e then Enter once: Enter again puts a newline */
    INPUT_HELP,    /* the help box: the arrows scroll it, any other key closes it */
    INPUT_ORDER,   /* after o: the key that picks the units' order */
    INPUT_MARK,    /* after M: the letter that names a mark at the cursor */
    INPUT_QUOTE,   /* after ': ' goes back, a letter to its mark */
} gt_input;

/* The prompts with a line and its history: INPUT_GOTO .. INPUT_UNIT. */
#define INPUT_PROMPTS (INPUT_UNIT + 1)

/* The most sheets (sheet.h) the table holds. */
#define SHEETS_MAX 8

struct gt_sheet;

#define VIEW_REDO 64
#define VIEW_INPUT 256

/* An edit undone, as Ctrl-R makes it again: its step and character (every model has a
 * token for it). */
typedef struct gt_undone {
    size_t step;
    int tok;            /* the token put there, of model m's vocabulary */
    const gt_model *m;
} gt_undone;

/* What every model shares on the screen, one per screen: with several models every view
 * points to the same (models.h), so Tab changes which model's data is drawn and nothing of
 * this. */
enum { HEAT_OFF, HEAT_UNIT, HEAT_PROBE, HEAT_COMP }; /* HEAT_COMP + j: component j */

typedef struct gt_shared {
    const struct gt_sheet *sheet; /* the sheet over the panels, NULL: none (sheet_set) */
    void *sheet_ui[SHEETS_MAX]; /* each sheet's state every model shares (sheet_ui), in the
                                 * order of the views' table (gt_view.sheets) */
    int sort_reverse;
    int heat;          /* colour the text strip: HEAT_OFF, HEAT_UNIT (the selected unit's
                          value), HEAT_PROBE (the hypothesis's probe's probability),
                          HEAT_COMP + j (the signal's principal component j's score) */
    int heat_pos;      /* with HEAT_UNIT, which signal: view_heat_signal's pos-th */
    gt_input input;    /* what the next key is for */
    int help_scroll;   /* the help box's first line shown */
    int quit_asked;    /* q once while edits are not written: q again quits */
    int export_wanted; /* x: the frame is written once drawn with nothing it shows still
                        * being computed (the screen's loop); 2: the wait said; Esc: not
                        * written */
    unsigned edit_gen, written_gen; /* edits, undos and redos so far; as last written (w) */
    gt_undone redo[VIEW_REDO]; /* the edits undone, the last on top; a new edit drops them */
    int nredo;
    size_t prev_t;     /* the step before the last jump ('' goes back to it) */
    int have_prev;
    size_t mark[26];   /* the marks a-z: their step + 1 (0: not set) */
    size_t t;          /* the cursor's step, where the keys put it (view_seek) */
    int layer;         /* the layer and the unit chosen (each model shows them clamped to */
    int unit;          /* its size: gt_view's layer and unit) */
    int top;           /* the first rank shown in the gate panel */
    int top_kept;      /* a session's top + 1, put back at every frame until a key is
                        * pressed (the order it was in, by a value computed in the
                        * background, may come after the first frames); 0: none */
    gt_sort sort;
    int horizon;       /* the perturbation horizon K (+ and -): every model's curves */
    int pert_all;      /* A: the perturbation of every edit against the text as loaded */
    int ratio_k;       /* ( ): the k the perturbation's ratio is read at; 0: K */
    int diff;          /* the gate bars and the unit show edited - before the last edit */
    char prompt[VIEW_INPUT]; /* the prompt's line as typed */
    char msg[256];
    int msg_error;
    int msg_kept;      /* msg says where a file was written: kept until the next key (a
                        * background computation's result does not replace it) */
    char search[VIEW_INPUT];
    gt_promptline line; /* the editing of prompt (line.buf NULL: not started) */
    gt_history hist[INPUT_PROMPTS]; /* what was entered in each prompt */
    int search_matches, search_index; /* the last search's matches, the one at the cursor */
    int select_top;    /* select the first unit of the order at the next frame */
    long strip_scroll; /* rows the text strip is scrolled by (later text: > 0; at most 200
                        * either way), until the cursor moves */
    size_t strip_t;    /* the step it was scrolled at */
    int pass_wanted;   /* keep the background pass going */
    int sync;          /* a batch mode (--export): nothing is left to the background pass;
                        * whatever the frame shows is computed before it is drawn, however
                        * long it takes (doc/usage.md, "Exporting a frame") */
} gt_shared;

#define VIEW_FOUND 64

#define VIEW_TOPK 8

typedef struct gt_view {
    const gt_model *m;
    struct gt_view *peers; /* [npeers] every model's view (models.h), this one peers[self];
                                  * NULL with one model */
    int npeers, self;
    const gt_text *text;
    gt_trace *tr;
    char name[256];    /* the model's name among the session's (gt_session_model.name;
                          one model: its file's base name), as figures and files name it */
    char model_name[256], text_name[256]; /* as the header shows them: name, then "[k/n]"
                                           * with several models; the text's base name */
    int file_changed;  /* the model's file changed on disk since it was read (the header
                          says so; the model stays as read) */
    size_t steps;
    int utf8;          /* Unicode glyphs */
    int mono;          /* the terminal shows no colours: curves drawn with their letters */

    /* the state the keys change: shared by every model, then this model's */
    gt_shared *ui;     /* &own, or with several models every view's the same */
    gt_shared own;
    size_t t;          /* the step this model's values are shown at: the cursor's (ui->t),
                        * or while pending the last it could reach */
    int pending;       /* waiting for the background pass to reach the cursor */
    int curves_stale;  /* the edits, the layer or the model changed: the perturbation's
                        * curves and the difference are computed again when the frame is
                        * prepared (view_prepare), and only then */
    int edits_wait;    /* the perturbation and the difference wait for the pass to reach the
                        * last edit's step (after an intervention), rather than replay the
                        * text to it at once */
    int stale;         /* pending since the model changed (an intervention): not even t's
                        * states are known, and view_prepare keeps the last frame's values
                        * until the pass reaches the cursor */
    gt_data_pert pert;  /* the last edit's perturbation curves (for K = ui->horizon) */
    gt_pert_pin pin;    /* an edit's curves kept (B): drawn beside the last edit's */
    gt_data_stats stats; /* the report of the text (its tables and unit table: the sheets of
                          * r and U, the order by the mean carry gate) */
    gt_data_diff dr;     /* the run of the text before the last edit (while ui->diff is on;
                          * not valid when it may be stale) */
    gt_data_find find;  /* hypotheses, selections, profiles (m, v, p) */
    gt_data_probe probe; /* the hypothesis's linear probe, by a child once its r is known */
    gt_data_effect effect; /* the interventions' effect where the hypothesis holds (the status
                          * line, the effect's sheet) */
    gt_data_carriers carriers; /* the units that carry the last edit (the perturbation panel,
                                * the carriers' sheet) */
    gt_data_interv *ivs;    /* the interventions (< > { } a C Z) and the model they make, which
                          is m; NULL: none can be made */
    int threads;       /* GATETUI_THREADS for the work that shares a product over threads (the
                        * derivative's Jacobian): N, or 0: one per processor */
    const struct gt_sheet *const *sheets; /* [nsheets] the table of sheets (sheets.c) */
    int nsheets;
    void *sheet_data[SHEETS_MAX]; /* each sheet's state for this model (sheet_data) */

    /* derived for the frame by view_prepare */
    int layer, unit;   /* the shared ones clamped to this model's layers and units */
    size_t found_a[VIEW_FOUND], found_b[VIEW_FOUND]; /* the last search's matches near the
                                                       * cursor: byte ranges [a, b) */
    int nfound;
    gt_layout lay;
    gt_gate_grid grid; /* the gate panel's rows and columns in lay */
    int *order;        /* [H] units in display order */
    int rank;          /* the selected unit's place in order */
    float *key;        /* [H] the sort key of each unit */
    const float *g, *c, *h;  /* the layer's values at t: gates [G*H], c [H], h [H] */
    const float *pc, *ph;    /* the same at t - 1 (zeros at t = 0) */
    float *zeros;      /* [H] */
    /* what the gate bars and the unit panel show: g, c, h, pc, ph, or with ui->diff on their
     * differences edited - before (NAN where the run before is not known) */
    const float *sg, *sc, *sh, *spc, *sph;
    float *dbuf;       /* [2 * (G+2) * H]: the differences at t and t - 1 */
    int diff_known;    /* the difference at t is known */
    float *probs;      /* [V] next-token probabilities at t (with a readout) */
    int ntop, top_tok[VIEW_TOPK];
    float top_p[VIEW_TOPK];
    int has_next;      /* the text goes on after t */
    int next_tok;
    double loss;       /* -ln p(next) in nats, with a readout and a next character */
    size_t win_a, win_b; /* steps around t whose values are loaded */
    int pass_running;
    double pass_progress;
} gt_view;

/* A view's own fields for model m over text t with trace tr (layer < 0: 0); e says why it
 * failed (out of memory). view_init (sheets.h) builds on it with every sheet's state. */
int view_base_init(gt_view *v, const gt_model *m, const gt_text *t, gt_trace *tr, int layer,
                   gt_error *e);
void view_base_free(gt_view *v);
/* v's model called name (its tables too), model k of n (the header's "[k+1/n]" when n > 1). */
void view_name(gt_view *v, const char *name, int k, int n);

/* 1 when everything the frame at v->t shows is known: nothing waits for the background
 * pass (the cursor's states, the edits' perturbation and difference). A batch mode
 * (ui->sync) draws only a settled view. */
int view_settled(const gt_view *v);

/* After an edit, an undo or a change of layer: what depends on them is computed again (the
 * perturbation's curves and, while it is on, the difference when the frame is prepared:
 * view_prepare; the finding keys' results by their children); a failure is said in the
 * message line. */
void view_edits_changed(gt_view *v);

/* The text's edits, made on every model at once (each model's token for the character)
 * with their bookkeeping: the redo list, the count w compares, what depends on the edits
 * computed again, the background pass going on. view_apply_edit puts tok at step (and
 * forgets the edits undone); GT_OK, or the trace's error in e. view_undo undoes the last
 * edit (into *ed; 0 when there is none). view_redo makes the last edit undone again (its
 * step in *step); GT_EINPUT when there is none. */
int view_apply_edit(gt_view *v, size_t step, int tok, gt_error *e);
/* The edits of l (parsed for v's model: editarg.h) made in order, as the command line or a
 * session asks; they count as written (q does not ask again for them). */
int view_apply_edits(gt_view *v, const gt_editlist *l, gt_error *e);
int view_undo(gt_view *v, gt_edit *ed);
int view_redo(gt_view *v, size_t *step, gt_error *e);

/* The interventions in v->ivs changed: the model is made again, every state computed
 * from it forgotten (the edits stay), the panels computed again; a failure is said in the
 * message line. */
void view_model_changed(gt_view *v);

/* This model's data follows the shared state (v->ui), shown or not: its layer and unit
 * clamped (what depends on the layer computed again when it changed: its curves when the
 * frame is prepared), the report asked for or ended (view_follow_stats), and the sheet up's
 * follow hook: what it shows asked for (a unit's profile only for the model shown; the
 * report's tables for every model, side by side). Nothing is copied between models: Tab
 * changes which model's data is drawn. */
void view_follow(gt_view *v, int shown);

/* The report asked for when it is wanted (a sheet that needs it is up: the report's tables,
 * the unit table; or the units are sorted by their mean carry gate), its computation ended
 * when it is not. */
void view_follow_stats(gt_view *v);
/* The signal (signals.h) `c` colours the text by at its pos-th press: c, h, i, f, g, o of an
 * LSTM, h, z, r, n of a GRU, h, a of a plain RNN; -1 past the last. */
int view_heat_signal(const gt_model *m, int pos);
/* The selected unit's value of that signal at step s (which the trace must have) on the
 * shades' scale -1..1: a gate as 2g - 1, c and a plain RNN's a through tanh, the others as
 * they are. */
float view_heat_value(const gt_view *v, size_t s);

/* Turns the difference on or off (ui->diff). On needs an edit: without one GT_EINPUT (e
 * says so). The run of the text before the edit is made when the frame is prepared
 * (view_prepare; a failure then turns it off and is said in the message line). */
int view_set_diff(gt_view *v, int on, gt_error *e);
/* The difference edited - before of the selected unit's value at step st on the layer
 * shown: kind 0 a gate (block), 1 c, 2 h; NAN when not known. */
float view_diff_value(const gt_view *v, int kind, int block, size_t st);

/* This model's layer and unit: the shared ones (v->ui) clamped to its size; 1 when its
 * layer changed (what depends on it is then to be computed again: view_edits_changed). */
int view_clamp(gt_view *v);
/* Chooses the layer, the unit, for every model (this one's at once, clamped). */
void view_set_layer(gt_view *v, int layer);
/* After [ ] chose another layer: what depends on it computed again (view_edits_changed),
 * the sheets told (SHEET_LAYER), the report of the layer asked for when it is wanted. */
void view_layer_chosen(gt_view *v);
void view_select_unit(gt_view *v, int unit);

/* Lays out a cols x rows screen and derives every value the panels draw, then what the
 * sheet up draws (its prepare hook). */
int view_prepare(gt_view *v, int cols, int rows, gt_error *e);

/* Moves the cursor to step s (clamped): at once when the step can be reached now, otherwise
 * through the background pass (v->pending). */
void view_seek(gt_view *v, size_t s);
/* The same, remembering where the cursor was for '' (a jump: g, /, a mark, Enter on a
 * step of a sheet, ...). */
void view_jump(gt_view *v, size_t s);
/* The cursor d steps on (back when d < 0), clamped to the text. */
void view_step(gt_view *v, long d);
/* A message in the status line, an error or not. */
void view_say(gt_view *v, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* view_say of a file written (W, w, x, F, X): kept in the message line until the next key,
 * whatever a background computation ends with meanwhile (a hypothesis's result). */
void view_say_kept(gt_view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Follows the background pass and every sheet's work; 1 when the screen should be redrawn. */
int view_tick(gt_view *v);
/* 1 while something computes in the background (the pass, the report, a sheet's work): the
 * screen then looks at view_tick now and then. */
int view_busy(const gt_view *v);
/* 1 while something the frame shows is still being computed: as view_busy, but of the
 * sheets only the one shown (x waits for it: doc/screen.md, "Writing files"). */
int view_shown_busy(const gt_view *v);
/* Forgets a pending jump: the cursor back where v is shown. */
void view_forget_jump(gt_view *v);
/* Stops the background pass and forgets a pending jump. */
void view_cancel_pass(gt_view *v);

/* 1 when byte offset off of the text is inside a match of the last search near the cursor. */
int view_in_found(const gt_view *v, size_t off);

/* The units the gate panel can show at once (from the layout). */
int view_units_per_page(const gt_view *v);

/* The character a step shows (its token's, which an edit may have changed), as UTF-8 in
 * buf (at least 8 bytes), printable: a newline is shown as a return sign, etc. */
void view_token_glyph(const gt_view *v, int tok, char *buf);
void view_cp_glyph(int utf8, int bytes_mode, uint32_t cp, char *buf);

#endif
