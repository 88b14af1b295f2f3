/* Writing files and reading them whole (see fileio.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The milliseconds from now to the CLOCK_MONOTONIC time d (0 once it has passed). */
static int ms_until(const struct timespec *d)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(d->tv_sec - now.tv_sec) * 1e3 + (double)(d->tv_nsec - now.tv_nsec) / 1e6;
    return ms <= 0 ? 0 : ms > 1e9 ? 1000000000 : (int)ms + 1;
}

int read_by(int fd, void *buf, size_t n, const struct timespec *deadline)
{
    char *p = buf;
    while (n) {
        struct pollfd pf = {fd, POLLIN, 0};
        int wait = ms_until(deadline);
        int r = wait ? poll(&pf, 1, wait) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 1;
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

/* Reads the whole regular file fd (its status sb) into memory of the process's own: a
 * file truncated or rewritten afterwards cannot reach it (a mapping of the file would be
 * changed by a rewrite, and fault with SIGBUS past a truncation). A file whose size or
 * modification time changed while it was read is refused. */
static int read_owned(gt_map *m, int fd, const struct stat *sb, const char *path,
                      gt_error *e)
{
    size_t n = (size_t)sb->st_size, got = 0;
    unsigned char *p = malloc(n);
    if (!p)
        return gt_fail(e, GT_EFAIL, "%s: out of memory for its %zu bytes", path, n);
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int err = errno;
            free(p);
            return gt_fail(e, GT_EINPUT, "%s: cannot read: %s", path, strerror(err));
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    struct stat now;
    if (got < n || fstat(fd, &now) < 0 || now.st_size != sb->st_size ||
        now.st_mtim.tv_sec != sb->st_mtim.tv_sec || now.st_mtim.tv_nsec != sb->st_mtim.tv_nsec) {
        free(p);
        return gt_fail(e, GT_EINPUT, "%s: the file changed while it was read; try again once "
                       "it is written", path);
    }
    m->data = p;
    m->size = n;
    return GT_OK;
}

static void remember(gt_map *m, const struct stat *sb)
{
    m->dev = (unsigned long long)sb->st_dev;
    m->ino = (unsigned long long)sb->st_ino;
    m->bytes = (unsigned long long)sb->st_size;
    m->mtime_s = (long long)sb->st_mtim.tv_sec;
    m->mtime_ns = (long long)sb->st_mtim.tv_nsec;
}

int file_changed(const gt_map *m, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return 1;
    return (unsigned long long)sb.st_dev != m->dev || (unsigned long long)sb.st_ino != m->ino ||
           (unsigned long long)sb.st_size != m->bytes || (long long)sb.st_mtim.tv_sec != m->mtime_s ||
           (long long)sb.st_mtim.tv_nsec != m->mtime_ns;
}

int map_file(gt_map *m, const char *path, gt_error *e)
{
    memset(m, 0, sizeof *m);
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
    else if (sb.st_size > 0)
        rc = read_owned(m, fd, &sb, path, e);
    if (rc == GT_OK)
        remember(m, &sb);
    close(fd);
    return rc;
}

void unmap_file(gt_map *m)
{
    free((void *)m->data);
    m->data = NULL;
    m->size = 0;
}

int file_write_temp(const char *dir, const char *data, size_t n, char *tmp, size_t tn,
                    gt_error *e)
{
    snprintf(tmp, tn, "%s/.gatetui-frame-XXXXXX", dir);
    int fd = mkstemp(tmp); /* O_CREAT | O_EXCL */
    if (fd < 0)
        return gt_fail(e, GT_EFAIL, "%s: cannot create a file: %s", dir, strerror(errno));
    mode_t mask = umask(0); /* mkstemp's 0600 becomes what open(..., 0666) would have made */
    umask(mask);
    int bad = fchmod(fd, 0666 & ~mask) < 0 || write_all(fd, data, n) || fsync(fd) < 0;
    int err = errno;
    if (close(fd) < 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        unlink(tmp);
        return gt_fail(e, GT_EFAIL, "%s: write error: %s", tmp, strerror(err));
    }
    return GT_OK;
}

int file_publish(const char *tmp, const char *path, const char *data, size_t n)
{
    int rc = 0;
    if (link(tmp, path) < 0) {
        rc = errno;
        if (rc == EPERM || rc == ENOTSUP || rc == EOPNOTSUPP || rc == ENOSYS || rc == EMLINK) {
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            rc = fd < 0 ? errno : 0;
            if (fd >= 0) {
                if (write_all(fd, data, n) < 0)
                    rc = errno ? errno : EIO;
                if (close(fd) < 0 && !rc)
                    rc = errno;
                if (rc)
                    unlink(path);
            }
        }
    }
    unlink(tmp);
    return rc;
}

static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

int file_write_new(const char *path, const char *data, size_t n, gt_error *e)
{
    struct stat sb;
    if (lstat(path, &sb) == 0)
        return gt_fail(e, GT_EINPUT, "%s: the file exists; not overwritten", path);
    char dir[4096], tmp[4200];
    dir_of(path, dir, sizeof dir);
    /* a Ctrl-C meanwhile takes effect once the file is whole or gone, temporary included */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    int rc = file_write_temp(dir, data, n, tmp, sizeof tmp, e);
    if (rc == GT_OK) {
        int err = file_publish(tmp, path, data, n);
        if (err == EEXIST)
            rc = gt_fail(e, GT_EINPUT, "%s: the file exists; not overwritten", path);
        else if (err)
            rc = gt_fail(e, GT_EFAIL, "%s: cannot write: %s", path, strerror(err));
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int too_big(const char *path, gt_error *e)
{
    return gt_fail(e, GT_EINPUT,
                   "%s: more than %u MB; a text or a vocabulary file may take at most that "
                   "(a device or a pipe that never ends?)",
                   path, GT_MAX_FILE_BYTES >> 20);
}

int read_whole_file(const char *path, unsigned char **buf, size_t *n, gt_error *e)
{
    *buf = NULL;
    *n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gt_fail(e, GT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) < 0 || S_ISDIR(sb.st_mode)) {
        int err = errno;
        close(fd);
        return gt_fail(e, GT_EINPUT, "%s: %s", path,
                       S_ISDIR(sb.st_mode) ? "is a directory" : strerror(err));
    }
    if (S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > GT_MAX_FILE_BYTES) {
        close(fd);
        return too_big(path, e);
    }
    size_t cap = S_ISREG(sb.st_mode) && sb.st_size > 0 ? (size_t)sb.st_size + 1 : 65536;
    unsigned char *b = malloc(cap);
    size_t len = 0;
    int rc = b ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    while (rc == GT_OK) {
        if (len > GT_MAX_FILE_BYTES) { /* a pipe or a device that goes on */
            rc = too_big(path, e);
            break;
        }
        if (len + 1 >= cap) {
            size_t ncap = cap * 2 < GT_MAX_FILE_BYTES + 2 ? cap * 2 : GT_MAX_FILE_BYTES + 2;
            unsigned char *nb = realloc(b, ncap);
            if (!nb) {
                rc = gt_fail(e, GT_EFAIL, "%s: out of memory", path);
                break;
            }
            b = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, b + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = gt_fail(e, GT_EINPUT, "%s: read error: %s", path, strerror(errno));
        else if (r == 0)
            break;
        else
            len += (size_t)r;
    }
    close(fd);
    if (rc) {
        free(b);
        return rc;
    }
    b[len] = 0;
    *buf = b;
    *n = len;
    return GT_OK;
}
