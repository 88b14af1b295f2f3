/* A safetensors file, checked: every tensor's bytes lie inside the
 * file, none overlap, and each byte count agrees with its dtype and shape. */
#ifndef GATETUI_SAFETENSORS_H
#define GATETUI_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "format/tensor.h"

#define ST_MAX_DIMS GT_MAX_DIMS

typedef struct st_file {
    char *path;
    gt_tensor *tensor;
    size_t ntensor;
    char **meta_key, **meta_val; /* values may hold NUL: see meta_len */
    size_t *meta_len;
    size_t nmeta;
} st_file;

/* Checks the size bytes at base (the file path, mapped by the caller, who keeps the mapping
 * while f is used). On failure f is left closed and e says what is wrong. */
int st_parse(st_file *f, const char *path, const unsigned char *base, size_t size, gt_error *e);
void st_close(st_file *f);

/* The metadata value of key (NUL-terminated; its length in *len when len is not NULL). */
const char *st_meta(const st_file *f, const char *key, size_t *len);

#endif
