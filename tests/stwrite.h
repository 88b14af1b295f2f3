/* Writing small safetensors files from the tests. */
#ifndef GATETUI_STWRITE_H
#define GATETUI_STWRITE_H

#include <stddef.h>

typedef struct stw_tensor {
    const char *name;
    int rows, cols;        /* cols == 0: a vector of rows values */
    const float *data;
} stw_tensor;

/* Writes the tensors as F32 with metadata pairs meta[0..2*nmeta) (key, value). Returns 0. */
int stw_write(const char *path, const stw_tensor *t, int n, const char *const *meta, int nmeta);

#endif
