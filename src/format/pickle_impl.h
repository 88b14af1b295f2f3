/* Inside the pickle machine: what pickle.c (the opcodes), pickle_call.c (what a call
 * builds) and pickle_value.c (the values' memory) share. */
#ifndef GATETUI_ENGINE_PICKLE_IMPL_H
#define GATETUI_ENGINE_PICKLE_IMPL_H

#include <stddef.h>

#include "format/pickle.h"

struct pk_machine {
    const char *path, *what;
    gt_error *e;
    int failed;
    /* values, in blocks that are never moved */
    pk_value **block;
    size_t nblock, block_cap, in_last, nvalues, items;
    /* bytes: chunks and single large allocations */
    void **chunk;
    size_t nchunk, chunk_cap;
    unsigned char *cur;
    size_t cur_left;
    /* the run */
    const unsigned char *start, *p, *end;
    size_t op_pos;
    pk_value **stack;
    size_t sp, stack_cap;
    size_t *marks;
    size_t nmarks, marks_cap;
    pk_value **memo;
    size_t memo_cap, memo_puts;
    pk_persistent_fn persistent;
    void *ctx;
    /* the memory taken and its bound (PK_MEM_TIMES, PK_MEM_FLOOR), the pickles' bytes */
    size_t mem, mem_bound, run_bytes;
};

/* A pickle of n bytes about to be run: the memory bound is PK_MEM_TIMES times the largest
 * run plus PK_MEM_FLOOR. */
void pk_bound_memory(pk_machine *pm, size_t n);
/* Sets the machine's error "out of memory" (the first error is kept); GT_EFAIL. */
int pk_oom(pk_machine *pm);

enum { PK_CALL_REDUCE, PK_CALL_NEW };

/* The value a call of fn with args builds (REDUCE, INST, OBJ: PK_CALL_REDUCE; NEWOBJ,
 * NEWOBJ_EX: PK_CALL_NEW), or NULL after pk_fail. Nothing is called. */
pk_value *pk_call(pk_machine *pm, pk_value *fn, pk_value *args, int how);

int pk_list_push(pk_machine *pm, pk_list *l, pk_value *v);

#endif
