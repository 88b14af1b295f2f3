/* The model's buffers and tensors while it is loaded (model_impl.h): the buffers it owns,
 * weights converted to float32 or used in place, shapes checked. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/model_impl.h"

void *model_own(gt_model *m, void *p)
{
    if (!p)
        return NULL;
    void **n = realloc(m->owned, (m->nowned + 1) * sizeof *n);
    if (!n) {
        free(p);
        return NULL;
    }
    m->owned = n;
    m->owned[m->nowned++] = p;
    return p;
}

int model_is_2d(const gt_tensor *t, uint64_t rows, uint64_t cols)
{
    return t->ndim == 2 && t->shape[0] == rows && t->shape[1] == cols;
}

int model_bad_shape(const gt_model *m, const gt_tensor *t, const char *want, gt_error *e)
{
    char got[128];
    tensor_shape_str(t, got, sizeof got);
    return gt_fail(e, GT_EINPUT, "%s: tensor %s: shape %s, expected %s", m->path, t->name, got,
                   want);
}

int model_weights(gt_model *m, const gt_tensor *t, const float **out, gt_error *e)
{
    const float *direct = tensor_direct_f32(t);
    if (direct) {
        for (uint64_t i = 0; i < t->nelem; i++)
            if (!(direct[i] - direct[i] == 0.0f))
                return gt_fail(e, GT_EINPUT, "%s: tensor %s: %s at index %llu", m->path, t->name,
                               direct[i] != direct[i] ? "NaN" : "infinite value",
                               (unsigned long long)i);
        *out = direct;
        return GT_OK;
    }
    float *buf = model_own(m, malloc((t->nelem ? t->nelem : 1) * sizeof *buf));
    if (!buf)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for tensor %s", m->path, t->name);
    *out = buf;
    return tensor_read_f32(t, buf, m->path, e);
}

const float *model_zeros(gt_model *m, size_t n)
{
    return model_own(m, calloc(n ? n : 1, sizeof(float)));
}

int model_is_recurrent(const gt_model *m, const gt_tensor *t)
{
    return m->recurrent[t - m->file->tensor];
}

const float *model_fold_projection(gt_model *m, const float *a, size_t rows, const float *hr)
{
    const size_t P = (size_t)m->proj, H = (size_t)m->hidden_max; /* every layer's (projected) */
    float *out = model_own(m, malloc(rows * H * sizeof *out));
    double *acc = malloc(H * sizeof *acc);
    if (!out || !acc) {
        free(acc);
        return NULL;
    }
    for (size_t r = 0; r < rows; r++) {
        for (size_t j = 0; j < H; j++)
            acc[j] = 0;
        for (size_t p = 0; p < P; p++) {
            const double w = a[r * P + p];
            const float *row = hr + p * H;
            for (size_t j = 0; j < H; j++)
                acc[j] += w * row[j];
        }
        for (size_t j = 0; j < H; j++)
            out[r * H + j] = (float)acc[j];
    }
    free(acc);
    return out;
}

/* Orders tensors by their first element, then dtype, shape and strides. */
int model_view_cmp(const void *a, const void *b)
{
    const gt_tensor *x = *(const gt_tensor *const *)a, *y = *(const gt_tensor *const *)b;
    uintptr_t p = (uintptr_t)x->data, q = (uintptr_t)y->data;
    if (p != q)
        return p < q ? -1 : 1;
    if (x->dtype != y->dtype || x->ndim != y->ndim)
        return x->dtype != y->dtype ? (int)x->dtype - (int)y->dtype : x->ndim - y->ndim;
    int c = memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof x->shape[0]);
    return c ? c : memcmp(x->stride, y->stride, (size_t)x->ndim * sizeof x->stride[0]);
}
