/* The full-screen program: `gatetui MODEL [MODEL ...] TEXT`. */
#ifndef GATETUI_UI_H
#define GATETUI_UI_H

#include <termkey.h>

#include "screen/export.h"
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "screen/keys.h"
#include "screen/models.h"

/* Runs the screen until the user quits. The terminal is restored before it returns, so the
 * caller prints e's message after. A signal that ended it is raised again once the terminal
 * is restored. */
int ui_main(const gt_session *s, const gt_screen_opts *o, gt_error *e);

/* A libtermkey key as the view's key; 0 when it means nothing here. */
int ui_translate_key(const TermKeyKey *tk, gt_key *k);
/* The same for a mouse event: a press of the first button (a click) or of the wheel; 0 for
 * the others. */
int ui_translate_mouse(TermKey *tk, const TermKeyKey *key, gt_key *k);

#endif
