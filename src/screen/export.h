/* Writing a frame as plain UTF-8 text, never over an existing file; and the --export mode
 * that renders a frame without a terminal. */
#ifndef GATETUI_EXPORT_H
#define GATETUI_EXPORT_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/session.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/trace.h"
#include "screen/models.h"
#include "screen/draw_surface.h"

/* What the screen modes are asked for on the command line. */
typedef struct gt_screen_opts {
    int layer;             /* -1: 0 */
    long step;             /* --export: the cursor's step */
    const char *edit;      /* --export: "S:C", or NULL */
    const char *size;      /* --export: "COLSxROWS", or NULL for 120x40 */
    const char *file;      /* --export: the file, "-" for standard output */
    long steps;            /* the steps m, v and p search (--steps); <= 0: the default */
    int color;             /* the screen: colours allowed (NO_COLOR unset or empty) */
    int mouse;             /* the screen: the mouse's clicks and wheel (GATETUI_NOMOUSE unset) */
    const char *term;      /* the screen: TERM, or NULL */
    int threads;           /* GATETUI_THREADS: N >= 0 for the pass and the Jacobian, or -1:
                            * their own choice */
} gt_screen_opts;

#define EXPORT_COLS 120
#define EXPORT_ROWS 40

/* Writes s's text to a new file in the current directory named after the text and the step
 * (NAME-stepN.txt, NAME-stepN-2.txt, ...); its name goes to out. */
int export_to_cwd(const gt_surface *s, const char *text_name, size_t step, int edited,
                  char *out, size_t n, gt_error *e);

/* Writes trace tr's text as edited to a new file in the current directory, NAME-edited.EXT
 * (then NAME-edited-2.EXT, ...), characters outside the vocabulary as they were; never over
 * an existing file. Its name goes to out. Beside it, the list of the edits: export_edits. */
int export_text_to_cwd(const gt_trace *tr, const char *text_name, char *out, size_t n,
                       gt_error *e);

/* The --export mode. */
int export_main(const gt_session *s, const gt_screen_opts *o, gt_error *e);

/* Writes the HTML figure (as --html draws it) of the view's selected unit, in the signal the
 * text is coloured by (h when it is not), over the text as edited around the cursor, as many
 * steps as the trace's window holds, to a new file of the current directory:
 * TEXT-MODEL-unitU-SIGNAL.html, -edited before .html when the text is edited there (then
 * -2, ...); edited characters outlined. Its name goes to out, the steps to *from, *to. */
int export_figure_to_cwd(gt_view *v, char *out, size_t n, size_t *from, size_t *to,
                         gt_error *e);

/* Writes the list of trace tr's edits, in the order they were made, beside the edited text
 * `written` (a file of the current directory): WRITTEN's stem then .edits.txt, never over an
 * existing file; a line each: the step, the byte offset in the text as loaded, the
 * character before and after (\n \t \\ escaped; a byte as \xNN). Its name goes to out. */
int export_edits_to_cwd(const gt_trace *tr, const char *text_name, const char *written,
                        char *out, size_t n, gt_error *e);

#endif
