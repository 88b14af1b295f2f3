/* A minimal safetensors writer (F32 only) for models the tests build. */
#include "stwrite.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
