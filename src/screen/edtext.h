/* The text as edited, in bytes: the bytes as loaded with each edited step's character
 * replaced by the new one's (UTF-8, or one byte in bytes mode; a word model's token by the
 * new token, "<eos>" a newline, in the tokens joined: gt_text), for writing it (`w`) and
 * searching it (`/`). Nothing is copied: only the edited steps are listed, by increasing
 * byte offset. A position in the edited text is named by the offset in the loaded bytes it
 * comes from; an edited character is at its step's offset. */
#ifndef GATETUI_EDTEXT_H
#define GATETUI_EDTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/trace.h"

typedef struct gt_patch {
    size_t off, len; /* the loaded character's bytes (a word model's: its token's) */
    char rep[8];     /* the new character's bytes */
    const char *text; /* the new token's bytes: rep, or a word model's word */
    char *own;       /* a word in place of a newline (<eos>), spaces either side: text */
    size_t nrep;
} gt_patch;

typedef struct gt_edtext {
    const gt_text *t;
    gt_patch *p; /* [n] by increasing offset */
    size_t n;
    int fold;    /* a search takes ASCII letters in either case (the needle in lower case) */
} gt_edtext;

/* The edited text of trace tr. GT_EFAIL when out of memory. */
int edtext_open(gt_edtext *x, const gt_trace *tr, gt_error *e);
void edtext_close(gt_edtext *x);

/* Writes it to f; nonzero on a write error. */
int edtext_write(const gt_edtext *x, FILE *f);

/* Where needle (len > 0 bytes) is next found after position cur (dir > 0), or before it,
 * wrapping around the end (*wrapped then set): a position, or (size_t)-1 when nowhere. */
size_t edtext_find(const gt_edtext *x, const char *needle, size_t len, size_t cur, int dir,
                   int *wrapped);

/* Smart case: 1 (search either case) when needle has no capital letter. */
int edtext_smart_fold(const char *needle);

/* The first match starting at a position in [from, to), or (size_t)-1. */
size_t edtext_find_range(const gt_edtext *x, const char *needle, size_t len, size_t from,
                         size_t to);

/* How many matches the edited text holds; *before gets how many start at or before
 * position upto. */
size_t edtext_count(const gt_edtext *x, const char *needle, size_t len, size_t upto,
                    size_t *before);

#endif
