/* The sample models read through the whole of samples/kjv-valid.txt (43,235 steps), on
 * every kernel set this processor has, against the float64 run tests/ref/make_longrun.py
 * made (tests/fixtures/longrun/NAME.ref.gz). The bound is doc/measures.md's ("Precision"):
 * every value v of the run (each gate, c and h of every unit at every step) within
 * 1e-5 * max(1, |ref|) of the float64 value ref. The fixture holds what that bound implies
 * about the run, and each is checked here:
 *   per step: the largest |c| and |h| over the units (GRU: |n| and |h|), within
 *     1e-5 * max(1, M) of M, and their sums, within 1e-5 * H * max(1, M);
 *   per unit, over all the steps: each quantity's mean, within 1e-5 times the mean of
 *     max(1, |ref|), and its largest |value|;
 *   about 2,200 single values: the largest of each quantity, those where a float32 run
 *     strays furthest from float64, and random ones, each within its own bound.
 * Each line prints the worst |difference| / bound seen: below 1 passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "../lib/tap.h"

#define RTOL 1e-5
#define MAXQ 6

typedef struct {
    int layer, unit, q;
    long step;
    double v;
} single;

typedef struct {
    char model[64], text[64], arch[8], qname[MAXQ];
    int L, H, Q, per[2]; /* per: the two quantities with per-step lines */
    long T;
    double *step;        /* [T*L][4]: max |per0|, max |per1|, sum per0, sum per1 */
    double *unit;        /* [L*Q*H][3]: mean, its bound, max |ref| */
    single *one;
    size_t none;
} fixture;

/* The worst |d| / bound of one kind of check, and where. */
typedef struct {
    double worst;
    char where[96];
} worst;

static void note(worst *w, double d, double bound, const char *fmt, long a, int b, int c)
{
    double r = d / bound;
    if (!(r <= w->worst)) { /* NaN too */
        w->worst = r != r ? INFINITY : r;
        snprintf(w->where, sizeof w->where, fmt, a, b, c);
    }
}

static double bound_of(double ref) { return RTOL * (fabs(ref) > 1 ? fabs(ref) : 1); }

static int qindex(const fixture *f, char c)
{
    const char *p = strchr(f->qname, c);
    return p && c ? (int)(p - f->qname) : -1;
}

