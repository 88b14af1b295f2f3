/* Tensors inside a model file as read: strides, and conversion to float32 (from float64,
 * float16 and bfloat16, in any row or column order) with every value checked. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bytes.h"
#include "format/tensor.h"

void tensor_set_contiguous(gt_tensor *t)
{
    uint64_t s = 1;
    for (int i = t->ndim; i-- > 0;) {
        t->stride[i] = s;
        s *= t->shape[i];
    }
}

/* 1 when t's elements are contiguous in row-major order. */
static int tensor_is_contiguous(const gt_tensor *t)
{
    uint64_t s = 1;
    for (int i = t->ndim; i-- > 0;) {
        if (t->shape[i] != 1 && t->stride[i] != s)
            return 0;
        s *= t->shape[i];
    }
    return 1;
}

void tensor_shape_str(const gt_tensor *t, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "",
                              (unsigned long long)t->shape[i]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | man << 13;
    } else if (exp) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man) { /* subnormal: normalise */
        int shift = 0;
        while (!(man & 0x400)) {
            man <<= 1;
            shift++;
        }
        bits = sign | (uint32_t)(113 - shift) << 23 | (man & 0x3ff) << 13;
    } else {
        bits = sign;
    }
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

/* The element at p as a float; 0 on success, 1 when a float64 is out of float32's range. */
static int element(const gt_tensor *t, const unsigned char *p, float *out, double *big)
{
    if (t->dtype == GT_F32) {
        uint32_t b = (uint32_t)load_le(p, 4);
        memcpy(out, &b, 4);
    } else if (t->dtype == GT_F16) {
        *out = half_to_float((uint16_t)load_le(p, 2));
    } else if (t->dtype == GT_BF16) {
        uint32_t b = (uint32_t)load_le(p, 2) << 16;
        memcpy(out, &b, 4);
    } else {
        uint64_t b = load_le(p, 8);
        double d;
        memcpy(&d, &b, 8);
        if (isfinite(d) && fabs(d) > 3.4028234663852886e38) {
            *big = d;
            return 1;
        }
        *out = (float)d;
    }
    return 0;
}

int tensor_read_f32(const gt_tensor *t, float *dst, const char *path, gt_error *e)
{
    if (t->dtype == GT_NONFLOAT)
        return gt_fail(e, GT_EINPUT, "%s: tensor %s: dtype %s is not a float (F32, F16, BF16, F64)",
                       path, t->name, t->dtype_name);
    uint64_t idx[GT_MAX_DIMS] = {0};
    uint64_t off = 0; /* element offset of idx */
    for (uint64_t i = 0; i < t->nelem; i++) {
        float v = 0;
        double d = 0;
        if (element(t, t->data + off * t->esize, &v, &d))
            return gt_fail(e, GT_EINPUT,
                           "%s: tensor %s: value %g at index %llu is out of float32 range", path,
                           t->name, d, (unsigned long long)i);
        if (!isfinite(v))
            return gt_fail(e, GT_EINPUT, "%s: tensor %s: %s at index %llu", path, t->name,
                           isnan(v) ? "NaN" : "infinite value", (unsigned long long)i);
        dst[i] = v;
        /* the next index, last dimension fastest */
        for (int k = t->ndim; k-- > 0;) {
            if (++idx[k] < t->shape[k]) {
                off += t->stride[k];
                break;
            }
            off -= (idx[k] - 1) * t->stride[k];
            idx[k] = 0;
        }
    }
    return GT_OK;
}

const float *tensor_direct_f32(const gt_tensor *t)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (t->dtype == GT_F32 && ((uintptr_t)t->data & 3) == 0 && tensor_is_contiguous(t))
        return (const float *)(const void *)t->data;
#endif
    (void)t;
    return NULL;
}

void tensor_names(const gt_tensor *t, size_t n, char *buf, size_t cap)
{
    buf[0] = 0;
    for (size_t i = 0, k = 0; i < n && i < 4 && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%.40s", i ? ", " : "", t[i].name);
    if (n > 4 && strlen(buf) + 6 < cap)
        strcat(buf, ", ...");
}
