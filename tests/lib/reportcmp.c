/* Compares gatetui's --report --json output with a reference JSON object:
 *     reportcmp WANT.json GOT.json [RTOL]
 *     reportcmp --tol A,R WANT.json GOT.json
 * The two must have exactly the same keys and shapes. Integers (counts, sizes, k) must be
 * equal, nulls and strings too. Every other number g must be within a bound of the
 * reference w:
 *   the perturbation curves (cell, forget_only, hidden), which fall by orders of magnitude
 *   and are computed in double precision: relative, |g - w| <= RTOL * max(1e-12, |w|);
 *   the rest (gate statistics and fractions, computed from float32 gates with an absolute
 *   error, and half-lives): |g - w| <= RTOL * max(1, |w|).
 * RTOL is 1e-6 unless given: against the float64 reference on the report fixtures the
 * largest error measured is 8.8e-8 of the bound's scale (with the avx512, avx2 and plain C
 * kernels alike), and a tail value of 7.5e-7 is held to 7.5e-13.
 * A number whose reference object has a "condition" object beside it (the unit table's
 * rows, tests/ref/report_ref.py's halflife_condition) is held to RTOL * max(1, |w|, k),
 * k its condition number there: the report runs each edit's differences through float32
 * products, whose error is a share RTOL of the difference vector D(q) (the curves'
 * bound above), and a unit's part of that error is at most the same share of |D(q)|,
 * not of its own |D_j(q)|. Where a unit's difference is small beside the layer's (in
 * gru2_fb's unit 1 one part in 175 to 520) its sums carry that error hundreds of times
 * magnified, and the half-life's interpolation between two lags multiplies it again by
 * 1 / ln(S(k-1) / S(k)); k, computed from the float64 sums, is the product. A condition
 * given for an array holds for each of its numbers (the Lyapunov exponents' and half-lives',
 * tests/ref/dynamics_ref.py). Keys named "condition" are the reference's alone and are not
 * compared; so are keys named "either": an object beside others whose value for a key is
 * a list of others the output may have in the reference's place (an interval where a
 * leave-one-out half-life has a lag whose ratio lies within its error of 0.5: the half-life
 * may jump there, or be past the horizon or not).
 * With --tol, every number that is not an integer is held to |g - w| <= A + R |w| instead
 * (the Jacobian's tables, whose entries fall towards 0 along the lags).
 * Prints each difference and the largest |difference| / bound; exit status 0 when every
 * difference is within its bound. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ndiff, quiet, qdiff;
static double rtol = 1e-6, worst, tol_abs = -1, tol_rel;
static char worst_at[512];

static void diff(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diff(const char *path, const char *fmt, ...)
{
    if (quiet) {
        qdiff++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", path);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    ndiff++;
}

/* The condition number the reference gives for its key `key` (0 when none). */
static double condition(const json_t *cond, const char *key)
{
    const json_t *k = cond ? json_object_get(cond, key) : NULL;
    return k && json_is_number(k) ? json_number_value(k) : 0;
}

static void compare(const json_t *want, const json_t *got, const char *path, const char *key,
                    double cond);

/* Whether got is within the bounds of want, nothing printed or counted. */
static int matches(const json_t *want, const json_t *got, const char *path, const char *key,
                   double cond)
{
    const int was = qdiff, outer = quiet;
    quiet = 1;
    compare(want, got, path, key, cond);
    quiet = outer;
    return qdiff == was;
}

/* Keys the reference alone has: "condition" (the bounds' condition numbers) and "either" (a
 * value that may be either this or the reference's). */
static int reference_only(const char *k)
{
    return !strcmp(k, "condition") || !strcmp(k, "either");
}

