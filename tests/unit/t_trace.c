/* The trace: every value it gives, at steps visited in any order, equals a straight run
 * from the start (bit for bit: the same arithmetic); its checkpoints stay within their
 * budget; edits, undo and the state before a step; the background pass, with progress and
 * cancellation, and forks while it runs (children that allocate on several threads, as the
 * screen's computations do, each ending). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "gatetui/trace.h"
#include "../lib/stwrite.h"
#include "../lib/forkchurn.h"
#include "../lib/tap.h"

/* 2 ms waits for a background pass: ten minutes, for a slow machine or an emulator */
#define PASS_WAIT 300000

static unsigned long long rng = 88172645463325252ull;
static float frand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

/* A model of L layers, H units, over vocab "abcdefgh \n", with an embedding and a readout. */
static void write_model(const char *path, int gru, int L, int H)
{
    const int V = 10, D = 4, G = gru ? 3 : 4;
    static float buf[1 << 16];
    size_t k = 0;
    stw_tensor t[32];
    int n = 0;
    static char names[32][32];
#define TENSOR(nm, r, c)                                                                       \
    do {                                                                                       \
        snprintf(names[n], sizeof names[n], "%s", nm);                                         \
        t[n] = (stw_tensor){names[n], r, c, buf + k};                                          \
        for (int i = 0; i < (r) * ((c) ? (c) : 1); i++)                                        \
            buf[k++] = frand() * 0.8f;                                                         \
        n++;                                                                                   \
    } while (0)
    TENSOR("embedding.weight", V, D);
    for (int l = 0; l < L; l++) {
        char nm[32];
        snprintf(nm, sizeof nm, "rnn.weight_ih_l%d", l);
        TENSOR(nm, G * H, l ? H : D);
        snprintf(nm, sizeof nm, "rnn.weight_hh_l%d", l);
        TENSOR(nm, G * H, H);
        snprintf(nm, sizeof nm, "rnn.bias_ih_l%d", l);
        TENSOR(nm, G * H, 0);
        snprintf(nm, sizeof nm, "rnn.bias_hh_l%d", l);
        TENSOR(nm, G * H, 0);
    }
    TENSOR("fc.weight", V, H);
    TENSOR("fc.bias", V, 0);
    const char *meta[] = {"vocab", "\\n abcdefgh"};
    stw_write(path, t, n, meta, 1);
}

static char dir[256];

/* Model m and a text of len characters; a failure is reported as one. */
static int load(gt_model *m, gt_text *t, int gru, int L, int H, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/m%d%d%d.safetensors", dir, gru, L, H);
    write_model(path, gru, L, H);
    gt_error e = {0};
    if (model_load(m, path, NULL, &e)) {
        printf("# %s\n", e.msg);
        tap_ok(0, "a model of %d layers of %d units loads", L, H);
        return -1;
    }
    char *txt = malloc(len);
    const char *alpha = "abcdefgh \n";
    for (size_t i = 0; i < len; i++)
        txt[i] = i % 97 == 50 ? 'Z' : alpha[(i * 7 + i / 13) % 10]; /* Z: skipped */
    int rc = text_from_memory(t, "text", txt, len, m, &e);
    free(txt);
    if (rc) {
        printf("# %s\n", e.msg);
        tap_ok(0, "a text of %zu characters loads", len);
        model_free(m);
    }
    return rc;
}

/* Every layer's values of a straight run over toks, step by step: [T][L][G+2][H]. */
static float *straight(const gt_model *m, const uint16_t *toks, size_t T)
{
    size_t L = (size_t)m->layers, H = (size_t)m->hidden_max, G = (size_t)m->gates;
    size_t per = L * (G + 2) * H;
    float *all = malloc(T * per * sizeof *all);
    gt_run r;
    run_init(&r, m, NULL);
    for (size_t s = 0; s < T; s++) {
        run_step(&r, toks[s]);
        for (size_t k = 0; k < L; k++) {
            float *o = all + s * per + k * (G + 2) * H;
            memcpy(o, run_gates(&r, (int)k), G * H * sizeof *o);
            memcpy(o + G * H, run_c(&r, (int)k), H * sizeof *o);
            memcpy(o + (G + 1) * H, run_h(&r, (int)k), H * sizeof *o);
        }
    }
    run_free(&r);
    return all;
}

