/* Frame render time: a scripted sequence of keys at 200x60 on a model and a text, each
 * key handled, the frame prepared, drawn and sent through curses (to /dev/null, as an
 * xterm-256color); prints the median, the 90th percentile and the worst time per key.
 * Not part of make check: tests/bench_frame.sh builds and runs it. BENCH_SLOW=MS lists the
 * keys that took longer than MS milliseconds. BENCH_SCRIPT picks the keys: "keys" (the
 * default: stepping, paging, units, sorts, layers, jumps), "derivative" (D, then 50 steps
 * right over the derivative) or "interventions" (50 of < > { } a C in turn, from the
 * middle of the text); BENCH_SIZE=COLSxROWS another size. */
#include "config.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/clock.h"
#include "screen/data_interv.h"
#include "screen/data_jac.h"
#include "screen/frame.h"
#include "screen/keys.h"
#include "term/term.h"
#include "screen/view.h"
#include "screen/sheets.h"
#include "screen/sheet_derivative.h"
#include "gatetui/trace.h"

/* The background pass over the whole text, so that afterwards every step is within one
 * interval; returns its milliseconds. */
static double whole_pass(gt_trace *tr, size_t steps)
{
    double p0 = bench_now();
    trace_pass_start(tr, steps, NULL);
    while (trace_pass_running(tr)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return (bench_now() - p0) * 1e3;
}

/* The script: stepping, paging, units, sorting, layers, jumps (or BENCH_SCRIPT's). Returns
 * its number of keys. */
static int make_script(gt_key *script, const char *which)
{
    int n = 0;
#define KEY(sym_, cp_) script[n++] = (gt_key){sym_, cp_, 0, 0, 0, 0}
    if (strcmp(which, "derivative") == 0) {
        KEY(K_CHAR, 'D');
        for (int i = 0; i < 50; i++)
            KEY(K_RIGHT, 0);
        return n;
    }
    if (strcmp(which, "interventions") == 0) {
        static const char keys[] = "<>{}aC";
        for (int i = 0; i < 50; i++)
            KEY(K_CHAR, (uint32_t)keys[i % 6]);
        return n;
    }
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < 200; i++)
            KEY(K_RIGHT, 0);
        for (int i = 0; i < 30; i++)
            KEY(K_DOWN, 0);
        KEY(K_CHAR, 's');
        for (int i = 0; i < 10; i++)
            KEY(K_PGDN, 0);
        KEY(K_CHAR, 'c');
        for (int i = 0; i < 100; i++)
            KEY(K_LEFT, 0);
        KEY(K_CHAR, ']');
        KEY(K_CHAR, 'J');
        KEY(K_END, 0);
        for (int i = 0; i < 20; i++)
            KEY(K_LEFT, 0);
        KEY(K_HOME, 0);
        KEY(K_CHAR, '[');
        KEY(K_CHAR, 'S');
        for (int i = 0; i < 20; i++)
            KEY(K_PGUP, 0);
    }
#undef KEY
    return n;
}

/* One frame of cols x rows: prepared, drawn and sent through curses. */
static void show_frame(gt_surface *s, gt_view *v, int cols, int rows)
{
    gt_error e = {0};
    view_prepare(v, cols, rows, &e);
    frame_draw(s, v);
    term_show(s);
    doupdate();
}

/* Each key of the script handled and its frame shown: the milliseconds of each in ms[];
 * then, while the view waits for what the key asked for (the states from the background
 * pass, the derivative from its thread), the main loop's ticks until it has them and their
 * frame is shown: in done[] (from the key). */