static void compare(const json_t *want, const json_t *got, const char *path, const char *key,
                    double cond)
{
    char sub[512];
    if (json_is_object(want)) {
        if (!json_is_object(got)) {
            diff(path, "want an object");
            return;
        }
        const char *k;
        json_t *v, *conds = json_object_get(want, "condition");
        json_t *either = json_object_get(want, "either");
        json_object_foreach((json_t *)want, k, v) {
            if (reference_only(k))
                continue;
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            json_t *g = json_object_get(got, k), *alts = either ? json_object_get(either, k) : NULL;
            const json_t *use = v;
            double c = condition(conds, k);
            for (size_t i = 0; g && alts && i < json_array_size(alts) && !matches(use, g, sub, k, c);
                 i++)
                use = json_array_get(alts, i);
            if (!g)
                diff(sub, "missing");
            else
                compare(matches(use, g, sub, k, c) ? use : v, g, sub, k, c);
        }
        json_object_foreach((json_t *)got, k, v) {
            if (!json_object_get(want, k) || reference_only(k)) {
                snprintf(sub, sizeof sub, "%s.%s", path, k);
                diff(sub, "a key the reference does not have");
            }
        }
    } else if (json_is_array(want)) {
        if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
            diff(path, "want an array of %zu", json_array_size(want));
            return;
        }
        for (size_t i = 0; i < json_array_size(want); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            compare(json_array_get(want, i), json_array_get(got, i), sub, key, cond);
        }
    } else if (json_is_integer(want)) {
        if (!json_is_integer(got) || json_integer_value(got) != json_integer_value(want))
            diff(path, "want the integer %lld", (long long)json_integer_value(want));
    } else if (json_is_real(want)) {
        if (!json_is_number(got)) {
            diff(path, "want a number, %.9g", json_real_value(want));
            return;
        }
        double w = json_real_value(want), g = json_number_value(got);
        int curve = !strcmp(key, "cell") || !strcmp(key, "forget_only") || !strcmp(key, "hidden") ||
                    !strcmp(key, "linearized");
        double bound = tol_abs >= 0 ? tol_abs + tol_rel * fabs(w)
                                    : rtol * fmax(fmax(curve ? 1e-12 : 1, fabs(w)), cond);
        double d = fabs(w - g);
        if (!(d <= bound))
            diff(path, "got %.12g, want %.12g (difference %.3g, bound %.3g)", g, w, d, bound);
        if (!quiet && !(d / bound <= worst)) {
            worst = d / bound;
            snprintf(worst_at, sizeof worst_at, "%s", path);
        }
    } else if (json_is_null(want)) {
        if (!json_is_null(got))
            diff(path, "want null");
    } else if (json_is_string(want)) {
        if (!json_is_string(got) || strcmp(json_string_value(want), json_string_value(got)))
            diff(path, "want \"%s\"", json_string_value(want));
    } else if (!json_equal((json_t *)want, (json_t *)got)) {
        diff(path, "differs");
    }
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--tol") == 0 &&
        sscanf(argv[2], "%lf,%lf", &tol_abs, &tol_rel) == 2 && tol_abs >= 0 && tol_rel >= 0) {
        argv += 2;
        argc -= 2;
    }
    char *end = NULL;
    if (argc == 4)
        rtol = strtod(argv[3], &end);
    if (argc < 3 || argc > 4 || (end && (*end || !(rtol > 0)))) {
        fprintf(stderr, "usage: reportcmp WANT.json GOT.json [RTOL] | --tol A,R WANT.json GOT.json\n");
        return 2;
    }
    json_error_t err;
    json_t *want = json_load_file(argv[1], 0, &err), *got;
    if (!want) {
        fprintf(stderr, "reportcmp: %s: %s (line %d)\n", argv[1], err.text, err.line);
        return 2;
    }
    if (!(got = json_load_file(argv[2], 0, &err))) {
        fprintf(stderr, "reportcmp: %s: %s (line %d)\n", argv[2], err.text, err.line);
        return 1;
    }
    compare(want, got, "", "", 0);
    printf("largest |difference| / bound %.3g (%s), RTOL %g\n", worst, worst_at, rtol);
    json_decref(want);
    json_decref(got);
    return ndiff ? 1 : 0;
}
