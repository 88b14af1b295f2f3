/* A model built by hand whose unit 0 provably tracks "inside parentheses": its h is
 * +tanh(1) from an opening parenthesis through the closing one and -tanh(1) everywhere
 * else.
 *
 * The model (LSTM, one-hot input over "\n ()ab", H = 6):
 *   unit 1 notes a closing parenthesis: it forgets every step and writes g = +1 on ')' and
 *     -1 otherwise, so h_1 = +tanh(1) just after ')' and -tanh(1) otherwise;
 *   unit 0 writes +1 on '(' (forgetting what it held), -1 on the step after a ')' (unit 1
 *     on) unless that step is '(', and keeps its cell (f = 1, i = 0) otherwise; o = 1.
 *   Units 2-5 have small random weights. */
#include <math.h>
#include <stdlib.h>

#include "parenmodel.h"
#include "stwrite.h"

enum { V = PAREN_V, H = PAREN_H, OPEN = PAREN_OPEN, CLOSE = PAREN_CLOSE };

static unsigned long long rng = 88172645463325252ull;
float paren_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

int paren_write_model(const char *path)
{
    static float wih[4 * H * V], whh[4 * H * H], bih[4 * H], bhh[4 * H];
    const float K = 1.0f / tanhf(1.0f); /* h_1 * K = +1 after ')', -1 otherwise */
    const int I = 0, F = H, G = 2 * H, O = 3 * H;
    for (int r = 0; r < 4 * H; r++) {
        int unit = r % H;
        for (int c = 0; c < V; c++)
            wih[r * V + c] = unit >= 2 ? 0.3f * paren_rand() : 0;
        for (int c = 0; c < H; c++)
            whh[r * H + c] = unit >= 2 && c >= 2 ? 0.3f * paren_rand() : 0;
        bih[r] = unit >= 2 ? 0.3f * paren_rand() : 0;
        bhh[r] = 0;
    }
    /* unit 0: a_i = 40 [(] + 30 (h1 K + 1) - 20, a_f = 20 - 40 [(] - 30 (h1 K + 1),
     * a_g = 20 [(] - 10, a_o = 20 */
    wih[(I + 0) * V + OPEN] = 40;
    whh[(I + 0) * H + 1] = 30 * K;
    bih[I + 0] = 10;
    wih[(F + 0) * V + OPEN] = -40;
    whh[(F + 0) * H + 1] = -30 * K;
    bih[F + 0] = -10;
    wih[(G + 0) * V + OPEN] = 20;
    bih[G + 0] = -10;
    bih[O + 0] = 20;
    /* unit 1: i = 1, f = 0, g = +1 on ')' and -1 otherwise, o = 1 */
    bih[I + 1] = 20;
    bih[F + 1] = -20;
    wih[(G + 1) * V + CLOSE] = 20;
    bih[G + 1] = -10;
    bih[O + 1] = 20;
    stw_tensor t[] = {{"lstm.weight_ih_l0", 4 * H, V, wih},
                      {"lstm.weight_hh_l0", 4 * H, H, whh},
                      {"lstm.bias_ih_l0", 4 * H, 0, bih},
                      {"lstm.bias_hh_l0", 4 * H, 0, bhh}};
    const char *meta[] = {"vocab", "\\n ()ab"};
    return stw_write(path, t, 4, meta, 1);
}

/* Words of a and b, spaces, newlines and parentheticals, some back to back: "(a)(b)". */
char *paren_make_text(size_t n)
{
    char *s = malloc(n + 1);
    size_t k = 0;
    int depth = 0;
    while (k + 1 < n) {
        float r = paren_rand();
        if (depth == 0 && r > 0.8f) {
            s[k++] = '(';
            depth = 1;
        } else if (depth == 1 && r < -0.7f) {
            s[k++] = ')';
            depth = 0;
            if (k + 1 < n && paren_rand() > 0.6f) {
                s[k++] = '(';
                depth = 1;
            }
        } else if (r < -0.5f) {
            s[k++] = r < -0.9f ? '\n' : ' ';
        } else {
            s[k++] = r > 0.1f ? 'a' : 'b';
        }
    }
    s[k++] = depth ? ')' : 'a'; /* every parenthesis closed */
    s[n] = 0;
    return s;
}