/* Compares the trace's values at step s (all layers) with the straight run's. */
static int same_at(gt_trace *tr, const gt_model *m, const float *all, size_t s)
{
    size_t L = (size_t)m->layers, H = (size_t)m->hidden_max, G = (size_t)m->gates;
    size_t per = L * (G + 2) * H;
    size_t w = trace_window_len(tr);
    size_t a = s > w / 3 ? s - w / 3 : 0;
    if (trace_load(tr, a, s + 1, NULL))
        return 0;
    for (size_t k = 0; k < L; k++) {
        const float *o = all + s * per + k * (G + 2) * H;
        if (memcmp(trace_gates(tr, s, (int)k), o, G * H * sizeof *o) ||
            memcmp(trace_c(tr, s, (int)k), o + G * H, H * sizeof *o) ||
            memcmp(trace_h(tr, s, (int)k), o + (G + 1) * H, H * sizeof *o))
            return 0;
    }
    return 1;
}

static void test_random_access(int gru)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, gru, 2, 6, 5000))
        return;
    const char *arch = gru ? "GRU" : "LSTM";
    float *all = straight(&m, t.tok, t.steps);
    /* small budgets: many intervals, a short window */
    gt_trace_limits lim = {2000, 64 * 2 * (size_t)(m.gates + 2) * 6 * 4, 8, 0};
    gt_trace *tr;
    gt_error e = {0};
    tap_ok(trace_open(&tr, &m, &t, &lim, &e) == 0, "%s: trace opens", arch);
    tap_ok(trace_checkpoint_bytes(tr) <= 2000, "%s: checkpoints within the budget (%zu bytes, "
           "interval %zu, %zu steps)", arch, trace_checkpoint_bytes(tr), trace_interval(tr),
           t.steps);
    tap_ok(trace_window_len(tr) == 64, "%s: window of 64 steps", arch);
    int ok = 1;
    size_t order[] = {0, 1, 2, 3, 500, 499, 498, 4000, t.steps - 1, 7, 2500, 2501, 2400, 63,
                      64, 65, 3000, 100, 4999 - 40};
    for (size_t i = 0; i < sizeof order / sizeof order[0] && ok; i++)
        if (order[i] < t.steps && !same_at(tr, &m, all, order[i])) {
            printf("# differs at step %zu\n", order[i]);
            ok = 0;
        }
    for (int i = 0; i < 300 && ok; i++) {
        size_t s = (size_t)((frand() + 1) / 2 * (float)(t.steps - 1));
        if (!same_at(tr, &m, all, s)) {
            printf("# differs at step %zu\n", s);
            ok = 0;
        }
    }
    for (size_t s = 1000; s < 1300 && ok; s++) /* stepping forward, then back */
        ok = same_at(tr, &m, all, s);
    for (size_t s = 1300; s-- > 1100 && ok;)
        ok = same_at(tr, &m, all, s);
    tap_ok(ok, "%s: values at steps in any order equal a straight run's", arch);

    /* the readout */
    float *p = malloc((size_t)m.vocab * sizeof *p), *q = malloc((size_t)m.vocab * sizeof *q);
    gt_run r;
    run_init(&r, &m, NULL);
    for (size_t s = 0; s <= 777; s++)
        run_step(&r, t.tok[s]);
    run_probs(&r, q);
    trace_load(tr, 770, 778, NULL);
    trace_probs(tr, 777, p);
    tap_ok(memcmp(p, q, (size_t)m.vocab * sizeof *p) == 0, "%s: probabilities at a step",
           arch);

    /* the state before a step */
    size_t LH = (size_t)m.layers * m.hidden_max;
    float *h = malloc(LH * sizeof *h), *c = malloc(LH * sizeof *c);
    trace_state_before(tr, 778, h, c, NULL);
    tap_ok(memcmp(h, r.h, LH * sizeof *h) == 0 && memcmp(c, r.c, LH * sizeof *c) == 0,
           "%s: the state before step 778 is the state after 777", arch);
    trace_state_before(tr, 0, h, c, NULL);
    int zero = 1;
    for (size_t i = 0; i < LH; i++)
        zero &= h[i] == 0 && c[i] == 0;
    tap_ok(zero, "%s: the state before step 0 is zero", arch);

    /* edits */
    uint16_t *edited = malloc(t.steps * sizeof *edited), *loaded = malloc(t.steps * sizeof *loaded);
    memcpy(edited, t.tok, t.steps * sizeof *edited);
    memcpy(loaded, t.tok, t.steps * sizeof *loaded);
    size_t s1 = 1234, s2 = 3210;
    int tok1 = (t.tok[s1] + 3) % m.vocab, tok2 = (t.tok[s2] + 5) % m.vocab;
    trace_load(tr, 3200, 3240, NULL); /* a window over the second site, to be invalidated */
    tap_ok(trace_edit(tr, s1, tok1, &e) == 0 && trace_edit(tr, s2, tok2, &e) == 0,
           "%s: two edits", arch);
    edited[s1] = (uint16_t)tok1;
    edited[s2] = (uint16_t)tok2;
    float *eall = straight(&m, edited, t.steps);
    ok = trace_edited(tr, s1) && trace_edited(tr, s2) && !trace_edited(tr, s1 + 1) &&
         trace_token(tr, s1) == tok1 && trace_original_at(tr, s1) == loaded[s1] &&
         trace_original_at(tr, s1 + 1) == loaded[s1 + 1];
    tap_ok(ok, "%s: edited steps are marked, the original kept", arch);
    /* a second edit of the same step: the original is still the text's */
    int tok1b = (tok1 + 1) % m.vocab;
    tap_ok(trace_edit(tr, s1, tok1b, &e) == 0 && trace_original_at(tr, s1) == loaded[s1] &&
               trace_token(tr, s1) == tok1b && (tok1b == loaded[s1]) != trace_edited(tr, s1),
           "%s: edited twice, the original is the text's", arch);
    trace_undo(tr, NULL);
    ok = 1;
    size_t eorder[] = {s2 + 5, s2, s2 - 1, s1 - 1, s1, s1 + 1, 4500, 10, 2000, 3300, t.steps - 1};
    for (size_t i = 0; i < sizeof eorder / sizeof eorder[0] && ok; i++)
        if (!same_at(tr, &m, eall, eorder[i])) {
            printf("# edited run differs at step %zu\n", eorder[i]);
            ok = 0;
        }
    tap_ok(ok, "%s: values follow the edited text", arch);
    float *h2 = malloc(LH * sizeof *h2), *c2 = malloc(LH * sizeof *c2);
    trace_state_before(tr, s2, h, c, NULL);
    const size_t per = (size_t)m.layers * (m.gates + 2) * m.hidden_max;
    int same = 1;
    for (int k = 0; k < m.layers; k++) {
        const float *o = eall + (s2 - 1) * per + (size_t)k * (m.gates + 2) * m.hidden_max;
        same &= memcmp(h + (size_t)k * m.hidden_max, o + (size_t)(m.gates + 1) * m.hidden_max,
                       (size_t)m.hidden_max * sizeof *h) == 0;
    }
    tap_ok(same, "%s: the state before the second edit is the edited run's", arch);
    gt_edit ed;
    tap_ok(trace_undo(tr, &ed) == 1 && ed.step == s2 && ed.new_tok == tok2 &&
               trace_edit_count(tr) == 1 && !trace_edited(tr, s2),
           "%s: undo takes back the last edit", arch);
    trace_undo(tr, NULL);
    tap_ok(trace_undo(tr, NULL) == 0 && trace_edit_count(tr) == 0, "%s: nothing left to undo",
           arch);
    ok = same_at(tr, &m, all, s2 + 3) && same_at(tr, &m, all, s1) && same_at(tr, &m, all, t.steps - 1);
    tap_ok(ok, "%s: after undoing both, the original values", arch);
    tap_ok(trace_edit(tr, t.steps, 0, &e) == GT_EINPUT && trace_edit(tr, 0, m.vocab, &e) ==
           GT_EINPUT, "%s: an edit out of range is refused", arch);
    /* the edits are kept beside the text, whose tokens are never written */
    trace_edit(tr, s1, tok1, &e);
    trace_edit(tr, s1, tok2, &e);
    trace_edit(tr, s2, tok2, &e);
    ok = trace_token(tr, s1) == tok2 && memcmp(t.tok, loaded, t.steps * sizeof *loaded) == 0;
    trace_close(tr);
    tap_ok(ok && memcmp(t.tok, loaded, t.steps * sizeof *loaded) == 0,
           "%s: edits leave the text's tokens as loaded, with the trace open and after", arch);
    free(h);
    free(c);
    free(h2);
    free(c2);
    free(p);
    free(q);
    free(edited);
    free(loaded);
    free(eall);
    free(all);
    run_free(&r);
    text_free(&t);
    model_free(&m);
}

