/* Writing files and reading them whole (see fileio.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gatetui/bigmem.h"
#include "gatetui/fileio.h"

int file_flushed(FILE *f, const char *what, gt_error *e)
{
    errno = 0;
    if (fflush(f) == 0 && !ferror(f))
        return GT_OK;
    /* a write failed at the flush (errno says why) or before it, where the flush tried
       what was left again */
    return file_write_failed(what, errno, e);
}

int file_write_failed(const char *what, int err, gt_error *e)
{
    return err ? gt_fail(e, GT_EFAIL, "error writing %s: %s", what, strerror(err))
               : gt_fail(e, GT_EFAIL, "error writing %s", what);
}

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

/* Opens path for reading: with regular_only, O_NONBLOCK (a FIFO without a writer would
 * block open) and anything but a regular file refused; a directory always. The descriptor,
 * and its status in sb. */
static int open_file(const char *path, int regular_only, int *fd, struct stat *sb, gt_error *e)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (regular_only ? O_NONBLOCK : 0));
    if (*fd < 0)
        return gt_fail(e, GT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    const char *why = NULL;
    if (fstat(*fd, sb) < 0)
        why = strerror(errno);
    else if (S_ISDIR(sb->st_mode))
        why = "is a directory";
    else if (regular_only && !S_ISREG(sb->st_mode))
        why = S_ISFIFO(sb->st_mode)  ? "a pipe (FIFO), not a regular file"
              : S_ISCHR(sb->st_mode) ? "a device, not a regular file"
                                     : "not a regular file";
    if (why) {
        close(*fd);
        *fd = -1;
        return gt_fail(e, GT_EINPUT, "%s: %s", path, why);
    }
    return GT_OK;
}

/* A file read into memory (fileio.h). */
struct gt_filecopy {
    const unsigned char *data; /* what filecopy_read read, or NULL */
    size_t size;
    /* the file as it was opened: which it is, its size and modification time */
    unsigned long long dev, ino, bytes;
    long long mtime_s, mtime_ns;
    int fd, is_open; /* the descriptor between filecopy_open and filecopy_read */
};

int filecopy_open(gt_filecopy **out, const char *path, gt_error *e)
{
    *out = NULL;
    gt_filecopy *m = calloc(1, sizeof *m);
    if (!m)
        return gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    struct stat sb;
    int rc = open_file(path, 1, &m->fd, &sb, e);
    if (rc) {
        free(m);
        return rc;
    }
    m->is_open = 1;
    m->dev = (unsigned long long)sb.st_dev;
    m->ino = (unsigned long long)sb.st_ino;
    m->bytes = (unsigned long long)sb.st_size;
    m->mtime_s = (long long)sb.st_mtim.tv_sec;
    m->mtime_ns = (long long)sb.st_mtim.tv_nsec;
    *out = m;
    return GT_OK;
}

unsigned long long filecopy_bytes(const gt_filecopy *m)
{
    return m->bytes;
}

const unsigned char *filecopy_data(const gt_filecopy *m, size_t *size)
{
    *size = m->size;
    return m->data;
}

int filecopy_peek(const gt_filecopy *m, unsigned long long off, void *buf, size_t n, const char *path,
             gt_error *e)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(m->fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return gt_fail(e, GT_EINPUT, "%s: %s", path,
                           r < 0 ? strerror(errno) : "the file changed while it was read; try "
                                                     "again once it is written");
        got += (size_t)r;
    }
    return GT_OK;
}

/* Reads the first n bytes into memory of the process's own: a file truncated or rewritten
 * afterwards cannot reach it (a mapping of the file would be changed by a rewrite, and fault
 * with SIGBUS past a truncation). A file whose size or modification time changed since it
 * was opened is refused. */
