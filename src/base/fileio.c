/* Writing a whole buffer to a file descriptor; mapping a whole file to read. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gatetui/fileio.h"

int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int map_file(gt_map *m, const char *path, gt_error *e)
{
    m->data = NULL;
    m->size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gt_fail(e, GT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    int rc = GT_OK;
    if (fstat(fd, &sb) < 0)
        rc = gt_fail(e, GT_EINPUT, "%s: cannot stat: %s", path, strerror(errno));
    else if (S_ISDIR(sb.st_mode))
        rc = gt_fail(e, GT_EINPUT, "%s: is a directory, not a model file", path);
    else if (!S_ISREG(sb.st_mode))
        rc = gt_fail(e, GT_EINPUT, "%s: not a regular file", path);
    else if (sb.st_size > 0) {
        void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            rc = gt_fail(e, GT_EFAIL, "%s: cannot map: %s", path, strerror(errno));
        else {
            m->data = p;
            m->size = (size_t)sb.st_size;
        }
    }
    close(fd);
    return rc;
}

void unmap_file(gt_map *m)
{
    if (m->data)
        munmap((void *)m->data, m->size);
    m->data = NULL;
    m->size = 0;
}