/* Waits until the background pass ends (the bound only stops a pass that never would). */
static void wait_pass(gt_trace *tr)
{
    struct timespec ts = {0, 2000000};
    int waited = 0;
    while (trace_pass_running(tr) && waited++ < PASS_WAIT)
        nanosleep(&ts, NULL);
}

static void test_pass(void)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, 0, 1, 64, 400000))
        return;
    gt_trace *tr;
    gt_error e = {0};
    /* the adaptive choice of one or two threads, which switches between them as it times
     * chunks of steps: the values must not depend on it */
    setenv("GATETUI_THREADS", "0", 1);
    trace_open(&tr, &m, &t, NULL, &e);
    unsetenv("GATETUI_THREADS");
    size_t end = t.steps - 1;
    tap_ok(trace_known(tr) == 0, "pass: nothing known at first");
    tap_ok(trace_pass_start(tr, t.steps, &e) == 0 && trace_pass_running(tr),
           "pass: the background pass starts");
    int moved = 0; /* the main thread keeps working near the start meanwhile */
    for (size_t s = 0; s < 200; s++) {
        trace_load(tr, s, s + 1, NULL);
        moved += trace_has(tr, s);
    }
    tap_ok(moved == 200, "pass: steps near the start load while it runs");
    double p0 = trace_pass_progress(tr);
    struct timespec ts = {0, 2000000};
    wait_pass(tr);
    tap_ok(!trace_pass_running(tr) && trace_known(tr) == t.steps,
           "pass: it ends with every checkpoint known (progress was %.2f)", p0);
    tap_ok(trace_reachable(tr, end), "pass: the end is reachable at once");
    /* compare the end with a straight run */
    gt_run r;
    run_init(&r, &m, NULL);
    for (size_t s = 0; s <= end; s++)
        run_step(&r, t.tok[s]);
    trace_load(tr, end, end + 1, NULL);
    tap_ok(memcmp(trace_h(tr, end, 0), r.h, (size_t)m.hidden_max * sizeof(float)) == 0,
           "pass: the last step equals a straight run's");
    tap_ok(trace_pass_progress(tr) == 1.0, "pass: progress 1 when done");

    /* an edit near the start invalidates; a new pass is cancelled midway */
    trace_edit(tr, 10, (t.tok[10] + 1) % m.vocab, &e);
    tap_ok(trace_known(tr) <= 10 && !trace_reachable(tr, end),
           "pass: an edit forgets the checkpoints after it");
    trace_pass_start(tr, t.steps, &e);
    nanosleep(&ts, NULL);
    trace_pass_cancel(tr);
    size_t known = trace_known(tr);
    tap_ok(!trace_pass_running(tr) && known < t.steps, "pass: cancelled at step %zu of %zu",
           known, t.steps);
    trace_pass_start(tr, t.steps, &e); /* resumes */
    wait_pass(tr);
    tap_ok(trace_known(tr) == t.steps, "pass: resumed to the end");
    run_free(&r);
    trace_close(tr);
    text_free(&t);
    model_free(&m);
}