int filecopy_read(gt_filecopy *m, size_t n, const char *path, gt_error *e)
{
    unsigned char *p = n ? big_zalloc(n) : NULL; /* huge pages: gatetui/bigmem.h */
    int rc = n && !p ? gt_fail(e, GT_EFAIL, "%s: out of memory for its %zu bytes", path, n)
                     : filecopy_peek(m, 0, p, n, path, e);
    struct stat now;
    if (rc == GT_OK &&
        (fstat(m->fd, &now) < 0 || (unsigned long long)now.st_size != m->bytes ||
         now.st_mtim.tv_sec != m->mtime_s || now.st_mtim.tv_nsec != m->mtime_ns))
        rc = gt_fail(e, GT_EINPUT, "%s: the file changed while it was read; try again once "
                     "it is written", path);
    close(m->fd);
    m->is_open = 0;
    if (rc) {
        free(p);
        return rc;
    }
    m->data = p;
    m->size = n;
    return GT_OK;
}

int file_changed(const gt_filecopy *m, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return 1;
    return (unsigned long long)sb.st_dev != m->dev || (unsigned long long)sb.st_ino != m->ino ||
           (unsigned long long)sb.st_size != m->bytes || (long long)sb.st_mtim.tv_sec != m->mtime_s ||
           (long long)sb.st_mtim.tv_nsec != m->mtime_ns;
}

void filecopy_free(gt_filecopy *m)
{
    if (!m)
        return;
    if (m->is_open)
        close(m->fd);
    free((void *)m->data);
    free(m);
}

/* Writes data to a new temporary file in dir; its name goes to tmp. */
static int file_write_temp(const char *dir, const char *data, size_t n, char *tmp, size_t tn,
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

/* Gives the temporary file the name path unless something has it, and removes the temporary
 * name: 0, EEXIST, or another errno. Where hard links are not supported, writes path with
 * O_EXCL instead. */
static int file_publish(const char *tmp, const char *path, const char *data, size_t n)
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

int file_can_create(const char *path, gt_error *e)
{
    const size_t len = strlen(path);
    if (!len)
        return gt_fail(e, GT_EINPUT, "an empty file name");
    if (path[len - 1] == '/')
        return gt_fail(e, GT_EINPUT, "%s: a directory's name, not a file's", path);
    struct stat sb;
    if (lstat(path, &sb) == 0)
        return gt_fail(e, GT_EINPUT, "%s: the file exists; not overwritten", path);
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &sb) < 0)
        return gt_fail(e, GT_EINPUT, "%s: cannot create a file: %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return gt_fail(e, GT_EINPUT, "%s: cannot create a file: not a directory", dir);
    if (access(dir, W_OK | X_OK) < 0)
        return gt_fail(e, GT_EINPUT, "%s: cannot create a file: %s", dir, strerror(errno));
    return GT_OK;
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

/* The file a symbolic link names, into out (its target against the link's directory
 * when relative), whether or not that file exists; -1 with errno when it cannot be read. */
static int link_target(const char *path, char *out, size_t n)
{
    char t[PATH_MAX];
    ssize_t k = readlink(path, t, sizeof t - 1);
    if (k < 0)
        return -1;
    t[k] = 0;
    if (t[0] == '/') {
        snprintf(out, n, "%s", t);
    } else {
        char dir[4096];
        dir_of(path, dir, sizeof dir);
        snprintf(out, n, "%s/%s", dir, t);
    }
    return 0;
}

int file_replace(const char *path, const char *data, size_t n, gt_error *e)
{
    char real[PATH_MAX + 4200], dir[4096], tmp[4200];
    const char *to = path; /* a symbolic link's file, not the link */
    struct stat sb;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        if (!realpath(path, real) && (errno != ENOENT || link_target(path, real, sizeof real)))
            return gt_fail(e, GT_EFAIL, "%s: a link that cannot be followed: %s", path,
                           strerror(errno));
        to = real; /* (a link to a file gone: that file written anew) */
    }
    int had = stat(to, &sb) == 0;
    if (had && (!(sb.st_mode & 0222) || access(to, W_OK) != 0))
        return gt_fail(e, GT_EINPUT, "%s: the file is read-only (mode %03o); not written", path,
                       (unsigned)(sb.st_mode & 0777));
    dir_of(to, dir, sizeof dir);
    int rc = file_write_temp(dir, data, n, tmp, sizeof tmp, e);
    if (rc != GT_OK) /* (no temporary file left) */
        return rc;
    if (had && chmod(tmp, sb.st_mode & 07777) < 0) /* its mode kept */
        rc = gt_fail(e, GT_EFAIL, "%s: cannot write: %s", path, strerror(errno));
    if (rc == GT_OK && rename(tmp, to) < 0)
        rc = gt_fail(e, GT_EFAIL, "%s: cannot write: %s", path, strerror(errno));
    if (rc != GT_OK)
        unlink(tmp);
    return rc;
}

