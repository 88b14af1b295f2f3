/* Edits as the command line gives them (doc/usage.md, "Steps" and "Edits"): S:C, the step S
 * of the text (counted from 0 over the in-vocabulary characters) and the one character C of
 * the model's vocabulary put there, for a word model (doc/usage.md) S:W, a token W of its
 * vocabulary ("<eos>" among them); or a file of them, the list the screen's w writes beside
 * the edited text (one line an edit: the step, its byte offset in the text, the character
 * or token before and after). Every mode that takes edits parses them here, into one list in
 * order: the screen, --export, --carriers, --figure. */
#ifndef GATETUI_EDITARG_H
#define GATETUI_EDITARG_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/text.h"

/* Where edits come from, in the order of the command line: 'e' an --edit S:C (S:W), 'f' an
 * --edits FILE. */
typedef struct gt_editsrc {
    char kind;
    const char *arg;
} gt_editsrc;

/* One edit: the step and the token put there. */
typedef struct gt_editreq {
    size_t step;
    int tok;
} gt_editreq;

typedef struct gt_editlist {
    gt_editreq *at; /* [n], in the order they are made */
    size_t n, cap;
} gt_editlist;

/* The edits of src[0..n) in order into l (emptied first), for model m and text t (whose
 * tokens are m's): each --edit S:C checked (a colon, one character after it, a step of the
 * text, a character of m's vocabulary; a word model's S:W a token of its vocabulary); each
 * line of a file checked against the text as the edits before it leave it: its step one of
 * the text's, its byte offset that step's, its token before the one there, its token after
 * in m's vocabulary (a word model's tokens written as their words, model_token_named). A
 * list made for another text is refused (GT_EINPUT) with "FILE:LINE: " and the first thing
 * on the first line that does not fit. editlist_free frees l, also after a failure. */
int editlist_parse(gt_editlist *l, const gt_model *m, const gt_text *t, const gt_editsrc *src,
                   int n, gt_error *e);
void editlist_free(gt_editlist *l);

/* One edit added to l, checked against the text as l's edits leave it (as a line of a file
 * is): step one of t's, off its byte offset, before the text of the token there, after the
 * text of a token of m's vocabulary (a character in UTF-8, a word model's word:
 * model_token_named); GT_EINPUT with where (the file and line, or the session file and its
 * entry) before what does not fit. */
int editlist_add_checked(gt_editlist *l, const gt_model *m, const gt_text *t, size_t step,
                         size_t off, const char *before, const char *after, const char *where,
                         gt_error *e);

#endif
