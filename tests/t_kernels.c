/* The vectorised kernels against the plain C reference: products of every shape with
 * tails, and sigmoid / tanh over the whole float range that matters. */
#include <math.h>
#include <stdlib.h>

#include "compute/gemm32.h"
#include "compute/kernels.h"
#include "tap.h"

static float frand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static void check(const kern_set *ks, const kern_set *ref)
{
    unsigned seed = 7;
    const size_t shapes[][2] = {{1, 1}, {3, 5}, {4, 8}, {5, 15}, {7, 16}, {8, 17}, {12, 31},
                                {64, 64}, {129, 33}, {1024, 256}, {1300, 325}, {3, 1000}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        size_t R = shapes[k][0], C = shapes[k][1];
        float *W = malloc(R * C * sizeof *W), *x = malloc(C * sizeof *x),
              *b = malloc(R * sizeof *b), *y = malloc(R * sizeof *y), *z = malloc(R * sizeof *z);
        for (size_t i = 0; i < R * C; i++)
            W[i] = frand(&seed);
        for (size_t i = 0; i < C; i++)
            x[i] = frand(&seed);
        for (size_t i = 0; i < R; i++)
            b[i] = frand(&seed);
        double worst = 0;
        for (int withb = 0; withb < 2; withb++) {
            ks->gemv(R, C, W, x, withb ? b : NULL, y, 0);
            ref->gemv(R, C, W, x, withb ? b : NULL, z, 0);
            for (size_t i = 0; i < R; i++) {
                /* the sums differ only in their order: bound by C ulps of the magnitudes */
                double d = fabs((double)y[i] - z[i]) / (sqrt((double)C) + 1);
                if (d > worst)
                    worst = d;
            }
        }
        tap_ok(worst < 1e-6, "%s: gemv %zux%zu agrees with the reference (scaled diff %.2g)", ks->name, R, C,
               worst);
        /* backward: the same numbers, bit for bit */
        ks->gemv(R, C, W, x, b, y, 0);
        ks->gemv(R, C, W, x, b, z, 1);
        int same = 1;
        for (size_t i = 0; i < R; i++)
            same &= y[i] == z[i];
        tap_ok(same, "%s: gemv %zux%zu backward equals forward", ks->name, R, C);
        /* the batched float32 product: 1..13 items and 25 items, against the reference */
        gt_mat32 A;
        size_t nbs[] = {1, 5, 12, 13, 25};
        double worst32 = 0;
        if (mat32_pack(&A, W, R, C) == 0) {
            for (size_t q = 0; q < sizeof nbs / sizeof nbs[0]; q++) {
                size_t nb = nbs[q];
                float *X = malloc(nb * C * sizeof *X), *Y = malloc(nb * R * sizeof *Y),
                      *Z = malloc(nb * R * sizeof *Z);
                for (size_t i = 0; i < nb * C; i++)
                    X[i] = frand(&seed);
                ks->gemm32(&A, nb, X, C, Y, R);
                ref->gemm32(&A, nb, X, C, Z, R);
                for (size_t i = 0; i < nb * R; i++) {
                    double d = fabs((double)Y[i] - Z[i]) / (sqrt((double)C) + 1);
                    if (d > worst32)
                        worst32 = d;
                }
                /* the interleaved layout gives the same numbers as the row layout */
                float *XT = malloc(nb * C * sizeof *XT);
                for (size_t i = 0; i < nb; i++)
                    for (size_t j = 0; j < C; j++)
                        XT[j * nb + i] = X[i * C + j];
                ks->gemm32_t(&A, nb, XT, Z, R, NULL, NULL);
                for (size_t i = 0; i < nb * R; i++) {
                    double d = fabs((double)Y[i] - Z[i]) / (sqrt((double)C) + 1);
                    if (d > worst32)
                        worst32 = d;
                }
                free(XT);
                free(X), free(Y), free(Z);
            }
            mat32_free(&A);
        } else {
            worst32 = 1;
        }
        tap_ok(worst32 < 1e-6, "%s: batched float32 product %zux%zu, both layouts, agrees with the reference (scaled diff %.2g)",
               ks->name, R, C, worst32);
        free(W), free(x), free(b), free(y), free(z);
    }
    enum { N = 200003 };
    float *v = malloc(N * sizeof *v), *r = malloc(N * sizeof *r);
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < N; i++)
            v[i] = r[i] = -100.0f + 200.0f * (float)i / (N - 1);
        v[N / 2] = r[N / 2] = 0.0f;
        v[7] = r[7] = 1e-30f;
        v[8] = r[8] = -1e-6f;
        ks->act(N, v, f);
        ref->act(N, r, f);
        double worst = 0;
        int at = 0;
        for (int i = 0; i < N; i++)
            if (fabs((double)v[i] - r[i]) > worst)
                worst = fabs((double)v[i] - r[i]), at = i;
        tap_ok(worst < 3e-7, "%s: %s over [-100, 100]: largest absolute error %.3g (at %g)", ks->name,
               f ? "tanh" : "sigmoid", worst, (double)r[at]);
        int odd = 1;
        for (int i = 0; i < N && f; i++)
            odd &= (v[i] < 0) == (r[i] < 0) || v[i] == 0 || r[i] == 0;
        if (f)
            tap_ok(odd, "tanh keeps the sign of its argument");
    }
    free(v), free(r);
}

int main(void)
{
    const kern_set *sets[8];
    size_t n = kern_sets(sets, 8);
    for (size_t i = 0; i < n; i++)
        check(sets[i], kern_find("c"));
    return tap_done();
}
