/* A named tensor inside a model file as read, whatever the file's format (safetensors or
 * torch.save): its dtype, shape and strides, and a pointer to its first element. Every
 * element the shape and strides reach has been checked to lie inside the file. */
#ifndef GATETUI_TENSOR_H
#define GATETUI_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"

#define GT_MAX_DIMS 8

typedef enum gt_dtype {
    GT_F64, GT_F32, GT_F16, GT_BF16, /* the float dtypes gatetui reads */
    GT_NONFLOAT                      /* a known dtype that is not a float we read */
} gt_dtype;

typedef struct gt_tensor {
    char *name;
    const char *dtype_name;           /* as the file names it ("F32", "float32", ...) */
    gt_dtype dtype;
    unsigned esize;                   /* bytes per element */
    int ndim;
    uint64_t shape[GT_MAX_DIMS];
    uint64_t stride[GT_MAX_DIMS];     /* in elements; row-major for a contiguous tensor */
    uint64_t nelem;
    const unsigned char *data;        /* the first element (little-endian) */
    const void *storage;              /* tensors sharing storage have the same pointer */
} gt_tensor;

/* Fills t's strides for a contiguous row-major layout. */
void tensor_set_contiguous(gt_tensor *t);

/* Converts t to float32 in dst (t->nelem values, row-major), refusing NaN, infinities and
 * float64 values outside float32's range; path names the file in messages. */
int tensor_read_f32(const gt_tensor *t, float *dst, const char *path, gt_error *e);

/* A pointer to t's data used in place when it is already contiguous, little-endian,
 * aligned float32; NULL when it must be converted. Values are not checked. */
const float *tensor_direct_f32(const gt_tensor *t);


/* The first names of n tensors, "a, b, c, d, ..." into buf[cap]. */
void tensor_names(const gt_tensor *t, size_t n, char *buf, size_t cap);

/* "[4, 3]" into buf. */
void tensor_shape_str(const gt_tensor *t, char *buf, size_t n);

#endif
