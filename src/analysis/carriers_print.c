/* Printing the carriers (carriers.h): a table of the units that carry most, or JSON built
 * with jansson. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "analysis/steptext.h"
#include "gatetui/fileio.h"
#include "gatetui/carriers.h"
#include "gatetui/utf8.h"

#define NAME 160 /* a token's name, a long word cut */

/* A share as a percentage, or "-" where there is none. */
static const char *percent(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100 * v);
    return buf;
}

/* A token in JSON: the character itself (the writer escapes a newline as "\n"), a word
 * model's word ("<eos>" itself). */
static json_t *token_json(const gt_model *m, int tok)
{
    if (m->words)
        return json_string(m->vocab_word[tok]);
    char u[4];
    int n;
    const char *t = steptext_token(m, tok, u, &n);
    return json_stringn(t, (size_t)n);
}

/* The edits made before the one measured, on a line within 80 columns: as many as fit,
 * then how many more. */
static void before_text(FILE *f, const gt_carriers *r)
{
    if (!r->nbefore)
        return;
    char line[512], more[48];
    size_t at = (size_t)snprintf(line, sizeof line, "the text with %zu edit%s before it:",
                                 r->nbefore, r->nbefore == 1 ? "" : "s");
    size_t i = 0;
    for (; i < r->nbefore; i++) {
        char a[NAME], b[NAME], step[32], item[2 * NAME + 48];
        steptext_name(r->m, r->before[i].from, STEPTEXT_UTF8, a, sizeof a);
        steptext_name(r->m, r->before[i].to, STEPTEXT_UTF8, b, sizeof b);
        const int l = snprintf(item, sizeof item, "%s %s (%s -> %s)", i ? "," : "",
                               report_commas(r->before[i].step, step, sizeof step), a, b);
        const int m = i + 1 < r->nbefore
                          ? snprintf(more, sizeof more, ", +%zu more", r->nbefore - i - 1)
                          : 0;
        if (i > 0 && at + (size_t)l + (size_t)m > 80)
            break;
        at += (size_t)snprintf(line + at, at < sizeof line ? sizeof line - at : 0, "%s", item);
    }
    if (i < r->nbefore && at < sizeof line)
        snprintf(line + at, sizeof line - at, ", +%zu more", r->nbefore - i);
    fprintf(f, "%s\n", line);
}

/* The REMOVED_TOP units whose state put back removes most of E, largest first (NaN never):
 * a unit may carry little alone and much together with the others. */
#define REMOVED_TOP 5

static void removed_text(FILE *f, const gt_carriers *r)
{
    int top[REMOVED_TOP], n = 0;
    for (int u = 0; u < r->hidden; u++) {
        if (isnan(r->removed[u]))
            continue;
        int at = n < REMOVED_TOP ? n++ : REMOVED_TOP;
        while (at > 0 && r->removed[top[at - 1]] < r->removed[u])
            at--;
        if (at < REMOVED_TOP) {
            memmove(top + at + 1, top + at, (size_t)(n - 1 - at) * sizeof *top);
            top[at] = u;
        }
    }
    if (!n)
        return;
    fprintf(f, "largest removed: unit");
    for (int i = 0; i < n; i++) {
        char p[32];
        fprintf(f, "%s %d %s", i ? "," : "", top[i], percent(p, sizeof p, r->removed[top[i]]));
    }
    fputc('\n', f);
}

int carriers_print_text(FILE *f, const gt_carriers *r, const char *interventions, int top,
                        gt_error *e)
{
    char a[NAME], b[NAME], step[32];
    const int n = top > 0 && top < r->hidden ? top : r->hidden;
    steptext_name(r->m, r->from, STEPTEXT_UTF8, a, sizeof a);
    steptext_name(r->m, r->to, STEPTEXT_UTF8, b, sizeof b);
    /* each line within 80 columns for a step of the samples' and a character's name */
    char kk[32];
    fprintf(f, "Carriers of the edit at step %s (%s -> %s): layer %d's %d units, K = %s\n",
            report_commas(r->step, step, sizeof step), a, b, r->layer, r->hidden,
            report_commas(r->horizon, kk, sizeof kk));
    before_text(f, r);
    if (interventions && *interventions)
        fprintf(f, "interventions: %s\n", interventions);
    char last[32];
    fprintf(f, "effect E = sum of KL(clean || edited) over steps %s..%s: %.6f nats\n", step,
            report_commas(r->step + r->horizon, last, sizeof last), r->effect);
    fprintf(f, "alone: the unit's edited state by itself; removed: the share of E that needs "
               "it\n\n");
    fprintf(f, "%4s  %5s  %13s  %9s  %9s\n", "rank", "unit", "alone (nats)", "alone / E",
            "removed");
    for (int i = 0; i < n; i++) {
        const int u = r->order[i];
        const double share = r->effect > 0 ? r->alone[u] / r->effect : NAN;
        fprintf(f, "%4d  %5d  %13.6f  %9s  %9s\n", i + 1, u, r->alone[u],
                percent(a, sizeof a, share), percent(b, sizeof b, r->removed[u]));
    }
    removed_text(f, r);
    if (file_flushed(f, "the carriers", e))
        return GT_EFAIL;
    return GT_OK;
}

int carriers_print_json(FILE *f, const gt_carriers *r, const char *interventions,
                        gt_error *e)
{
    json_t *root = json_object(), *units = json_array();
    json_object_set_new(root, "edit", json_pack("{s:I, s:o, s:o}", "step", (json_int_t)r->step,
                                                "from", token_json(r->m, r->from),
                                                "to", token_json(r->m, r->to)));
    if (r->nbefore) {
        json_t *before = json_array();
        for (size_t i = 0; i < r->nbefore; i++)
            json_array_append_new(before, json_pack("{s:I, s:o, s:o}", "step",
                                                    (json_int_t)r->before[i].step, "from",
                                                    token_json(r->m, r->before[i].from), "to",
                                                    token_json(r->m, r->before[i].to)));
        json_object_set_new(root, "edits_before", before);
    }
    json_object_set_new(root, "layer", json_integer(r->layer));
    json_object_set_new(root, "horizon", json_integer((json_int_t)r->horizon));
    json_object_set_new(root, "effect", jsonout_num(r->effect));
    for (int i = 0; i < r->hidden; i++) {
        const int u = r->order[i];
        const double share = r->effect > 0 ? r->alone[u] / r->effect : NAN;
        json_array_append_new(units, json_pack("{s:i, s:o, s:o, s:o}", "unit", u, "alone",
                                               jsonout_num(r->alone[u]), "alone_share",
                                               jsonout_num(share), "removed",
                                               jsonout_num(r->removed[u])));
    }
    json_object_set_new(root, "units", units);
    if (interventions && *interventions)
        json_object_set_new(root, "interventions", json_string(interventions));
    return jsonout_print(f, root, 2, JSONOUT_MEASURES, "the carriers", e);
}
