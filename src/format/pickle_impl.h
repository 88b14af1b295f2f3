/* Inside the pickle machine: what pickle.c (the opcodes) and pickle_call.c (what a call
 * builds) share. */
#ifndef GATETUI_ENGINE_PICKLE_IMPL_H
#define GATETUI_ENGINE_PICKLE_IMPL_H

#include "format/pickle.h"

enum { PK_CALL_REDUCE, PK_CALL_NEW };

/* The value a call of fn with args builds (REDUCE, INST, OBJ: PK_CALL_REDUCE; NEWOBJ,
 * NEWOBJ_EX: PK_CALL_NEW), or NULL after pk_fail. Nothing is called. */
pk_value *pk_call(pk_machine *pm, pk_value *fn, pk_value *args, int how);

int pk_list_push(pk_machine *pm, pk_list *l, pk_value *v);

#endif
