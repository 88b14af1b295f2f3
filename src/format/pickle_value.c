/* The pickle machine's values (pickle.h): their memory, in blocks and chunks freed at once,
 * the machine's first error, and reading the values it built. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pickle_impl.h"
#include "base/bytes.h"

#define BLOCK_VALUES 1024
#define CHUNK_BYTES (64u << 10)
#define MALLOC_COST 16 /* the allocator's own bytes beside each array */

int pk_fail(pk_machine *pm, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!pm->failed)
        gt_fail(pm->e, GT_EINPUT, "%s: %s, byte %zu: %s", pm->path, pm->what ? pm->what : "pickle",
                pm->op_pos, msg);
    pm->failed = 1;
    return GT_EINPUT;
}

int pk_oom(pk_machine *pm)
{
    if (!pm->failed)
        gt_fail(pm->e, GT_EFAIL, "%s: out of memory reading the pickle", pm->path);
    pm->failed = 1;
    return GT_EFAIL;
}

/* Counts n more bytes of the machine's memory: a failure past its bound. */
static int charge(pk_machine *pm, size_t n)
{
    pm->mem += n;
    if (pm->mem <= pm->mem_bound)
        return GT_OK;
    return pk_fail(pm, "its values would take more than %zu MB, at most %d times the "
                   "pickle's %zu bytes plus %u MB: nested or repeated far past what "
                   "torch.save writes", pm->mem_bound >> 20, PK_MEM_TIMES, pm->run_bytes,
                   PK_MEM_FLOOR >> 20);
}

void pk_bound_memory(pk_machine *pm, size_t n)
{
    if (n > pm->run_bytes) /* the legacy format runs its pickles over the rest of the file */
        pm->run_bytes = n;
    const size_t room = (SIZE_MAX - PK_MEM_FLOOR) / PK_MEM_TIMES;
    pm->mem_bound = (pm->run_bytes < room ? pm->run_bytes : room) * PK_MEM_TIMES + PK_MEM_FLOOR;
}

pk_machine *pk_new(const char *path, gt_error *e)
{
    pk_machine *pm = calloc(1, sizeof *pm);
    if (!pm) {
        gt_fail(e, GT_EFAIL, "%s: out of memory", path);
        return NULL;
    }
    pm->path = path;
    pm->e = e;
    return pm;
}

void pk_free(pk_machine *pm)
{
    if (!pm)
        return;
    for (size_t b = 0; b < pm->nblock; b++) {
        size_t n = b + 1 == pm->nblock ? pm->in_last : BLOCK_VALUES;
        for (size_t i = 0; i < n; i++) {
            pk_value *v = &pm->block[b][i];
            if (v->kind == PK_LIST || v->kind == PK_TUPLE || v->kind == PK_SET ||
                v->kind == PK_DICT)
                free(v->u.seq.v);
        }
        free(pm->block[b]);
    }
    free(pm->block);
    for (size_t c = 0; c < pm->nchunk; c++)
        free(pm->chunk[c]);
    free(pm->chunk);
    free(pm->stack);
    free(pm->marks);
    free(pm->memo);
    free(pm);
}

pk_value *pk_alloc(pk_machine *pm, pk_kind kind)
{
    if (pm->nvalues >= PK_MAX_VALUES) {
        pk_fail(pm, "more than %u values", PK_MAX_VALUES);
        return NULL;
    }
    if (pm->nblock == 0 || pm->in_last == BLOCK_VALUES) {
        if (charge(pm, BLOCK_VALUES * sizeof(pk_value)))
            return NULL;
        if (grow_array(&pm->block, &pm->block_cap, pm->nblock, sizeof *pm->block, 16)) {
            pk_oom(pm);
            return NULL;
        }
        pk_value *b = malloc(BLOCK_VALUES * sizeof *b);
        if (!b) {
            pk_oom(pm);
            return NULL;
        }
        pm->block[pm->nblock++] = b;
        pm->in_last = 0;
    }
    pk_value *v = &pm->block[pm->nblock - 1][pm->in_last++];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    pm->nvalues++;
    return v;
}

static void *own_chunk(pk_machine *pm, size_t n)
{
    if (charge(pm, n))
        return NULL;
    void *p = malloc(n);
    if (!p) {
        pk_oom(pm);
        return NULL;
    }
    if (grow_array(&pm->chunk, &pm->chunk_cap, pm->nchunk, sizeof *pm->chunk, 16)) {
        free(p);
        pk_oom(pm);
        return NULL;
    }
    pm->chunk[pm->nchunk++] = p;
    return p;
}

void *pk_bytes(pk_machine *pm, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > CHUNK_BYTES / 4)
        return own_chunk(pm, n);
    if (pm->cur_left < n) {
        pm->cur = own_chunk(pm, CHUNK_BYTES);
        if (!pm->cur) {
            pm->cur_left = 0;
            return NULL;
        }
        pm->cur_left = CHUNK_BYTES;
    }
    void *p = pm->cur;
    pm->cur += n;
    pm->cur_left -= n;
    return p;
}

int pk_list_push(pk_machine *pm, pk_list *l, pk_value *v)
{
    if (pm->items >= PK_MAX_ITEMS)
        return pk_fail(pm, "more than %u items in containers", PK_MAX_ITEMS);
    if (l->n == l->cap && charge(pm, (l->cap ? l->cap : 4) * sizeof *l->v + MALLOC_COST))
        return GT_EINPUT;
    if (grow_array(&l->v, &l->cap, l->n, sizeof *l->v, 4))
        return pk_oom(pm);
    l->v[l->n++] = v;
    pm->items++;
    return GT_OK;
}

/* A copy of s[0..n) ending in a NUL. */
char *pk_strdup(pk_machine *pm, const char *s, size_t n)
{
    char *d = pk_bytes(pm, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int pk_is_str(const pk_value *v, const char *s)
{
    return v && v->kind == PK_STR && v->u.str.n == strlen(s) && memcmp(v->u.str.s, s, v->u.str.n) == 0;
}

int pk_is_global(const pk_value *v, const char *module, const char *name)
{
    return v && v->kind == PK_GLOBAL && strcmp(v->u.global.module, module) == 0 &&
           strcmp(v->u.global.name, name) == 0;
}

pk_value *pk_dict_get(const pk_value *dict, const char *key)
{
    if (!dict || dict->kind != PK_DICT)
        return NULL;
    pk_value *found = NULL;
    for (size_t i = 0; i + 1 < dict->u.seq.n; i += 2)
        if (pk_is_str(dict->u.seq.v[i], key))
            found = dict->u.seq.v[i + 1];
    return found;
}

int pk_int(const pk_value *v, int64_t *out)
{
    if (!v || (v->kind != PK_INT && v->kind != PK_BOOL))
        return -1;
    *out = v->u.i;
    return 0;
}
