/* Edits beside the text (see overlay.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/overlay.h"

void overlay_init(gt_overlay *o, const uint16_t *base, const uint16_t *map, size_t steps)
{
    memset(o, 0, sizeof *o);
    o->base = base;
    o->map = map;
    o->steps = steps;
}

void overlay_free(gt_overlay *o)
{
    free(o->at);
    o->at = NULL;
    o->n = o->cap = 0;
}

size_t overlay_lower(const gt_overlay *o, size_t s)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->at[mid].step < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int overlay_token(const gt_overlay *o, size_t s)
{
    size_t i = overlay_lower(o, s);
    return i < o->n && o->at[i].step == s ? o->at[i].tok : overlay_base(o, s);
}

int overlay_edited(const gt_overlay *o, size_t s)
{
    size_t i = overlay_lower(o, s);
    return i < o->n && o->at[i].step == s;
}

int overlay_reserve(gt_overlay *o)
{
    if (o->n < o->cap)
        return 0;
    size_t cap = o->cap ? 2 * o->cap : 16;
    gt_overlay_entry *at = realloc(o->at, cap * sizeof *at);
    if (!at)
        return -1;
    o->at = at;
    o->cap = cap;
    return 0;
}

int overlay_set(gt_overlay *o, size_t s, uint16_t tok)
{
    size_t i = overlay_lower(o, s);
    int here = i < o->n && o->at[i].step == s;
    if (tok == overlay_base(o, s)) { /* back to the text's token: no entry */
        if (here) {
            memmove(o->at + i, o->at + i + 1, (o->n - i - 1) * sizeof *o->at);
            o->n--;
        }
        return 0;
    }
    if (here) {
        o->at[i].tok = tok;
        return 0;
    }
    if (o->n == o->cap)
        return -1;
    memmove(o->at + i + 1, o->at + i, (o->n - i) * sizeof *o->at);
    o->at[i] = (gt_overlay_entry){s, tok};
    o->n++;
    return 0;
}

void overlay_read(const gt_overlay *o, size_t a, size_t n, uint16_t *out)
{
    if (o->map)
        for (size_t k = 0; k < n; k++)
            out[k] = o->map[o->base[a + k]];
    else
        memcpy(out, o->base + a, n * sizeof *out);
    for (size_t i = overlay_lower(o, a); i < o->n && o->at[i].step < a + n; i++)
        out[o->at[i].step - a] = o->at[i].tok;
}

void overlay_reader(const gt_overlay *o, size_t s, gt_overlay_reader *rd)
{
    rd->base = o->base;
    rd->map = o->map;
    rd->next = rd->end = o->at; /* NULL with no edit */
    if (o->n) {
        rd->next = o->at + overlay_lower(o, s);
        rd->end = o->at + o->n;
    }
}