/* Reads the fixture through gzip; 0 when complete. */
static int read_fixture(fixture *f, const char *path)
{
    char cmd[4200], line[256], qs[MAXQ][8], p0[8], p1[8];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s'", path);
    FILE *in = popen(cmd, "r");
    if (!in)
        return -1;
    memset(f, 0, sizeof *f);
    int ok = 1;
    while (ok && fgets(line, sizeof line, in) && strncmp(line, "per-step", 8)) {
        if (line[0] == '#')
            continue;
        int n = sscanf(line, "quantities %7s %7s %7s %7s %7s %7s", qs[0], qs[1], qs[2], qs[3],
                       qs[4], qs[5]);
        for (int i = 0; i < n; i++)
            f->qname[f->Q++] = qs[i][0];
        sscanf(line, "model %63s", f->model);
        sscanf(line, "text %63s", f->text);
        sscanf(line, "arch %7s", f->arch);
        sscanf(line, "layers %d", &f->L);
        sscanf(line, "hidden %d", &f->H);
        sscanf(line, "steps %ld", &f->T);
    }
    ok = sscanf(line, "per-step %7s %7s", p0, p1) == 2 && f->L > 0 && f->H > 0 && f->T > 0;
    if (ok) {
        f->per[0] = qindex(f, p0[0]);
        f->per[1] = qindex(f, p1[0]);
        f->step = malloc((size_t)f->T * f->L * 4 * sizeof *f->step);
        f->unit = malloc((size_t)f->L * f->Q * f->H * 3 * sizeof *f->unit);
        ok = f->per[0] >= 0 && f->per[1] >= 0 && f->step && f->unit;
    }
    for (long i = 0; ok && i < f->T * f->L; i++) {
        double *s = f->step + 4 * i;
        ok = fgets(line, sizeof line, in) &&
             sscanf(line, "%lf %lf %lf %lf", s, s + 1, s + 2, s + 3) == 4;
    }
    size_t n = 0;
    while (ok && fgets(line, sizeof line, in) && sscanf(line, "units %zu", &n) != 1)
        ;
    ok = ok && n == (size_t)f->L * f->Q * f->H;
    for (size_t i = 0; ok && i < n; i++) {
        int k, u;
        char q;
        double *x = f->unit + 3 * i;
        ok = fgets(line, sizeof line, in) &&
             sscanf(line, "%d %c %d %lf %lf %lf", &k, &q, &u, x, x + 1, x + 2) == 6 &&
             (size_t)((k * f->Q + qindex(f, q)) * f->H + u) == i;
    }
    while (ok && fgets(line, sizeof line, in) && sscanf(line, "values %zu", &f->none) != 1)
        ;
    f->one = ok ? malloc(f->none * sizeof *f->one) : NULL;
    ok = ok && f->one;
    for (size_t i = 0; ok && i < f->none; i++) {
        single *o = f->one + i;
        char q;
        ok = fgets(line, sizeof line, in) &&
             sscanf(line, "%ld %d %d %c %lf", &o->step, &o->layer, &o->unit, &q, &o->v) == 5 &&
             (o->q = qindex(f, q)) >= 0 && (i == 0 || o->step >= o[-1].step);
    }
    return pclose(in) == 0 && ok ? 0 : -1;
}

/* Quantity q of unit u in layer k after the last step. */
static double value(const fixture *f, const gt_run *r, int k, int q, int u)
{
    int G = r->m->gates;
    if (q < G)
        return run_gates(r, k)[(size_t)q * f->H + u];
    if (q == G && f->arch[0] == 'l')
        return run_c(r, k)[u];
    return run_h(r, k)[u];
}

/* The checks of one step's layer k against its per-step line. */
static void check_step(const fixture *f, const gt_run *r, long t, int k, worst *w)
{
    const double *s = f->step + 4 * ((size_t)t * f->L + k);
    for (int j = 0; j < 2; j++) {
        double mx = 0, sum = 0;
        for (int u = 0; u < f->H; u++) {
            double v = value(f, r, k, f->per[j], u);
            mx = fabs(v) > mx || v != v ? fabs(v) : mx;
            sum += v;
        }
        note(&w[j], fabs(mx - s[j]), bound_of(s[j]), "step %ld, layer %d", t, k, 0);
        note(&w[2], fabs(sum - s[2 + j]), f->H * bound_of(s[j]), "step %ld, layer %d, sum of %c",
             t, k, f->qname[f->per[j]]);
    }
}

/* Runs the text with the kernels selected; w: per step (2), sums, unit means, unit maxima,
 * single values. */
