/* A safetensors file, mapped read-only and checked: every tensor's bytes lie inside the
 * file, none overlap, and each byte count agrees with its dtype and shape. */
#ifndef GATETUI_SAFETENSORS_H
#define GATETUI_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"

#define ST_MAX_DIMS 8

typedef enum st_dtype {
    ST_F64, ST_F32, ST_F16, ST_BF16, /* the float dtypes gatetui reads */
    ST_NONFLOAT                      /* a known dtype that is not a float we read */
} st_dtype;

typedef struct st_tensor {
    char *name;
    const char *dtype_name;           /* as written in the file */
    st_dtype dtype;
    int ndim;
    uint64_t shape[ST_MAX_DIMS];
    uint64_t nelem;
    const unsigned char *data;        /* inside the mapping; nelem * dtype size bytes */
} st_tensor;

typedef struct st_file {
    char *path;
    void *map;
    size_t size;
    st_tensor *tensor;
    size_t ntensor;
    char **meta_key, **meta_val; /* values may hold NUL: see meta_len */
    size_t *meta_len;
    size_t nmeta;
} st_file;

/* Maps and checks path. On failure f is left closed and e says what is wrong. */
int st_open(st_file *f, const char *path, gt_error *e);
void st_close(st_file *f);

const st_tensor *st_find(const st_file *f, const char *name);
/* The metadata value of key (NUL-terminated; its length in *len when len is not NULL). */
const char *st_meta(const st_file *f, const char *key, size_t *len);

/* Converts t to float32 in dst (t->nelem values), refusing NaN and infinities. */
int st_read_f32(const st_file *f, const st_tensor *t, float *dst, gt_error *e);

/* A pointer to t's data used in place when it is already little-endian float32 and
 * aligned; NULL when it must be converted. Values are not checked. */
const float *st_direct_f32(const st_tensor *t);

#endif
