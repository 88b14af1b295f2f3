/* A minimal safetensors writer (F32 only) for models the tests build. */
#include "stwrite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int stw_write(const char *path, const stw_tensor *t, int n, const char *const *meta, int nmeta)
{
    char hdr[8192];
    size_t k = 0, off = 0;
    k += (size_t)snprintf(hdr + k, sizeof hdr - k, "{");
    for (int i = 0; i < n; i++) {
        size_t count = (size_t)t[i].rows * (size_t)(t[i].cols ? t[i].cols : 1);
        if (t[i].cols)
            k += (size_t)snprintf(hdr + k, sizeof hdr - k,
                                  "%s\"%s\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[%zu,%zu]}",
                                  i ? "," : "", t[i].name, t[i].rows, t[i].cols, off,
                                  off + 4 * count);
        else
            k += (size_t)snprintf(hdr + k, sizeof hdr - k,
                                  "%s\"%s\":{\"dtype\":\"F32\",\"shape\":[%d],\"data_offsets\":[%zu,%zu]}",
                                  i ? "," : "", t[i].name, t[i].rows, off, off + 4 * count);
        off += 4 * count;
    }
    if (nmeta) {
        k += (size_t)snprintf(hdr + k, sizeof hdr - k, ",\"__metadata__\":{");
        for (int i = 0; i < nmeta; i++)
            k += (size_t)snprintf(hdr + k, sizeof hdr - k, "%s\"%s\":\"%s\"", i ? "," : "",
                                  meta[2 * i], meta[2 * i + 1]);
        k += (size_t)snprintf(hdr + k, sizeof hdr - k, "}");
    }
    k += (size_t)snprintf(hdr + k, sizeof hdr - k, "}");
    while (k % 8)
        hdr[k++] = ' ';
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    uint64_t len = k;
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(len >> (8 * i));
    fwrite(le, 1, 8, f);
    fwrite(hdr, 1, k, f);
    for (int i = 0; i < n; i++) {
        size_t count = (size_t)t[i].rows * (size_t)(t[i].cols ? t[i].cols : 1);
        fwrite(t[i].data, 4, count, f); /* the tests run on little-endian hosts */
    }
    return fclose(f);
}

int stw_lstm40(const char *path, int layers, unsigned seed)
{
    enum { H = 40, V = 8, D = 4, G = 4 };
    static float w[40000];
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        seed = seed * 1103515245u + 12345u;
        w[i] = (float)((int)((seed >> 16) % 2001) - 1000) / 1000.0f;
    }
    for (int j = 0; j < G * H; j++) /* the hidden-hidden biases small */
        w[10000 + j] *= 0.1f, w[30500 + j] *= 0.1f;
    for (int j = H; j < 2 * H; j++) /* forget biases from -2 to +4: long and short memories */
        w[30000 + j] = w[8000 + j] = -2.0f + 6.0f * (float)(j - H) / H;
    stw_tensor t[] = {
        {"emb.weight", V, D, w},
        {"lstm.weight_ih_l0", G * H, D, w + 400},
        {"lstm.weight_hh_l0", G * H, H, w + 1200},
        {"lstm.bias_ih_l0", G * H, 0, w + 8000},
        {"lstm.bias_hh_l0", G * H, 0, w + 10000},
        {"fc.weight", V, H, w + 9000},
        {"fc.bias", V, 0, w + 9500},
        {"lstm.weight_ih_l1", G * H, H, w + 12000},
        {"lstm.weight_hh_l1", G * H, H, w + 19000},
        {"lstm.bias_ih_l1", G * H, 0, w + 30000},
        {"lstm.bias_hh_l1", G * H, 0, w + 30500},
    };
    const char *meta[] = {"vocab", "\\n abcdex"};
    return stw_write(path, t, layers > 1 ? 11 : 7, meta, 1);
}

size_t stw_lstm40_text(char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < 110 && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s", i % 3 ? "abc cab bad\n" : "dexa bead ax");
    return n < cap ? n : cap;
}

int stw_lstm40_dir(char *dir, char *path, size_t n, int layers, unsigned seed)
{
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, n, "%s/m.safetensors", dir);
    stw_lstm40(path, layers, seed);
    return chdir(dir);
}