static int run_all(const fixture *f, const char *top, worst *w)
{
    char mp[4096], tp[4096];
    snprintf(mp, sizeof mp, "%s/samples/%s", top, f->model);
    snprintf(tp, sizeof tp, "%s/samples/%s", top, f->text);
    gt_error e = {0};
    gt_model m;
    gt_text t;
    gt_run r;
    if (model_load(&m, mp, NULL, &e) || text_load(&t, tp, &m, &e) || run_init(&r, &m, &e)) {
        printf("# %s\n", e.msg);
        return -1;
    }
    int shape = (long)t.steps == f->T && m.layers == f->L && m.hidden_max == f->H &&
                m.gates + (m.cell == &gt_cell_lstm ? 2 : 1) == f->Q;
    size_t nu = (size_t)f->L * f->Q * f->H, next = 0;
    double *sum = calloc(nu, sizeof *sum), *mx = calloc(nu, sizeof *mx);
    for (long s = 0; shape && sum && mx && s < f->T; s++) {
        run_step(&r, t.tok[s]);
        for (int k = 0; k < f->L; k++) {
            check_step(f, &r, s, k, w);
            for (int q = 0; q < f->Q; q++)
                for (int u = 0; u < f->H; u++) {
                    size_t i = ((size_t)k * f->Q + q) * f->H + u;
                    double v = value(f, &r, k, q, u);
                    sum[i] += v;
                    mx[i] = fabs(v) > mx[i] || v != v ? fabs(v) : mx[i];
                }
        }
        for (; next < f->none && f->one[next].step == s; next++) {
            const single *o = f->one + next;
            note(&w[5], fabs(value(f, &r, o->layer, o->q, o->unit) - o->v), bound_of(o->v),
                 "step %ld, layer %d, unit %d", s, o->layer, o->unit);
        }
    }
    for (size_t i = 0; shape && sum && mx && i < nu; i++) {
        const double *x = f->unit + 3 * i;
        int u = (int)(i % f->H), q = (int)(i / f->H % f->Q), k = (int)(i / f->H / f->Q);
        note(&w[3], fabs(sum[i] / f->T - x[0]), x[1], "layer %d, %c, unit %d", k, f->qname[q], u);
        note(&w[4], fabs(mx[i] - x[2]), bound_of(x[2]), "layer %d, %c, unit %d", k,
             f->qname[q], u);
    }
    int rc = shape && sum && mx && next == f->none ? 0 : -1;
    free(sum);
    free(mx);
    run_free(&r);
    text_free(&t);
    model_free(&m);
    return rc;
}

/* The model and fixture the child checks (one process per kernel set: the set is chosen once). */
static const char *cur_top, *cur_name;
static fixture *cur_f;

static void check_set(const char *set)
{
    fixture *f = cur_f;
    const char *name = cur_name;
    if (kern_init(set)) {
        tap_ok(0, "%s: kernel set %s chosen", name, set);
        return;
    }
    worst w[6] = {{0, "-"}, {0, "-"}, {0, "-"}, {0, "-"}, {0, "-"}, {0, "-"}};
    int rc = run_all(f, cur_top, w);
    tap_ok(rc == 0, "%s: %ld steps of %d units read, every single value's step reached", name,
           f->T, f->H);
    const char *what[6] = {"per step, the largest |%c|", "per step, the largest |%c|",
                           "per step, the sums of %c and %c", "per unit, each mean",
                           "per unit, each largest |value|", "%zu single values"};
    for (int j = 0; j < 6; j++) {
        char d[96];
        if (j == 5)
            snprintf(d, sizeof d, what[j], f->none);
        else
            snprintf(d, sizeof d, what[j], f->qname[f->per[j == 1]], f->qname[f->per[1]]);
        tap_ok(rc == 0 && w[j].worst < 1, "%s: %s within bound (worst %.2f of it, %s)", name, d,
               w[j].worst, w[j].where);
    }
}

/* Every kernel set this processor runs, each in a process of its own. */
static void check_model(const char *top, const char *name)
{
    char path[4096];
    fixture f;
    snprintf(path, sizeof path, "%s/tests/fixtures/longrun/%s.ref.gz", top, name);
    if (read_fixture(&f, path)) {
        tap_ok(0, "%s: the fixture %s reads", name, path);
        return;
    }
    cur_top = top, cur_name = name, cur_f = &f;
    const kern_set *sets[8];
    size_t n = kern_sets(sets, 8);
    for (size_t i = 0; i < n; i++)
        tap_child(check_set, sets[i]->name);
    free(f.step);
    free(f.unit);
    free(f.one);
}

int main(void)
{
    const char *top = getenv("top_srcdir");
    top = top ? top : ".";
    check_model(top, "kjv-lstm");
    check_model(top, "kjv-gru");
    return tap_done();
}
