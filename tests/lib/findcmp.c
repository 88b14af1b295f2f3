/* Compares what gatetui's --units, --select or --profile printed with --json against the
 * float64 reference (tests/ref/units_ref.py):
 *     findcmp units|select|profile WANT.json GOT.json
 * units: the same keys and counts; for each signal every unit once, its r within 1e-4 of
 *   the reference's (null where the reference has null), its means within 1e-4 (relative
 *   above 1), and the list ranked by its own |r| (largest first, ties by unit, null last).
 * select: the same span, signal, threshold, units in the same order and matches (the
 *   reference makes sure no answer hangs on a value near the threshold).
 * profile: the same ten steps on each side (in any order; the reference makes sure the ten
 *   are clear), their values within 1e-5 and contexts equal, each list ordered by
 *   gatetui's own values (ties by step); by_char (a word model's by_token): the same
 *   characters (tokens) and counts, means
 *   within 1e-5, ordered by gatetui's own means (ties by code point).
 * Prints each difference; exit status 0 when none, 1 otherwise, 2 on bad usage. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ndiff;

static void diff(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diff(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (++ndiff > 40)
        exit(1);
}

static double num(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void near(const char *what, const json_t *want, const json_t *got, double tol)
{
    if (json_is_null(want) || json_is_null(got)) {
        if (!json_is_null(want) || !json_is_null(got))
            diff("%s: want %s, got %s", what, json_is_null(want) ? "null" : "a number",
                 json_is_null(got) ? "null" : "a number");
        return;
    }
    double w = num(want), g = num(got), scale = fabs(w) > 1 ? fabs(w) : 1;
    if (!(fabs(w - g) <= tol * scale))
        diff("%s: want %.9g, got %.9g", what, w, g);
}

static void same_int(const char *what, const json_t *want, const json_t *got)
{
    if (!json_is_integer(got) || json_integer_value(got) != json_integer_value(want))
        diff("%s: want %lld, got %lld", what, (long long)json_integer_value(want),
             (long long)json_integer_value(got));
}

/* ---- units ---- */

static void units_signal(const char *sig, const json_t *want, const json_t *got)
{
    size_t n = json_array_size(want);
    if (json_array_size(got) != n) {
        diff("%s: want %zu units, got %zu", sig, n, json_array_size(got));
        return;
    }
    char *seen = calloc(n, 1);
    double prev = INFINITY;
    long prev_unit = -1;
    int prev_null = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *g = json_array_get(got, i);
        long u = (long)json_integer_value(json_object_get(g, "unit"));
        const json_t *r = json_object_get(g, "r");
        int is_null = json_is_null(r);
        double a = is_null ? 0 : fabs(num(r));
        if ((prev_null && !is_null) ||
            (!is_null && !prev_null && (a > prev || (a == prev && u < prev_unit))) ||
            (is_null && prev_null && u < prev_unit))
            diff("%s: rank %zu (unit %ld) out of order", sig, i, u);
        prev = a;
        prev_unit = u;
        prev_null = is_null;
        if (u < 0 || (size_t)u >= n || seen[u]) {
            diff("%s: unit %ld twice or out of range", sig, u);
            continue;
        }
        seen[u] = 1;
        for (size_t k = 0; k < n; k++) {
            const json_t *w = json_array_get(want, k);
            if (json_integer_value(json_object_get(w, "unit")) != u)
                continue;
            char what[64];
            snprintf(what, sizeof what, "%s unit %ld r", sig, u);
            near(what, json_object_get(w, "r"), r, 1e-4);
            snprintf(what, sizeof what, "%s unit %ld mean_inside", sig, u);
            near(what, json_object_get(w, "mean_inside"), json_object_get(g, "mean_inside"), 1e-4);
            snprintf(what, sizeof what, "%s unit %ld mean_outside", sig, u);
            near(what, json_object_get(w, "mean_outside"), json_object_get(g, "mean_outside"),
                 1e-4);
        }
    }
    free(seen);
}

static void units(const json_t *want, const json_t *got)
{
    if (!json_equal(json_object_get(want, "regex"), json_object_get(got, "regex")))
        diff("regex differs");
    same_int("layer", json_object_get(want, "layer"), json_object_get(got, "layer"));
    same_int("steps", json_object_get(want, "steps"), json_object_get(got, "steps"));
    same_int("inside", json_object_get(want, "inside"), json_object_get(got, "inside"));
    const json_t *ws = json_object_get(want, "signals"), *gs = json_object_get(got, "signals");
    if (json_object_size(ws) != json_object_size(gs))
        diff("want %zu signals, got %zu", json_object_size(ws), json_object_size(gs));
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)ws, k, v) {
        const json_t *g = json_object_get(gs, k);
        if (!g)
            diff("signal %s missing", k);
        else
            units_signal(k, v, g);
    }
}

/* ---- select ---- */

