/* The screen's background work runs below the screen's own priority (compute/threads.h,
 * threads_background): a background job's child, the background pass's thread and the
 * derivative sheet's thread each at the screen's nice value + THREADS_BACKGROUND_NICE,
 * the screen's thread unchanged, and nothing lowered in a batch mode (before
 * threads_background_wanted); so that a key's first redraw does not wait for them
 * (doc/architecture.md, "Concurrency"). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "compute/threads.h"
#include "screen/bgjob.h"
#include "../lib/sampletrace.h"
#include "../lib/tap.h"

/* The nice value of the process's thread `tid` (its stat's 19th field), or -100. */
static int task_nice(const char *tid)
{
    char path[128], buf[1024];
    snprintf(path, sizeof path, "/proc/self/task/%s/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -100;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the name may hold spaces */
    int nice = -100, field = 2;
    for (; p && *p && field < 19; p++)
        if (*p == ' ')
            field++;
    if (p && field == 19)
        nice = atoi(p);
    return nice;
}

/* 1 when a thread other than the calling one has nice value `want`. */
static int other_thread_at(int want)
{
    char self[32];
    snprintf(self, sizeof self, "%ld", (long)syscall(SYS_gettid));
    DIR *d = opendir("/proc/self/task");
    int seen = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        if (de->d_name[0] != '.' && strcmp(de->d_name, self) && task_nice(de->d_name) == want)
            seen = 1;
    if (d)
        closedir(d);
    return seen;
}

static int nice_of_child(gt_bgjob *j, void *ctx, char *why)
{
    (void)ctx;
    (void)why;
    errno = 0;
    char out[32];
    int n = snprintf(out, sizeof out, "%d", getpriority(PRIO_PROCESS, 0));
    bgjob_write(j, out, (size_t)n);
    return 0;
}

static void pause_ms(long ms)
{
    const struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

int main(void)
{
#ifndef __linux__
    printf("1..0 # SKIP a nice value for each thread is Linux's\n");
    return 0;
#endif
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, 0);
    const int want = base + THREADS_BACKGROUND_NICE > 19 ? 19 : base + THREADS_BACKGROUND_NICE;
    if (want == base) {
        printf("1..0 # SKIP run at nice %d: nothing lower to go to\n", base);
        return 0;
    }
    /* a background job's child: in a batch mode as the process; with the screen up, lower */
    gt_bgjob j;
    bgjob_init(&j);
    for (int up = 0; up <= 1; up++) {
        if (up)
            threads_background_wanted();
        int got = -100;
        if (bgjob_start(&j, 0, nice_of_child, NULL) == 0) {
            for (int i = 0; i < 6000 && !bgjob_tick(&j); i++)
                pause_ms(5);
            if (j.result)
                got = atoi(j.result);
        }
        tap_ok(got == (up ? want : base), "%s: a background job's child at nice %d (the "
               "process's %d): %d", up ? "the screen up" : "a batch mode", up ? want : base,
               base, got);
        bgjob_cancel(&j);
    }

    gt_model m;
    gt_text t;
    gt_error e = {0};
    gt_trace *tr;
    gt_data_jac jv;
    if (sampletrace_open(&m, &t, &tr, &jv, &e)) {
        tap_ok(0, "the sample LSTM, its text, its trace: %s", e.msg);
        return tap_done();
    }
    /* the background pass's thread (43,235 steps: a few tenths of a second at least) */
    int pass_seen = 0, pass_ran = trace_pass_start(tr, t.steps, &e) == 0;
    while (pass_ran && !pass_seen && trace_pass_running(tr))
        pass_seen = other_thread_at(want);
    trace_pass_cancel(tr);
    tap_ok(pass_seen, "the background pass's thread at nice %d", want);

    /* the derivative sheet's thread: its Jacobian over 256 lags takes some milliseconds;
       looked at as soon as it has started, a few times */
    int jac_seen = 0;
    for (int r = 0; r < 20 && !jac_seen; r++) {
        data_jac_update(&jv, tr, 0, 2000 + (size_t)r, 7, 256); /* returns once it started */
        jac_seen = other_thread_at(want);
        for (int i = 0; i < 6000 && !data_jac_tick(&jv); i++)
            pause_ms(1);
    }
    tap_ok(jac_seen, "the derivative sheet's thread at nice %d", want);

    errno = 0;
    tap_ok(getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid)) == base && errno == 0,
           "the screen's own thread still at nice %d", base);
    sampletrace_close(&m, &t, tr, &jv);
    return tap_done();
}