/* Forks while the background pass runs, switching between one and two threads: each child
 * allocates on two threads and ends (before the pass was held at a fork, a lock its threads
 * held then could stay held in the child, whose allocations then waited for ever: seen under
 * AddressSanitizer); the pass goes on and ends with every checkpoint. */
static void test_fork(void)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, 0, 1, 64, 400000))
        return;
    gt_trace *tr;
    gt_error e = {0};
    setenv("GATETUI_THREADS", "0", 1);
    trace_open(&tr, &m, &t, NULL, &e);
    unsetenv("GATETUI_THREADS");
    trace_pass_start(tr, t.steps, &e);
    int forks = 0, ended = 0;
    while (trace_pass_running(tr) && forks < 200) {
        ended += forkchurn();
        forks++;
    }
    tap_ok(forks > 0 && ended == forks, "fork: %d of %d children forked while the pass ran ended",
           ended, forks);
    wait_pass(tr);
    tap_ok(trace_known(tr) == t.steps, "fork: the pass went on to the end");
    /* short passes, each forked over as it ends: a fork joins a pass that has ended (its
     * thread's end frees memory), its owner then does not join it again */
    int ok = 1;
    for (int k = 0; k < 100 && ok; k++) {
        trace_edit(tr, t.steps - 600, (uint16_t)(k % m.vocab), &e);
        trace_pass_start(tr, t.steps, &e);
        pid_t pid = fork();
        if (pid == 0)
            _exit(forkchurn_alloc(NULL) == NULL ? 0 : 3);
        int st = 0;
        ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
        wait_pass(tr);
        ok = ok && trace_known(tr) == t.steps;
    }
    tap_ok(ok, "fork: 100 short passes, a fork as each ends, each joined once, each to the end");
    trace_close(tr);
    text_free(&t);
    model_free(&m);
}