static void selection(const json_t *want, const json_t *got)
{
    static const char *const keys[] = {"span", "signal", "units", "matches"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!json_equal(json_object_get(want, keys[i]), json_object_get(got, keys[i]))) {
            char *w = json_dumps(json_object_get(want, keys[i]), JSON_COMPACT);
            char *g = json_dumps(json_object_get(got, keys[i]), JSON_COMPACT);
            diff("%s: want %.200s, got %.200s", keys[i], w ? w : "?", g ? g : "?");
            free(w);
            free(g);
        }
    near("threshold", json_object_get(want, "threshold"), json_object_get(got, "threshold"),
         1e-12);
}

/* ---- profile ---- */

static void hits(const char *side, const json_t *want, const json_t *got, int hi)
{
    size_t n = json_array_size(want);
    if (json_array_size(got) != n) {
        diff("%s: want %zu steps, got %zu", side, n, json_array_size(got));
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *g = json_array_get(got, i);
        json_int_t st = json_integer_value(json_object_get(g, "step"));
        double v = num(json_object_get(g, "value"));
        if (i > 0) {
            const json_t *p = json_array_get(got, i - 1);
            double pv = num(json_object_get(p, "value"));
            json_int_t ps = json_integer_value(json_object_get(p, "step"));
            if ((hi ? v > pv : v < pv) || (v == pv && st < ps))
                diff("%s: place %zu (step %lld) out of order", side, i, (long long)st);
        }
        const json_t *w = NULL;
        for (size_t k = 0; k < n && !w; k++)
            if (json_integer_value(json_object_get(json_array_get(want, k), "step")) == st)
                w = json_array_get(want, k);
        if (!w) {
            diff("%s: step %lld is not among the reference's", side, (long long)st);
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "%s step %lld value", side, (long long)st);
        near(what, json_object_get(w, "value"), json_object_get(g, "value"), 1e-5);
        if (!json_equal(json_object_get(w, "context"), json_object_get(g, "context")))
            diff("%s step %lld: context \"%s\", want \"%s\"", side, (long long)st,
                 json_string_value(json_object_get(g, "context")),
                 json_string_value(json_object_get(w, "context")));
    }
}

/* The mean by input: a character model's by_char (key "char", ties in code point order), a
 * word model's by_token (key "token", ties in token order, which the JSON does not give). */
static void by_input(const char *list, const char *key, const json_t *want, const json_t *got)
{
    size_t n = json_array_size(want);
    if (json_array_size(got) != n) {
        diff("%s: want %zu entries, got %zu", list, n, json_array_size(got));
        return;
    }
    const int chars = strcmp(key, "char") == 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *g = json_array_get(got, i);
        const char *ch = json_string_value(json_object_get(g, key));
        double m = num(json_object_get(g, "mean"));
        if (i > 0) {
            const json_t *p = json_array_get(got, i - 1);
            double pm = num(json_object_get(p, "mean"));
            const char *pc = json_string_value(json_object_get(p, key));
            if (m > pm || (chars && m == pm && pc && ch && strcmp(ch, pc) < 0))
                diff("%s: place %zu out of order", list, i);
        }
        const json_t *w = NULL;
        for (size_t k = 0; k < n && !w; k++)
            if (json_equal(json_object_get(json_array_get(want, k), key),
                           json_object_get(g, key)))
                w = json_array_get(want, k);
        if (!w) {
            diff("%s: \"%s\" is not among the reference's", list, ch ? ch : "?");
            continue;
        }
        char what[96];
        snprintf(what, sizeof what, "%s \"%.40s\" mean", list, ch ? ch : "?");
        near(what, json_object_get(w, "mean"), json_object_get(g, "mean"), 1e-5);
        snprintf(what, sizeof what, "%s \"%.40s\" count", list, ch ? ch : "?");
        same_int(what, json_object_get(w, "count"), json_object_get(g, "count"));
    }
}

static void profile(const json_t *want, const json_t *got)
{
    same_int("unit", json_object_get(want, "unit"), json_object_get(got, "unit"));
    if (!json_equal(json_object_get(want, "signal"), json_object_get(got, "signal")))
        diff("signal differs");
    hits("top", json_object_get(want, "top"), json_object_get(got, "top"), 1);
    hits("bottom", json_object_get(want, "bottom"), json_object_get(got, "bottom"), 0);
    const int words = json_object_get(want, "by_token") != NULL;
    const char *list = words ? "by_token" : "by_char";
    if (!json_object_get(got, list))
        diff("no %s", list);
    by_input(list, words ? "token" : "char", json_object_get(want, list),
             json_object_get(got, list));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: findcmp units|select|profile WANT.json GOT.json\n");
        return 2;
    }
    json_error_t err;
    json_t *want = json_load_file(argv[2], 0, &err);
    if (!want) {
        printf("%s: %s\n", argv[2], err.text);
        return 1;
    }
    json_t *got = json_load_file(argv[3], 0, &err);
    if (!got) {
        printf("%s: %s\n", argv[3], err.text);
        json_decref(want);
        return 1;
    }
    if (strcmp(argv[1], "units") == 0)
        units(want, got);
    else if (strcmp(argv[1], "select") == 0)
        selection(want, got);
    else if (strcmp(argv[1], "profile") == 0)
        profile(want, got);
    else {
        fprintf(stderr, "findcmp: no mode %s\n", argv[1]);
        return 2;
    }
    json_decref(want);
    json_decref(got);
    return ndiff ? 1 : 0;
}