static int too_big(const char *path, gt_error *e)
{
    return gt_fail(e, GT_EINPUT,
                   "%s: more than %u MB; a text or a vocabulary file may take at most that "
                   "(a device or a pipe that never ends?)",
                   path, GT_MAX_FILE_BYTES >> 20);
}

int read_whole_file(const char *path, int regular_only, unsigned char **buf, size_t *n,
                    gt_error *e)
{
    *buf = NULL;
    *n = 0;
    int fd;
    struct stat sb;
    int rc = open_file(path, regular_only, &fd, &sb, e);
    if (rc)
        return rc;
    if (S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > GT_MAX_FILE_BYTES) {
        close(fd);
        return too_big(path, e);
    }
    size_t cap = S_ISREG(sb.st_mode) && sb.st_size > 0 ? (size_t)sb.st_size + 1 : 65536;
    unsigned char *b = malloc(cap);
    size_t len = 0;
    rc = b ? GT_OK : gt_fail(e, GT_EFAIL, "%s: out of memory", path);
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

/* dir/name + suffix into buf (name + suffix alone for "."). */
static void part_path(char *buf, size_t n, const char *dir, const char *name, const char *suffix)
{
    if (strcmp(dir, ".") == 0)
        snprintf(buf, n, "%s%s", name, suffix);
    else
        snprintf(buf, n, "%s/%s%s", dir, name, suffix);
}

/* The parts written under name: 0, EEXIST when one was taken meanwhile (those written
 * before it removed), or another errno (e filled). */
static int publish_parts(const char *dir, const char *name, const gt_filepart *part,
                         int nparts, gt_error *e)
{
    char path[4400], tmp[4200];
    for (int k = 0; k < nparts; k++) {
        if (file_write_temp(dir, part[k].data, part[k].n, tmp, sizeof tmp, e))
            return EIO;
        part_path(path, sizeof path, dir, name, part[k].suffix);
        int err = file_publish(tmp, path, part[k].data, part[k].n);
        if (err) {
            for (int j = 0; j < k; j++) { /* ours, written a moment ago */
                part_path(path, sizeof path, dir, name, part[j].suffix);
                unlink(path);
            }
            if (err != EEXIST)
                gt_fail(e, GT_EFAIL, "%s: cannot write: %s", path, strerror(err));
            return err;
        }
    }
    return 0;
}

int file_write_numbered(const char *dir, const char *base, const char *ext,
                        const gt_filepart *part, int nparts, char *out, size_t n, gt_error *e)
{
    for (int i = 1; i < 10000; i++) {
        char name[400], path[4400];
        if (i == 1)
            snprintf(name, sizeof name, "%s%s", base, ext);
        else
            snprintf(name, sizeof name, "%s-%d%s", base, i, ext);
        int taken = 0;
        for (int k = 0; k < nparts && !taken; k++) {
            part_path(path, sizeof path, dir, name, part[k].suffix);
            taken = access(path, F_OK) == 0;
        }
        if (taken)
            continue;
        int err = publish_parts(dir, name, part, nparts, e);
        if (err == 0) {
            snprintf(out, n, "%s", name);
            return GT_OK;
        }
        if (err != EEXIST)
            return e && e->code ? e->code : GT_EFAIL;
    }
    return gt_fail(e, GT_EFAIL, "no free file name for %s%s", base, ext);
}
