/* SHA-256 as FIPS 180-4 defines it (see sha256.h): the message in blocks of 64 bytes, each
 * expanded to 64 words and mixed into the eight words of the state by 64 rounds. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gatetui/sha256.h"

typedef struct gt_sha256 {
    uint32_t h[8];
    uint64_t bytes;          /* the message's length so far */
    unsigned char buf[64];   /* its last block, not yet taken */
    size_t nbuf;
} gt_sha256;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        const uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                            K[i] + w[i];
        const uint32_t t2 =
            (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

static void sha256_init(gt_sha256 *c)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, h0, sizeof h0);
    c->bytes = 0;
    c->nbuf = 0;
}

static void sha256_update(gt_sha256 *c, const void *data, size_t n)
{
    const unsigned char *p = data;
    c->bytes += n;
    if (c->nbuf) {
        size_t take = 64 - c->nbuf < n ? 64 - c->nbuf : n;
        memcpy(c->buf + c->nbuf, p, take);
        c->nbuf += take;
        p += take;
        n -= take;
        if (c->nbuf < 64)
            return;
        block(c->h, c->buf);
        c->nbuf = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        block(c->h, p);
    memcpy(c->buf, p, n);
    c->nbuf = n;
}

static void sha256_hex(gt_sha256 *c, char hex[SHA256_HEX])
{
    const uint64_t bits = c->bytes * 8;
    unsigned char pad[72] = {0x80};
    const size_t npad = (c->nbuf < 56 ? 56 : 120) - c->nbuf;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, pad, npad + 8);
    static const char digit[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        const unsigned v = c->h[i / 4] >> (24 - 8 * (i % 4)) & 0xff;
        hex[2 * i] = digit[v >> 4];
        hex[2 * i + 1] = digit[v & 15];
    }
    hex[64] = 0;
}

void sha256_of(const void *data, size_t n, char hex[SHA256_HEX])
{
    gt_sha256 c;
    sha256_init(&c);
    sha256_update(&c, data, n);
    sha256_hex(&c, hex);
}

int sha256_file(const char *path, char hex[SHA256_HEX], unsigned long long *size, gt_error *e)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return gt_fail(e, GT_EINPUT, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return gt_fail(e, GT_EINPUT, "%s: not a regular file", path);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return gt_fail(e, GT_EINPUT, "%s: %s", path, strerror(errno));
    gt_sha256 c;
    sha256_init(&c);
    unsigned char buf[1 << 16];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            const int err = errno;
            close(fd);
            return gt_fail(e, GT_EINPUT, "%s: %s", path, strerror(err));
        }
        sha256_update(&c, buf, (size_t)got);
    }
    close(fd);
    *size = c.bytes;
    sha256_hex(&c, hex);
    return GT_OK;
}
