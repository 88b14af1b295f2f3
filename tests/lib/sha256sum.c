/* sha256sum's output made by gatetui's SHA-256 (gatetui/sha256.h): for each file, its digest
 * read in pieces (sha256_file) and, the same file read whole, of its bytes in memory
 * (sha256_of); "HEX  PATH" when both agree, else both and exit status 1. tests/cli/sha256.sh
 * holds it to coreutils' sha256sum. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/fileio.h"
#include "gatetui/sha256.h"

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        char a[SHA256_HEX], b[SHA256_HEX];
        unsigned long long size;
        unsigned char *buf;
        size_t n;
        gt_error e = {0};
        if (sha256_file(argv[i], a, &size, &e) || read_whole_file(argv[i], 1, &buf, &n, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 2;
        }
        sha256_of(buf, n, b);
        free(buf);
        if (strcmp(a, b) != 0 || size != n) {
            printf("%s %s  %s (%llu, %zu bytes)\n", a, b, argv[i], size, n);
            bad = 1;
        } else {
            printf("%s  %s\n", a, argv[i]);
        }
    }
    return bad;
}