static void test_budget(void)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, 0, 2, 32, 2000000))
        return;
    gt_trace *tr;
    trace_open(&tr, &m, &t, NULL, NULL);
    tap_ok(trace_checkpoint_bytes(tr) <= TRACE_CHECKPOINT_BUDGET,
           "a 2M-step text: checkpoints %zu bytes <= 16 MB (interval %zu)",
           trace_checkpoint_bytes(tr), trace_interval(tr));
    trace_close(tr);
    text_free(&t);
    model_free(&m);
}

/* ---- the edits beside the text ---- */

/* The trace's view of the tokens against ref (as edited) and loaded (the text): at every
 * step the token, the original and the mark; the edited steps in order; ranges read. */
static int tokens_agree(const gt_trace *tr, const uint16_t *ref, const uint16_t *loaded,
                        size_t T, const char *when)
{
    for (size_t s = 0; s < T; s++)
        if (trace_token(tr, s) != ref[s] || trace_original_at(tr, s) != loaded[s] ||
            trace_edited(tr, s) != (ref[s] != loaded[s])) {
            printf("# %s: step %zu: token %d (want %d), original %d (want %d), edited %d\n",
                   when, s, trace_token(tr, s), ref[s], trace_original_at(tr, s), loaded[s],
                   trace_edited(tr, s));
            return 0;
        }
    if (trace_token(tr, T) != -1 || trace_original_at(tr, T) != -1 || trace_edited(tr, T)) {
        printf("# %s: past the end\n", when);
        return 0;
    }
    size_t s = trace_next_edited(tr, 0);
    for (size_t x = 0; x < T; x++)
        if (ref[x] != loaded[x]) {
            if (s != x || trace_next_edited(tr, x) != x) {
                printf("# %s: the next edited step is %zu, not %zu\n", when, s, x);
                return 0;
            }
            s = trace_next_edited(tr, x + 1);
        }
    if (s != T) {
        printf("# %s: an edited step %zu too many\n", when, s);
        return 0;
    }
    static uint16_t buf[8192];
    size_t ranges[][2] = {{0, T}, {0, 1}, {T - 1, 1}, {T / 2 - 7, 300}, {1, T - 2}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        memset(buf, 0xff, sizeof buf);
        trace_read(tr, ranges[i][0], ranges[i][1], buf);
        if (memcmp(buf, ref + ranges[i][0], ranges[i][1] * sizeof *buf) ||
            buf[ranges[i][1]] != 0xffff) {
            printf("# %s: steps %zu..+%zu read wrong\n", when, ranges[i][0], ranges[i][1]);
            return 0;
        }
    }
    return 1;
}

