/* The text a model reads: UTF-8 split into code points; the characters in the vocabulary
 * are the time steps, the others are kept for display but not fed to the model. A word
 * model's text (doc/usage.md) is split into words as its training split it, and what is
 * kept for display is its tokens joined by single spaces, "<eos>" as a newline: a step is
 * then a token, at its own offset in those bytes. */
#ifndef GATETUI_TEXT_H
#define GATETUI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/sha256.h"

/* Every TEXT_MARK-th step's byte offset is kept. */
#define TEXT_MARK 64
#define TEXT_SKIP_KINDS 16

typedef struct gt_text {
    char *path;
    unsigned char *bytes;  /* the file as read, never written back (a word model's: its
                              tokens joined) */
    size_t nbytes;
    uint16_t *tok;         /* [steps] the token of each step */
    size_t steps;
    size_t *mark;          /* [steps / TEXT_MARK + 1] byte offset of step k * TEXT_MARK */
    const gt_model *model; /* whose vocabulary made the steps */
    int bytes_mode;        /* tokens are bytes, not code points */
    int words;             /* tokens are a word model's words (section 27) */
    char file_sha256[SHA256_HEX]; /* a word model's: the SHA-256 of the file as read (bytes holds
                                     the tokens joined), and its size; what a session names */
    size_t file_size;
    size_t unknown;        /* a word model's: the words read as <unk> */
    char *unk_word[TEXT_SKIP_KINDS]; /* the first distinct of them (counts in skip_count) */
    int unk_kinds;
    size_t skipped;        /* code points not fed: not in the vocabulary, or invalid bytes */
    size_t invalid;        /* of those, invalid UTF-8 bytes */
    size_t nul;            /* of those, NUL characters (none in a text) */
    uint32_t skip_cp[TEXT_SKIP_KINDS]; /* the first distinct skipped code points */
    size_t skip_count[TEXT_SKIP_KINDS];
    int skip_kinds;
    /* The readout's mean loss on this text (nats per character over loss_count
     * predictions), measured by the caller (loss.h) for the screen's header; loss_count
     * is 0 when it was not measured. loss_uniform: ln V. */
    double loss_nats, loss_uniform;
    size_t loss_count;
    size_t loss_windows; /* the windows it is over when fewer than the report's (a model
                            whose readout is wide: loss_quick_windows), 0 otherwise */
} gt_text;

/* Reads path and splits it with m's vocabulary. Refuses an empty text, a UTF-16 one and
 * one with no character in the vocabulary. */
int text_load(gt_text *t, const char *path, const gt_model *m, gt_error *e);
/* The same from memory (copied); name is used in messages. */
int text_from_memory(gt_text *t, const char *name, const void *data, size_t n,
                     const gt_model *m, gt_error *e);
void text_free(gt_text *t);

/* The bytes between two consecutive steps' tokens a and b in a word model's joined text: 1
 * (a space), 0 next to "<eos>" (a newline); 0 for a character model. */
size_t text_token_gap(const gt_model *m, int a, int b);

/* The byte offset of step s's character (s < steps), or nbytes for s == steps. */
size_t text_step_offset(const gt_text *t, size_t s);
/* The bytes of step s's character (a word model's: its token's, "<eos>" one newline). */
size_t text_step_len(const gt_text *t, size_t s);
/* The other way: the step whose character is at byte offset off or the first one after it
 * (steps when there is none). */
size_t text_step_at_offset(const gt_text *t, size_t off);

/* Decodes the character at byte offset off: *cp (UTF8_INVALID for a bad byte) and its
 * length in bytes. In bytes mode, every byte is one character. */
int text_char_at(const gt_text *t, size_t off, uint32_t *cp);

/* A one-line summary of what was skipped, e.g. "3 characters not in the vocabulary
 * skipped: 'é' x2, U+20AC x1" (a word model's: "5 words not in the vocabulary read as
 * <unk>: 'Elimelech' x3, ..."). Empty when nothing was skipped. */
void text_skip_summary(const gt_text *t, char *buf, size_t n);

#endif
