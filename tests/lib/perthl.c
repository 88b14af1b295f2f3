/* The perturbation panel's numbers for a series of edits, computed straight from the
 * engine (a plain float32 run to the edited step, then perturb_one), without the trace or
 * the screen:
 *     perthl MODEL TEXT LAYER K S1:C1 [S2:C2 ...]
 * prints, for the last edit against the text with the earlier ones applied, one line:
 *     hl_c hl_fo hl_h ratio K hl_lin
 * half-lives with one decimal (">K" when the curve stays above half; hl_lin the linearized
 * curve's), the ratio
 * measured / forget-only at the last k as the panel prints it (two decimals below 100, none
 * below 100000, three significant digits above). With PERTHL_CURVES set, then one line
 * per k: k, the measured curve, forget-only and h, each over its value at k = 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/kernset.h"
#include "gatetui/perturb.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "gatetui/utf8.h"

static void hl(char *buf, size_t n, double v, int K)
{
    if (v == PERTURB_NONE)
        snprintf(buf, n, ">%d", K);
    else
        snprintf(buf, n, "%.1f", v);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: perthl MODEL TEXT LAYER K S:C...\n");
        return 2;
    }
    gt_error e = {0};
    if (kernset_choose(getenv("GATETUI_KERNEL"), &e)) { /* avx512, avx2 or c; else the best */
        fprintf(stderr, "perthl: GATETUI_KERNEL: %s\n", e.msg);
        return 2;
    }
    gt_model m;
    gt_text t;
    if (model_load(&m, argv[1], NULL, &e) || text_load(&t, argv[2], &m, &e)) {
        fprintf(stderr, "perthl: %s\n", e.msg);
        return 2;
    }
    int layer = atoi(argv[3]), K = atoi(argv[4]);
    uint16_t *tok = malloc(t.steps * sizeof *tok), *before = malloc(t.steps * sizeof *tok);
    memcpy(tok, t.tok, t.steps * sizeof *tok);
    size_t s = 0;
    for (int a = 5; a < argc; a++) {
        char *colon = strchr(argv[a], ':');
        uint32_t cp;
        if (!colon || utf8_decode((const unsigned char *)colon + 1, strlen(colon + 1), &cp) < 1 ||
            model_token(&m, cp) < 0) {
            fprintf(stderr, "perthl: bad edit %s\n", argv[a]);
            return 2;
        }
        s = strtoul(argv[a], NULL, 10);
        memcpy(before, tok, t.steps * sizeof *tok);
        tok[s] = (uint16_t)model_token(&m, cp);
    }
    gt_run r;
    run_init(&r, &m, &e);
    for (size_t i = 0; i < s; i++)
        run_step(&r, tok[i]);
    gt_perturb p;
    if (perturb_init(&p, &m, layer, K, 1, &e)) {
        fprintf(stderr, "perthl: %s\n", e.msg);
        return 2;
    }
    size_t n = t.steps - s < (size_t)K + 1 ? t.steps - s : (size_t)K + 1;
    const gt_perturb_result *res = perturb_one(&p, r.h, r.c, before + s, tok + s, n);
    char a[32], b[32], c[32], l[32];
    hl(l, sizeof l, res->hl_lin, res->K);
    hl(a, sizeof a, res->hl_c, res->K);
    hl(b, sizeof b, res->hl_fo, res->K);
    hl(c, sizeof c, res->hl_h, res->K);
    const double *meas = res->dc ? res->dc : res->dh;
    int k_at;
    double ratio = perturb_ratio(meas, res->fo, res->K, &k_at);
    char rs[32];
    if (isnan(ratio))
        snprintf(rs, sizeof rs, "-");
    else
        snprintf(rs, sizeof rs, ratio >= 99999.5 ? "%.3g" : ratio >= 99.95 ? "%.0f" : "%.2f", ratio);
    printf("%s %s %s %s %d %s\n", res->dc ? a : "-", b, c, rs, k_at < 0 ? res->K : k_at, l);
    if (getenv("PERTHL_CURVES")) /* then k, measured (c, or h for a GRU), F, h over k = 0 */
        for (int k = 0; k <= res->K; k++)
            printf("%d %.6g %.6g %.6g\n", k, meas[k] / meas[0], res->fo[k] / res->fo[0],
                   res->dh[k] / res->dh[0]);
    perturb_free(&p);
    run_free(&r);
    free(tok);
    free(before);
    text_free(&t);
    model_free(&m);
    return 0;
}