/* The trace's values at the first, the last and the edited steps (and around) against a
 * straight run of ref. */
static int values_agree(gt_trace *tr, const gt_model *m, const uint16_t *ref, size_t T)
{
    float *all = straight(m, ref, T);
    int ok = same_at(tr, m, all, 0) && same_at(tr, m, all, T - 1);
    for (size_t s = trace_next_edited(tr, 0), n = 0; ok && s < T && n < 40;
         s = trace_next_edited(tr, s + 1), n++)
        ok = same_at(tr, m, all, s) && (s + 5 >= T || same_at(tr, m, all, s + 5));
    free(all);
    return ok;
}

/* Many edits at the same and at different steps, the first and the last included, some back
 * to the text's own token; then undone one by one in reverse order. The text's tokens are
 * in read-only memory throughout: a write to them would end the test. */
static void test_overlay(int gru)
{
    gt_model m;
    gt_text t;
    if (load(&m, &t, gru, 2, 6, 3000))
        return;
    const char *arch = gru ? "GRU" : "LSTM";
    const size_t T = t.steps, bytes = T * sizeof *t.tok;
    uint16_t *own = t.tok, *loaded = malloc(bytes), *ref = malloc(bytes);
    uint16_t *ro = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ro == MAP_FAILED || !loaded || !ref) {
        tap_ok(0, "%s: memory for the overlay test", arch);
        return;
    }
    memcpy(ro, t.tok, bytes);
    mprotect(ro, bytes, PROT_READ);
    t.tok = ro;
    memcpy(loaded, ro, bytes);
    memcpy(ref, ro, bytes);
    gt_trace_limits lim = {2000, 64 * 2 * (size_t)(m.gates + 2) * 6 * 4, 8, 0};
    gt_trace *tr;
    gt_error e = {0};
    trace_open(&tr, &m, &t, &lim, &e);
    gt_edit hist[400];
    size_t nh = 0;
