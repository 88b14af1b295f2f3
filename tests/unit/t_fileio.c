/* file_replace (fileio.h), the session file W writes again: through a symbolic link it
 * writes the link's file and keeps the link, also where that file is gone (written anew);
 * the file's mode is kept; a file no one may write (mode 444) is refused and left as it
 * was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gatetui/fileio.h"
#include "../lib/tap.h"

/* The file's bytes (at most n - 1) into buf. */
static const char *content(const char *path, char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        size_t got = fread(buf, 1, n - 1, f);
        buf[got] = 0;
        fclose(f);
    }
    return buf;
}

int main(void)
{
    char dir[] = "/tmp/t_fileio-XXXXXX", real[256], link_[256], ro[256], buf[64];
    if (!mkdtemp(dir)) {
        printf("Bail out! no temporary directory\n");
        return 1;
    }
    snprintf(real, sizeof real, "%s/real.json", dir);
    snprintf(link_, sizeof link_, "%s/link.json", dir);
    snprintf(ro, sizeof ro, "%s/ro.json", dir);
    gt_error e = {0};
    int rc = file_replace(real, "one\n", 4, &e);
    chmod(real, 0640);
    symlink("real.json", link_);
    rc |= file_replace(link_, "two\n", 4, &e);
    struct stat sl, sr;
    lstat(link_, &sl);
    stat(real, &sr);
    tap_ok(rc == GT_OK && S_ISLNK(sl.st_mode) && !strcmp(content(real, buf, sizeof buf), "two\n"),
           "through a link: the link's file written, the link kept (%s)", rc ? e.msg : "ok");
    tap_ok((sr.st_mode & 0777) == 0640, "the file's mode kept (%03o)", (unsigned)(sr.st_mode & 0777));
    unlink(real); /* the link's file gone: written anew, the link kept */
    rc = file_replace(link_, "three\n", 6, &e);
    lstat(link_, &sl);
    tap_ok(rc == GT_OK && S_ISLNK(sl.st_mode) && !strcmp(content(real, buf, sizeof buf), "three\n"),
           "through a link to a file gone: the file written anew, the link kept (%s)",
           rc ? e.msg : "ok");
    file_replace(ro, "old\n", 4, &e);
    chmod(ro, 0444);
    rc = file_replace(ro, "new\n", 4, &e);
    tap_ok(rc == GT_EINPUT && strstr(e.msg, "read-only") &&
               !strcmp(content(ro, buf, sizeof buf), "old\n"),
           "a file of mode 444: refused, left as it was (%s)", e.msg);
    unlink(real);
    unlink(link_);
    unlink(ro);
    rmdir(dir);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
