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

/* The header's length from the file's first 8 bytes (n >= 8 of them at b) and the file's
 * size: refused when the file is too short, or the header runs past its end or is larger
 * than ST_MAX_HEADER. */
#define ST_MAX_HEADER (100u * 1024 * 1024)
int st_header_len(const char *path, const unsigned char *b, size_t n, uint64_t file_size,
                  uint64_t *hlen, gt_error *e);
/* The bytes the file needs, its header (8 + hlen bytes at b) and the data its tensors'
 * data_offsets reach: 8 + hlen + the largest end, that tensor's name in name (n bytes). 0
 * when the header cannot tell (not JSON, not an object, offsets that are not numbers):
 * st_parse then says what is wrong. */
uint64_t st_declared_size(const unsigned char *b, uint64_t hlen, char *name, size_t n);
/* The refusal of a file of size bytes whose tensor name's data_offsets end at end
 * (st_parse's own words). */
int st_outside(const char *path, const char *name, uint64_t end, uint64_t data_size,
               gt_error *e);
/* Checks the size bytes at base (the file path, read into memory by the caller, who keeps it
 * while f is used). On failure f is left closed and e says what is wrong. */
int st_parse(st_file *f, const char *path, const unsigned char *base, size_t size, gt_error *e);
void st_close(st_file *f);

/* The metadata value of key (NUL-terminated; its length in *len when len is not NULL). */
const char *st_meta(const st_file *f, const char *key, size_t *len);

#endif
