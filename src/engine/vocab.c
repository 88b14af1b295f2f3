/* A vocabulary built from a text: the sorted set of its distinct code points. */
#include "config.h"

#include <stdlib.h>

#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/utf8.h"


int vocab_from_file(const char *path, uint32_t **out, int *n, gt_error *e)
{
    unsigned char *buf;
    size_t len;
    int rc = read_whole_file(path, &buf, &len, e);
    if (rc)
        return rc;
    /* a bitmap of the code points seen: 0x110000 bits */
    uint8_t *seen = calloc(0x110000 / 8, 1);
    if (!seen) {
        free(buf);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    int count = 0;
    for (size_t off = 0; off < len;) {
        uint32_t cp;
        off += (size_t)utf8_decode(buf + off, len - off, &cp);
        if (cp == UTF8_INVALID || (seen[cp >> 3] & (1u << (cp & 7))))
            continue;
        seen[cp >> 3] |= (uint8_t)(1u << (cp & 7));
        count++;
    }
    free(buf);
    if (count == 0 || count > GT_MAX_VOCAB) {
        free(seen);
        return gt_fail(e, GT_EINPUT, "%s: %d distinct characters cannot make a vocabulary", path,
                       count);
    }
    uint32_t *cp = malloc((size_t)count * sizeof *cp);
    if (!cp) {
        free(seen);
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    int k = 0;
    for (uint32_t c = 0; c < 0x110000; c++)
        if (seen[c >> 3] & (1u << (c & 7)))
            cp[k++] = c;
    free(seen);
    *out = cp;
    *n = count;
    return GT_OK;
}
