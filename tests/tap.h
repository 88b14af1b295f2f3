/* A tiny TAP producer for the engine's test programs. */
#ifndef GATETUI_TAP_H
#define GATETUI_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static void tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
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

static int tap_done(void) __attribute__((unused));
static int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
