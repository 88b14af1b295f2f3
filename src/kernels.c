/* Matrix-vector product and nonlinearities. The recurrent product is the step's cost:
 * eight independent partial sums per row let the compiler use vector registers. */
#include "config.h"

#include <math.h>

#include "gatetui/kernels.h"

void kern_gemv(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
               float *y)
{
    for (size_t r = 0; r < rows; r++) {
        const float *w = W + r * cols;
        float acc[8] = {0};
        size_t j = 0;
        for (; j + 8 <= cols; j += 8)
            for (int u = 0; u < 8; u++)
                acc[u] += w[j + u] * x[j + u];
        float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
        for (; j < cols; j++)
            s += w[j] * x[j];
        y[r] = (bias ? bias[r] : 0.0f) + s;
    }
}

float kern_sigmoid(float x)
{
    return 1.0f / (1.0f + expf(-x));
}
