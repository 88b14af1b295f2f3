/* Writes the small models of the frame tests into a directory: a two-layer LSTM with an
 * embedding and a readout (frames_lstm2.safetensors) and a one-layer GRU with one-hot input
 * and no readout (frames_gru.safetensors), and a one-layer LSTM of 256 byte tokens with no
 * vocabulary (frames_bytes.safetensors: a byte model), and plain RNNs: a two-layer tanh one
 * with an embedding and a readout (frames_rnn2.safetensors) and a one-layer relu one with
 * one-hot input (frames_relu.safetensors). The weights come from a fixed pseudo-random
 * sequence, so the files are the same everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stwrite.h"

static unsigned long long rng;

static float frand(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

static float pool[1 << 17];
static size_t used;

static float *fill(int n, float scale, float bias_f, int H)
{
    float *p = pool + used;
    for (int i = 0; i < n; i++)
        p[i] = frand() * scale;
    if (bias_f != 0) /* the carry gate's bias block (rows H..2H-1) */
        for (int i = H; i < 2 * H && i < n; i++)
            p[i] += bias_f;
    used += (size_t)n;
    return p;
}

/* The vocabulary, as it goes into the metadata (JSON-escaped: \n is a newline). */
static const char vocab_json[] = "\\n !',.:;?ADGHIJLMOSTWabcdefghijklmnopqrstuvwxyz";
static const int V = 47;

static int lstm2(const char *dir)
{
    const int H = 20, D = 6, G = 4;
    char path[512];
    snprintf(path, sizeof path, "%s/frames_lstm2.safetensors", dir);
    rng = 0x9E3779B97F4A7C15ull;
    used = 0;
    stw_tensor t[] = {
        {"encoder.weight", V, D, fill(V * D, 1.0f, 0, H)},
        {"rnn.weight_ih_l0", G * H, D, fill(G * H * D, 0.9f, 0, H)},
        {"rnn.weight_hh_l0", G * H, H, fill(G * H * H, 0.35f, 0, H)},
        {"rnn.bias_ih_l0", G * H, 0, fill(G * H, 0.5f, 1.0f, H)},
        {"rnn.bias_hh_l0", G * H, 0, fill(G * H, 0.5f, 0, H)},
        {"rnn.weight_ih_l1", G * H, H, fill(G * H * H, 0.45f, 0, H)},
        {"rnn.weight_hh_l1", G * H, H, fill(G * H * H, 0.35f, 0, H)},
        {"rnn.bias_ih_l1", G * H, 0, fill(G * H, 0.5f, 1.5f, H)},
        {"rnn.bias_hh_l1", G * H, 0, fill(G * H, 0.5f, 0, H)},
        {"decoder.weight", V, H, fill(V * H, 1.2f, 0, H)},
        {"decoder.bias", V, 0, fill(V, 0.5f, 0, H)},
    };
    const char *meta[] = {"vocab", vocab_json};
    return stw_write(path, t, (int)(sizeof t / sizeof t[0]), meta, 1);
}

static int gru(const char *dir)
{
    const int H = 12, G = 3;
    char path[512];
    snprintf(path, sizeof path, "%s/frames_gru.safetensors", dir);
    rng = 0xD1B54A32D192ED03ull;
    used = 0;
    stw_tensor t[] = {
        {"gru.weight_ih_l0", G * H, V, fill(G * H * V, 1.2f, 0, H)},
        {"gru.weight_hh_l0", G * H, H, fill(G * H * H, 0.5f, 0, H)},
        {"gru.bias_ih_l0", G * H, 0, fill(G * H, 0.5f, 1.0f, H)},
        {"gru.bias_hh_l0", G * H, 0, fill(G * H, 0.5f, 0, H)},
    };
    const char *meta[] = {"vocab", vocab_json};
    return stw_write(path, t, (int)(sizeof t / sizeof t[0]), meta, 1);
}

static int bytes(const char *dir)
{
    const int H = 8, G = 4, B = 256;
    char path[512];
    snprintf(path, sizeof path, "%s/frames_bytes.safetensors", dir);
    rng = 0x2545F4914F6CDD1Dull;
    used = 0;
    stw_tensor t[] = {
        {"rnn.weight_ih_l0", G * H, B, fill(G * H * B, 0.9f, 0, H)},
        {"rnn.weight_hh_l0", G * H, H, fill(G * H * H, 0.35f, 0, H)},
        {"rnn.bias_ih_l0", G * H, 0, fill(G * H, 0.5f, 1.0f, H)},
        {"rnn.bias_hh_l0", G * H, 0, fill(G * H, 0.5f, 0, H)},
        {"fc.weight", B, H, fill(B * H, 1.0f, 0, H)},
        {"fc.bias", B, 0, fill(B, 0.5f, 0, H)},
    };
    return stw_write(path, t, (int)(sizeof t / sizeof t[0]), NULL, 0);
}

/* A plain RNN of H units and `layers` layers (G = 1: no carry gate), embedded or one-hot. */
static int rnn(const char *dir, const char *name, int layers, int embed, const char *nonlin,
               unsigned long long seed)
{
    const int H = 16, D = embed ? 6 : V;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    rng = seed;
    used = 0;
    stw_tensor t[12];
    int n = 0;
    if (embed)
        t[n++] = (stw_tensor){"encoder.weight", V, D, fill(V * D, 1.0f, 0, 0)};
    static const char *const names[2][4] = {
        {"rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0", "rnn.bias_hh_l0"},
        {"rnn.weight_ih_l1", "rnn.weight_hh_l1", "rnn.bias_ih_l1", "rnn.bias_hh_l1"}};
    for (int l = 0; l < layers; l++) {
        int in = l ? H : D;
        t[n++] = (stw_tensor){names[l][0], H, in, fill(H * in, embed ? 0.9f : 1.2f, 0, 0)};
        t[n++] = (stw_tensor){names[l][1], H, H, fill(H * H, 0.3f, 0, 0)};
        t[n++] = (stw_tensor){names[l][2], H, 0, fill(H, 0.5f, 0, 0)};
        t[n++] = (stw_tensor){names[l][3], H, 0, fill(H, 0.5f, 0, 0)};
    }
    if (embed) {
        t[n++] = (stw_tensor){"decoder.weight", V, H, fill(V * H, 1.2f, 0, 0)};
        t[n++] = (stw_tensor){"decoder.bias", V, 0, fill(V, 0.5f, 0, 0)};
    }
    const char *meta[] = {"vocab", vocab_json, "nonlinearity", nonlin};
    return stw_write(path, t, n, meta, 2);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkframes DIR\n");
        return 2;
    }
    if (lstm2(argv[1]) || gru(argv[1]) || bytes(argv[1]) ||
        rnn(argv[1], "frames_rnn2.safetensors", 2, 1, "tanh", 0x94D049BB133111EBull) ||
        rnn(argv[1], "frames_relu.safetensors", 1, 0, "relu", 0xBF58476D1CE4E5B9ull)) {
        fprintf(stderr, "mkframes: cannot write into %s\n", argv[1]);
        return 1;
    }
    return 0;
}
