/* Compares what gatetui's --probe or --components printed with --json against the float64
 * reference (tests/ref/make_probe_fixtures.py):
 *     probecmp WANT.json GOT.json
 * The same keys, lists of the same lengths, integers (units, best units, units_for_95,
 * steps) and strings equal, null where the reference has null; numbers within a tolerance
 * by key: auc, accuracy, best_unit_auc 1e-8; w and bias 1e-5; explained 1e-7; a loading's
 * value 1e-6 (float32 signals against float64 ones, the fits to a gradient below 1e-8);
 * auc_ci's ends 3e-8: each fold's AUC within d = 1e-8 moves the mean by d at most and the
 * sample deviation by sqrt(K / (K - 1)) d (Cauchy-Schwarz), the ends by
 * d (1 + 1.96 / sqrt(K - 1)) <= 2.96 d for K >= 2.
 * Prints each difference; exit status 0 when none, 1 otherwise, 2 on bad usage. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int ndiff;

static double tolerance(const char *key)
{
    static const struct {
        const char *key;
        double tol;
    } t[] = {{"auc", 1e-8}, {"auc_ci", 3e-8}, {"accuracy", 1e-8}, {"best_unit_auc", 1e-8}, {"w", 1e-5},
             {"bias", 1e-5}, {"explained", 1e-7}, {"value", 1e-6}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (strcmp(key, t[i].key) == 0)
            return t[i].tol;
    return 0;
}

static void differ(const char *path, const char *why)
{
    if (ndiff++ < 40)
        printf("%s: %s\n", path, why);
}

static void compare(const json_t *want, const json_t *got, const char *path, const char *key)
{
    char sub[512];
    if (json_is_object(want)) {
        const char *k;
        const json_t *v;
        if (!json_is_object(got) || json_object_size(got) != json_object_size(want))
            return differ(path, "not the same keys");
        json_object_foreach((json_t *)want, k, v) {
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            compare(v, json_object_get(got, k), sub, k);
        }
    } else if (json_is_array(want)) {
        if (!json_is_array(got) || json_array_size(got) != json_array_size(want))
            return differ(path, "not the same length");
        for (size_t i = 0; i < json_array_size(want); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            compare(json_array_get(want, i), json_array_get(got, i), sub, key);
        }
    } else if (json_is_real(want) || (json_is_number(want) && tolerance(key) > 0)) {
        double a = json_number_value(want), b = json_number_value(got);
        if (!json_is_number(got) || !(fabs(a - b) <= tolerance(key))) {
            char why[128];
            snprintf(why, sizeof why, "%.12g, not %.12g as in the reference", b, a);
            differ(path, why);
        }
    } else if (!json_equal((json_t *)want, (json_t *)got)) {
        differ(path, "differs from the reference");
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: probecmp WANT.json GOT.json\n");
        return 2;
    }
    json_error_t err;
    json_t *want = json_load_file(argv[1], 0, &err), *got = json_load_file(argv[2], 0, &err);
    if (!want || !got) {
        fprintf(stderr, "probecmp: %s\n", err.text);
        return 2;
    }
    compare(want, got, "", "");
    json_decref(want);
    json_decref(got);
    return ndiff ? 1 : 0;
}