#define EDIT(step, tok)                                                                        \
    do {                                                                                       \
        size_t st_ = (step);                                                                   \
        int tk_ = (tok);                                                                       \
        hist[nh++] = (gt_edit){st_, ref[st_], tk_};                                            \
        ok &= trace_edit(tr, st_, tk_, &e) == GT_OK;                                           \
        ref[st_] = (uint16_t)tk_;                                                              \
    } while (0)
    int ok = tokens_agree(tr, ref, loaded, T, "no edit");
    EDIT(0, (loaded[0] + 1) % m.vocab);
    EDIT(T - 1, (loaded[T - 1] + 2) % m.vocab);
    ok &= tokens_agree(tr, ref, loaded, T, "first and last") && values_agree(tr, &m, ref, T);
    tap_ok(ok, "%s: edits at the first and the last step", arch);

    size_t mid = T / 2;
    int seq[] = {1, 2, 0, 3, 1}; /* 0: back to the text's own token */
    for (int i = 0; i < 5; i++) {
        EDIT(mid, (loaded[mid] + seq[i]) % m.vocab);
        ok &= tokens_agree(tr, ref, loaded, T, "the same step");
        if (seq[i] == 0)
            ok &= !trace_edited(tr, mid) && trace_token(tr, mid) == loaded[mid];
    }
    ok &= trace_edit_count(tr) == 7 && values_agree(tr, &m, ref, T);
    tap_ok(ok, "%s: five edits of one step, one of them back to the text's token", arch);

    for (int i = 0; i < 300; i++) {
        size_t s;
        if (i % 3 == 0 && nh) /* a step already edited */
            s = hist[(size_t)((frand() + 1) / 2 * (float)(nh - 1))].step;
        else
            s = (size_t)((frand() + 1) / 2 * (float)(T - 1));
        int tok = i % 7 == 0 ? loaded[s] : (int)((size_t)((frand() + 1) / 2 * 1e6f) % m.vocab);
        if (tok == ref[s])
            tok = (tok + 1) % m.vocab;
        EDIT(s, tok);
        if (i % 10 == 0)
            ok &= tokens_agree(tr, ref, loaded, T, "many edits");
    }
    ok &= tokens_agree(tr, ref, loaded, T, "many edits") && values_agree(tr, &m, ref, T);
    tap_ok(ok && trace_edit_count(tr) == nh, "%s: %zu edits at the same and at different steps",
           arch, nh);

    /* the background pass reads the edits too: an edit near the start forgets the
     * checkpoints after it, the pass computes them again, the last step starts from them */
    EDIT(1, (ref[1] + 1) % m.vocab);
    size_t known = trace_known(tr);
    trace_load(tr, 0, 1, &e);
    trace_pass_start(tr, T, &e);
    while (trace_pass_running(tr))
        usleep(1000);
    float *all = straight(&m, ref, T);
    ok = known <= 1 && trace_known(tr) == T && same_at(tr, &m, all, T - 1);
    /* the checkpoint after each edited step is the pass's own (a window far away) */
    size_t I = trace_interval(tr), LH = (size_t)m.layers * m.hidden_max;
    size_t per = (size_t)m.layers * (m.gates + 2) * m.hidden_max;
    float *h = malloc(LH * sizeof *h), *c = malloc(LH * sizeof *c);
    for (size_t x = trace_next_edited(tr, 0); ok && x < T; x = trace_next_edited(tr, x + 1)) {
        size_t cp = (x / I + 1) * I;
        if (cp > T || trace_state_before(tr, cp, h, c, &e))
            continue;
        for (int k = 0; k < m.layers; k++) {
            const float *o = all + (cp - 1) * per + (size_t)k * (m.gates + 2) * m.hidden_max;
            ok &= memcmp(h + (size_t)k * m.hidden_max, o + (size_t)(m.gates + 1) * m.hidden_max,
                         (size_t)m.hidden_max * sizeof *h) == 0;
        }
    }
    free(h);
    free(c);
    tap_ok(ok, "%s: the background pass runs the edited text (from step %zu)", arch, known);
    free(all);

    ok = 1;
    while (nh) {
        gt_edit ed, want = hist[--nh];
        ok &= trace_undo(tr, &ed) == 1 && ed.step == want.step && ed.old_tok == want.old_tok &&
              ed.new_tok == want.new_tok && trace_edit_count(tr) == nh;
        ref[want.step] = (uint16_t)want.old_tok;
        if (nh % 25 == 0 || nh < 8)
            ok &= tokens_agree(tr, ref, loaded, T, "undo");
        if (nh == 150 || nh == 6)
            ok &= values_agree(tr, &m, ref, T);
    }
#undef EDIT
    tap_ok(ok, "%s: undo takes the edits back newest first, each as it was made", arch);
    ok = trace_undo(tr, NULL) == 0 && trace_next_edited(tr, 0) == T &&
         memcmp(ref, loaded, bytes) == 0 && tokens_agree(tr, ref, loaded, T, "all undone");
    all = straight(&m, loaded, T);
    ok &= same_at(tr, &m, all, 0) && same_at(tr, &m, all, mid) && same_at(tr, &m, all, T - 1);
    free(all);
    trace_close(tr);
    tap_ok(ok && memcmp(ro, loaded, bytes) == 0,
           "%s: all undone, the text as loaded; its tokens were never written", arch);
    t.tok = own;
    munmap(ro, bytes);
    free(loaded);
    free(ref);
    text_free(&t);
    model_free(&m);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/t_trace.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_random_access(0);
    test_random_access(1);
    test_overlay(0);
    test_overlay(1);
    test_pass();
    test_fork();
    test_budget();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return tap_done();
}
