/* Edits beside the text: the steps whose token differs from the text's, sorted by step, each
 * with its token now. The text's own tokens are only read, so a text of any length is edited
 * without a copy and the memory taken grows with the edited steps, not with the text.
 *
 * Reading step s costs a binary search over the edited steps; a reader going forward over
 * consecutive steps costs one comparison a step. The original token is the text's, read
 * directly. */
#ifndef GATETUI_OVERLAY_H
#define GATETUI_OVERLAY_H

#include <stddef.h>
#include <stdint.h>

typedef struct gt_overlay_entry {
    size_t step;
    uint16_t tok;
} gt_overlay_entry;

typedef struct gt_overlay {
    const uint16_t *base;   /* [steps] the text's tokens, never written */
    const uint16_t *map;    /* [V] the text's token -> the model's (vocabmap.h), NULL: the
                             * same; the edits are in the model's tokens */
    size_t steps;
    gt_overlay_entry *at;   /* [n] by increasing step; at[i].tok != base[at[i].step] */
    size_t n, cap;
} gt_overlay;

void overlay_init(gt_overlay *o, const uint16_t *base, const uint16_t *map, size_t steps);
/* Step s's token in the text, in the model's tokens. */
static inline int overlay_base(const gt_overlay *o, size_t s)
{
    return o->map ? o->map[o->base[s]] : o->base[s];
}
void overlay_free(gt_overlay *o);

/* The index of the first edited step at or after s (n when none is). */
size_t overlay_lower(const gt_overlay *o, size_t s);
/* Step s's token as edited (s < steps). */
int overlay_token(const gt_overlay *o, size_t s);
/* 1 when step s's token differs from the text's. */
int overlay_edited(const gt_overlay *o, size_t s);
/* Makes room for one more edited step: -1 when out of memory, which changes nothing. */
int overlay_reserve(gt_overlay *o);
/* Step s's token becomes tok (the entry goes when tok is the text's own). A step not yet
 * edited needs the room overlay_reserve makes: -1 without it, which changes nothing. */
int overlay_set(gt_overlay *o, size_t s, uint16_t tok);
/* Steps [a, a + n) as edited into out (a + n <= steps). */
void overlay_read(const gt_overlay *o, size_t a, size_t n, uint16_t *out);

/* Reads the tokens as edited at steps that never decrease, from the one it starts at. */
typedef struct gt_overlay_reader {
    const uint16_t *base, *map;
    const gt_overlay_entry *next, *end; /* the edited steps not yet passed */
} gt_overlay_reader;

void overlay_reader(const gt_overlay *o, size_t s, gt_overlay_reader *rd);

static inline int overlay_reader_token(gt_overlay_reader *rd, size_t s)
{
    while (rd->next < rd->end && rd->next->step < s)
        rd->next++;
    if (rd->next < rd->end && rd->next->step == s)
        return rd->next->tok;
    return rd->map ? rd->map[rd->base[s]] : rd->base[s];
}

#endif
