/* A pickle machine that builds data and never runs code (doc/model-files.md): the opcodes
 * of pickle protocols 0 to 5 make a graph of values; a call (REDUCE, NEWOBJ, INST, OBJ)
 * of a known pure constructor builds its value (a dict, a set, bytes, a tensor), any other
 * call becomes an opaque object that keeps its class, arguments and the state BUILD gives
 * it, and a call of a function that runs commands or code (os.system, eval, ...) is
 * refused. Nothing is imported or called. Every count, size and index is bounded and
 * checked against the input. */
#ifndef GATETUI_ENGINE_PICKLE_H
#define GATETUI_ENGINE_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "format/tensor.h"

/* Bounds on what one machine builds. */
#define PK_MAX_VALUES (1u << 24) /* values made */
#define PK_MAX_STACK (1u << 22)  /* entries on the stack */
#define PK_MAX_MARKS (1u << 16)  /* open marks */
#define PK_MAX_ITEMS (1u << 26)  /* entries in all containers together */
/* The memory the values (and their containers' entries and bytes) may take: PK_MEM_TIMES
 * times the bytes of the largest pickle run plus PK_MEM_FLOOR. A byte of pickle makes a value of
 * 48 bytes at most with its entry in a container: a structure nested or repeated that far
 * past its bytes is refused before it takes more. */
#define PK_MEM_TIMES 16
#define PK_MEM_FLOOR (64u << 20)

typedef enum pk_kind {
    PK_NONE, PK_BOOL, PK_INT, PK_BIGINT, PK_FLOAT, PK_STR, PK_BYTES,
    PK_LIST, PK_TUPLE, PK_SET, PK_DICT, PK_GLOBAL, PK_OBJECT, PK_STORAGE, PK_TENSOR,
    PK_MARK /* only on the stack */
} pk_kind;

typedef struct pk_value pk_value;

typedef struct pk_list {
    pk_value **v;
    size_t n, cap;
} pk_list;

/* A storage: nelem elements of one dtype; data is NULL until the file's reader finds it. */
typedef struct pk_storage {
    gt_dtype dtype;
    unsigned esize;
    const char *dtype_name;
    const char *key;         /* the file's name for it */
    uint64_t nelem;
    uint64_t offset;         /* elements into the data found under key (legacy views) */
    const unsigned char *data;
} pk_storage;

/* A tensor: shape and strides (in elements) over a storage, every element inside it. */
typedef struct pk_tensor {
    pk_value *storage;
    uint64_t offset;
    int ndim;
    uint64_t shape[GT_MAX_DIMS], stride[GT_MAX_DIMS];
    uint64_t nelem;
} pk_tensor;

struct pk_value {
    pk_kind kind;
    unsigned mark;           /* free for the graph's readers (on-path marks) */
    union {
        int64_t i;                              /* BOOL, INT */
        double f;                               /* FLOAT */
        /* STR (UTF-8), BYTES, BIGINT (little-endian bytes, or decimal text from the text
         * opcodes) */
        struct { const char *s; size_t n; } str;
        pk_list seq;                            /* LIST, TUPLE, SET; DICT: key, value, ... */
        struct { const char *module, *name; } global;
        /* OBJECT: what made it (a GLOBAL, or NULL), its arguments, the state BUILD gave
         * it, the items SETITEM(S) put in it (a DICT) and APPEND(S) (a LIST) */
        struct { pk_value *cls, *args, *state, *items, *list; } obj;
        pk_storage *storage;
        pk_tensor *tensor;
    } u;
};

typedef struct pk_machine pk_machine;

/* Turns a persistent id (PERSID, BINPERSID) into a value, or returns NULL after pk_fail. */
typedef pk_value *(*pk_persistent_fn)(void *ctx, pk_machine *pm, pk_value *pid);

/* A machine whose messages start with "<path>: <what>"; NULL when out of memory. */
pk_machine *pk_new(const char *path, gt_error *e);
void pk_free(pk_machine *pm);

/* Runs the pickle at p[0..n) up to its STOP, naming it `what` in messages; the value in
 * *root, the bytes read in *used. Values stay valid until pk_free. */
int pk_run(pk_machine *pm, const char *what, const unsigned char *p, size_t n, size_t *used,
           pk_value **root, pk_persistent_fn persistent, void *ctx);

/* For persistent-id functions: a new value, bytes owned by the machine, a failure. */
pk_value *pk_alloc(pk_machine *pm, pk_kind kind);
void *pk_bytes(pk_machine *pm, size_t n);
/* A NUL-terminated copy of s[0..n) owned by the machine. */
char *pk_strdup(pk_machine *pm, const char *s, size_t n);
int pk_fail(pk_machine *pm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Readers of the graph. */
int pk_is_str(const pk_value *v, const char *s);
int pk_is_global(const pk_value *v, const char *module, const char *name);
/* The value of key (a string) in a DICT, or NULL. */
pk_value *pk_dict_get(const pk_value *dict, const char *key);
/* The number of an INT or BOOL in *out; 0 when v is one. */
int pk_int(const pk_value *v, int64_t *out);

#endif
