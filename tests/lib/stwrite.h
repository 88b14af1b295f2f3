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

/* The screen's tests' LSTM: 40 units, the characters "\n abcdex" embedded in 4, one layer
 * or two, a readout; its weights from a fixed sequence started at seed, the forget biases
 * from -2 to +4 across the units (long and short memories). Returns 0. */
int stw_lstm40(const char *path, int layers, unsigned seed);
/* The model written as m.safetensors (its path into path, n bytes) in a new directory made
 * from the mkdtemp template dir, which becomes the current directory; 0, or -1. */
int stw_lstm40_dir(char *dir, char *path, size_t n, int layers, unsigned seed);
/* Its text: 1,320 characters of its vocabulary in lines of 12 and 24, into buf (cap bytes,
 * 1,321 at least); the bytes written. */
size_t stw_lstm40_text(char *buf, size_t cap);

#endif
