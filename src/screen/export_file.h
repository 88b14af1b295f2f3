/* Files the screen writes, each new, never over an existing one (fileio.h): the frame on
 * screen as plain UTF-8 text (x, --export), the text as edited and the list of its edits
 * (w), the HTML figure of a unit (X). */
#ifndef GATETUI_EXPORT_FILE_H
#define GATETUI_EXPORT_FILE_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/trace.h"
#include "screen/draw_surface.h"
#include "screen/view.h"

/* A file's base name without its extension, made safe for a file name, into stem ("frame"
 * when nothing is left). */
void export_stem(const char *name, char *stem, size_t sn);
/* Writes data to a new file in the current directory: the first of base + ext,
 * base-2 + ext, ... that does not exist; its name goes to out. */
int export_new_in_cwd(const char *data, size_t len, const char *base, const char *ext,
                      char *out, size_t n, gt_error *e);

/* Writes s's text to path, which must not exist (GT_EINPUT if it does); "-" is standard
 * output. */
int export_frame_to_file(const gt_surface *s, const char *path, gt_error *e);

/* Writes s's text to a new file in the current directory named after the text and the step
 * (NAME-stepN.txt, NAME-stepN-2.txt, ...); its name goes to out. */
int export_to_cwd(const gt_surface *s, const char *text_name, size_t step, int edited,
                  char *out, size_t n, gt_error *e);

/* Writes trace tr's text as edited to a new file in the current directory, NAME-edited.EXT
 * (then NAME-edited-2.EXT, ...), characters outside the vocabulary as they were; never over
 * an existing file. Its name goes to out. Beside it, the list of the edits: export_edits. */
int export_text_to_cwd(const gt_trace *tr, const char *text_name, char *out, size_t n,
                       gt_error *e);

/* Writes the HTML figure (as --html draws it) of the view's selected unit, in the signal the
 * text is coloured by (h when it is not), over the text as edited around the cursor, as many
 * steps as the trace's window holds, to a new file of the current directory:
 * TEXT-MODEL-unitU-SIGNAL.html, -edited before .html when the text is edited there (then
 * -2, ...); edited characters outlined. Its name goes to out, the steps to *from, *to. */
int export_figure_to_cwd(gt_view *v, char *out, size_t n, size_t *from, size_t *to,
                         gt_error *e);

/* Writes the list of trace tr's edits, in the order they were made, beside the edited text
 * `written` (a file of the current directory): WRITTEN's stem then .edits.txt, never over an
 * existing file; a line each: the step, the byte offset in the text as loaded (a word
 * model's: in its tokens joined by single spaces, <eos> a newline), the character before
 * and after (\n \t \\ escaped; a byte as \xNN; a word model's words). Its name goes to
 * out. */
int export_edits_to_cwd(const gt_trace *tr, const char *text_name, const char *written,
                        char *out, size_t n, gt_error *e);

#endif
