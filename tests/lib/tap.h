/* A tiny TAP producer for the engine's test programs. */
#ifndef GATETUI_TAP_H
#define GATETUI_TAP_H

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int tap_n, tap_failed;
static const char *tap_prefix; /* when set, "PREFIX: " starts each description */

static void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static void tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - %s%s", cond ? "ok" : "not ok", ++tap_n, tap_prefix ? tap_prefix : "",
           tap_prefix ? ": " : "");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond)
        tap_failed++;
    fflush(stdout);
}

/* ok when |got - want| <= tol; prints both otherwise. */
static void tap_near(double got, double want, double tol, const char *what)
    __attribute__((unused));
static void tap_near(double got, double want, double tol, const char *what)
{
    int ok = fabs(got - want) <= tol;
    tap_ok(ok, "%s = %.9g (want %.9g, tol %g)", what, got, want, tol);
    if (!ok)
        printf("# %s: got %.12g want %.12g diff %.3g\n", what, got, want, fabs(got - want));
}

/* Runs fn(name) in a child process, a fresh start for what a process chooses once (its
 * kernel set), with name as the prefix of its lines, numbered on from this process's. */
static void tap_child(void (*fn)(const char *), const char *name) __attribute__((unused));
static void tap_child(void (*fn)(const char *), const char *name)
{
    int fd[2], cnt[2], status = 0;
    fflush(stdout);
    if (pipe(fd) != 0) {
        tap_ok(0, "%s: pipe for the child's checks", name);
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        tap_prefix = name;
        fn(name);
        fflush(stdout);
        cnt[0] = tap_n, cnt[1] = tap_failed;
        _exit(write(fd[1], cnt, sizeof cnt) == (ssize_t)sizeof cnt ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], cnt, sizeof cnt) : -1;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (got == (ssize_t)sizeof cnt && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        tap_n = cnt[0];
        tap_failed = cnt[1];
    } else {
        tap_ok(0, "%s: the checks ran to their end (wait status %d)", name, status);
    }
}

/* How long a test waits for work in the background before it counts as not done: long
 * enough for a machine loaded by other work under valgrind; a test never waits for a time,
 * only for a condition, this being its limit. */
#define TAP_WAIT_SECONDS 600.0

/* Seconds on CLOCK_MONOTONIC. */
static double tap_clock(void) __attribute__((unused));
static double tap_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Processor seconds used by what works for this test in the background: its threads but the
 * calling one (which polls), and its descendants, ended or not (a computation in a child,
 * or in the child's child). */
static double tap_work_cpu(void) __attribute__((unused));
static double tap_work_cpu(void)
{
    struct rusage all, kids;
    struct timespec me;
    getrusage(RUSAGE_SELF, &all);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &me);
    getrusage(RUSAGE_CHILDREN, &kids);
#define TAP_TV(t) ((double)(t).tv_sec + (double)(t).tv_usec * 1e-6)
    double s = TAP_TV(all.ru_utime) + TAP_TV(all.ru_stime) - (double)me.tv_sec -
               (double)me.tv_nsec * 1e-9 + TAP_TV(kids.ru_utime) + TAP_TV(kids.ru_stime);
#undef TAP_TV
    enum { TAP_NPROC = 4096 };
    static long pid[TAP_NPROC], ppid[TAP_NPROC];
    static double cpu[TAP_NPROC];
    static char mine[TAP_NPROC];
    int n = 0;
    DIR *d = opendir("/proc"); /* every process: its parent and the time it and its ended
                                  children used */
    struct dirent *de;
    double tck = (double)sysconf(_SC_CLK_TCK);
    while (d && n < TAP_NPROC && (de = readdir(d))) {
        char path[64], buf[512];
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", de->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[got] = 0;
        char *p = strrchr(buf, ')'); /* after the name: state, ppid, ... utime (14) to cstime */
        unsigned long ut = 0, st = 0;
        long cut = 0, cst = 0;
        if (p && sscanf(p + 2, "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld",
                        &ppid[n], &ut, &st, &cut, &cst) == 5) {
            pid[n] = atol(de->d_name);
            cpu[n] = (double)(ut + st) / tck + (double)(cut + cst) / tck;
            mine[n] = ppid[n] == (long)getpid();
            n++;
        }
    }
    if (d)
        closedir(d);
    for (int more = 1; more;) { /* the children's children, and so on */
        more = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n && !mine[i]; j++)
                if (mine[j] && ppid[i] == pid[j])
                    mine[i] = more = 1;
    }
    for (int i = 0; i < n; i++)
        s += mine[i] ? cpu[i] : 0;
    return s;
}

/* Set once a wait gave up: the later waits then do not wait (their checks fail at once,
 * rather than each waiting for what will not come). */
static int tap_stalled __attribute__((unused));

/* Runs tick (a statement) every 2 ms while busy (an expression) holds. Gives up when what
 * works in the background (tap_work_cpu) has used no processor time for 30 s, whatever
 * the load (a computation that waits for ever: it has nothing left to do), or after
 * TAP_WAIT_SECONDS; says so, and the later waits do not wait. */
#define TAP_WAIT_WHILE(busy, tick)                                                       \
    do {                                                                                 \
        double tap_from_ = tap_clock(), tap_check_ = tap_from_, tap_prog_ = tap_from_;   \
        double tap_cpu_ = tap_work_cpu();                                                \
        struct timespec tap_2ms_ = {0, 2000000};                                         \
        while (!tap_stalled && (busy)) {                                                 \
            double tap_now_ = tap_clock();                                               \
            if (tap_now_ - tap_check_ >= 1.0) { /* once a second */                      \
                double tap_c_ = tap_work_cpu();                                          \
                tap_check_ = tap_now_;                                                   \
                if (tap_c_ > tap_cpu_ + 0.005) {                                         \
                    tap_cpu_ = tap_c_;                                                   \
                    tap_prog_ = tap_now_;                                                \
                }                                                                        \
                if (tap_now_ - tap_prog_ >= 30.0 ||                                      \
                    tap_now_ - tap_from_ >= TAP_WAIT_SECONDS) {                          \
                    printf("# a computation in the background did not end (%.0f s, none" \
                           " used in the last %.0f s): the later waits do not wait\n",   \
                           tap_now_ - tap_from_, tap_now_ - tap_prog_);                  \
                    tap_stalled = 1;                                                     \
                    break;                                                               \
                }                                                                        \
            }                                                                            \
            nanosleep(&tap_2ms_, NULL);                                                  \
            tick;                                                                        \
        }                                                                                \
    } while (0)

/* Sets a UTF-8 locale (the screen's glyphs); 0 when the machine has none, having said so
 * as TAP's skip of the whole program. */
static int tap_utf8_locale(void) __attribute__((unused));
static int tap_utf8_locale(void)
{
    const char *locs[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
    for (int i = 0; i < 3; i++)
        if (setlocale(LC_ALL, locs[i]))
            return 1;
    printf("1..0 # SKIP no UTF-8 locale here\n");
    return 0;
}

static int tap_done(void) __attribute__((unused));
static int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
