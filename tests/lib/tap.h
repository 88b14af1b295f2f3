/* A tiny TAP producer for the engine's test programs. */
#ifndef GATETUI_TAP_H
#define GATETUI_TAP_H

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Runs tick (a statement) every 2 ms while busy (an expression) holds, for at most
 * TAP_WAIT_SECONDS. */
#define TAP_WAIT_WHILE(busy, tick)                                                       \
    do {                                                                                 \
        double tap_from_ = tap_clock();                                                  \
        struct timespec tap_2ms_ = {0, 2000000};                                         \
        while ((busy) && tap_clock() - tap_from_ < TAP_WAIT_SECONDS) {                  \
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