static void time_keys(gt_surface *s, gt_view *v, const gt_key *script, int n, double *ms,
                      double *done)
{
    const char *slow = getenv("BENCH_SLOW");
    show_frame(s, v, s->w, s->h);
    for (int i = 0; i < n; i++) {
        double a = bench_now();
        keys_handle(v, &script[i]);
        show_frame(s, v, s->w, s->h);
        ms[i] = (bench_now() - a) * 1e3;
        while (v->pending || data_jac_busy(&sheet_derivative_data(v)->jac)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
            if (view_tick(v))
                show_frame(s, v, s->w, s->h);
        }
        done[i] = (bench_now() - a) * 1e3;
        if (slow && ms[i] > atof(slow))
            fprintf(stderr, "key %d (sym %d %c) at step %zu: %.1f ms\n", i, script[i].sym,
                    script[i].cp ? (int)script[i].cp : 32, v->t, ms[i]);
    }
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc != 3) {
        fprintf(stderr, "usage: bench_frame MODEL TEXT\n");
        return 2;
    }
    gt_error e = {0};
    gt_model m;
    gt_text t;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e)) {
        fprintf(stderr, "bench_frame: %s\n", e.msg);
        return 2;
    }
    const char *which = getenv("BENCH_SCRIPT") ? getenv("BENCH_SCRIPT") : "keys";
    gt_trace *tr;
    gt_view v;
    gt_data_interv iv; /* as the screen has them: the model the trace and the view read */
    if (data_interv_init(&iv, &m, NULL, &t, &e) || trace_open(&tr, &iv.m, &t, NULL, &e) ||
        view_init(&v, &iv.m, &t, tr, 0, &e)) {
        fprintf(stderr, "bench_frame: %s\n", e.msg);
        return 1;
    }
    v.ivs = &iv;
    v.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    double pass_ms = whole_pass(tr, t.steps);
    if (strcmp(which, "interventions") == 0)
        view_seek(&v, t.steps / 2);

    int cols = 200, rows = 60;
    if (getenv("BENCH_SIZE") && sscanf(getenv("BENCH_SIZE"), "%dx%d", &cols, &rows) != 2) {
        fprintf(stderr, "bench_frame: BENCH_SIZE wants COLSxROWS\n");
        return 2;
    }
    char num[16];
    snprintf(num, sizeof num, "%d", cols);
    setenv("COLUMNS", num, 1);
    snprintf(num, sizeof num, "%d", rows);
    setenv("LINES", num, 1);
    FILE *null = fopen("/dev/null", "w");
    if (!null || term_start(null, "xterm-256color", 1, 0)) {
        fprintf(stderr, "bench_frame: cannot start curses on /dev/null\n");
        return 1;
    }
    gt_surface s;
    surf_init(&s, cols, rows, v.utf8);
    gt_key script[2000];
    int n = make_script(script, which);
    double *ms = malloc((size_t)n * sizeof *ms), *done = malloc((size_t)n * sizeof *done);
    time_keys(&s, &v, script, n, ms, done);
    term_stop();
    qsort(ms, (size_t)n, sizeof *ms, bench_cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += ms[i];
    printf("%s (%s, H %d, %d layer%s), %s (%zu steps), %dx%d, %s\n", m.path, model_arch_name(&m),
           m.hidden_max, m.layers, m.layers == 1 ? "" : "s", t.path, t.steps, cols, rows,
           v.utf8 ? "UTF-8" : "ASCII");
    printf("background pass: %.0f ms (checkpoint interval %zu, %zu KB)\n", pass_ms,
           trace_interval(tr), trace_checkpoint_bytes(tr) / 1024);
    printf("%s: %d keys: median %.3f ms, p90 %.3f ms, max %.3f ms, mean %.3f ms per key\n",
           which, n, ms[n / 2], ms[n * 9 / 10], ms[n - 1], sum / n);
    qsort(done, (size_t)n, sizeof *done, bench_cmp_double);
    printf("until what each asked for was shown: median %.3f ms, max %.3f ms\n",
           done[n / 2], done[n - 1]);
    free(ms);
    free(done);
    surf_free(&s);
    view_free(&v);
    trace_close(tr);
    data_interv_free(&iv);
    text_free(&t);
    model_free(&m);
    return 0;
}
