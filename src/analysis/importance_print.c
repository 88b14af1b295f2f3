/* Printing the importance (importance.h): a table, or JSON built with jansson. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "analysis/jsonout.h"
#include "gatetui/fileio.h"
#include "gatetui/importance.h"

int importance_print_text(FILE *f, const gt_importance *r, const char *interventions, int top,
                          gt_error *e)
{
    const int n = top > 0 && top < r->hidden ? top : r->hidden;
    fprintf(f, "Importance of layer %d's %d units: the loss with each ablated (%s held at 0)\n",
            r->layer, r->hidden, r->lstm ? "c, h" : "h");
    char l[48], p[48];
    fprintf(f, "over %zu window%s of %s from zero state, %s\n", r->windows,
            r->windows == 1 ? "" : "s", report_count(r->window_len, r->step_noun, l, sizeof l),
            report_count(r->loss.count, "prediction", p, sizeof p));
    if (interventions && *interventions)
        fprintf(f, "interventions: %s\n", interventions);
    fprintf(f, "loss without ablation: %.4f nats = %.4f bits per %s\n", r->loss.nats,
            loss_bits(&r->loss), r->step_noun);
    if (r->windows >= 2)
        fprintf(f, "95%% intervals: the jackknife over the %zu windows\n\n", r->windows);
    else
        fprintf(f, "no 95%% intervals: the jackknife needs two windows\n\n");
    fprintf(f, "             bits per %-36s nats\n", r->step_noun);
    fprintf(f, "rank   unit      loss  increase  95%% interval          increase\n");
    for (int i = 0; i < n; i++) {
        const int u = r->order[i];
        const double d = r->unit_loss[u] - r->loss.nats, hw = r->delta_hw[u];
        char ci[64] = "-";
        if (!isnan(hw))
            snprintf(ci, sizeof ci, "[%+.5f, %+.5f]", (d - hw) / M_LN2, (d + hw) / M_LN2);
        fprintf(f, "%4d  %5d  %8.4f  %+8.5f  %-20s  %+9.5f\n", i + 1, u,
                r->unit_loss[u] / M_LN2, d / M_LN2, ci, d);
    }
    if (file_flushed(f, "the importance", e))
        return GT_EFAIL;
    return GT_OK;
}

int importance_print_json(FILE *f, const gt_importance *r, const char *interventions,
                          gt_error *e)
{
    json_t *root = json_object(), *units = json_array();
    json_object_set_new(root, "layer", json_integer(r->layer));
    json_object_set_new(root, "windows", json_integer((json_int_t)r->windows));
    json_object_set_new(root, "window_len", json_integer((json_int_t)r->window_len));
    json_object_set_new(root, "loss",
                        json_pack("{s:f, s:f, s:I}", "nats", r->loss.nats, "bits",
                                  loss_bits(&r->loss), "count", (json_int_t)r->loss.count));
    for (int i = 0; i < r->hidden; i++) {
        const int u = r->order[i];
        const double d = r->unit_loss[u] - r->loss.nats, hw = r->delta_hw[u];
        json_array_append_new(units, json_pack("{s:i, s:f, s:f, s:[o, o]}", "unit", u, "loss",
                                               r->unit_loss[u], "delta", d, "delta_ci",
                                               jsonout_num(d - hw), jsonout_num(d + hw)));
    }
    json_object_set_new(root, "units", units);
    if (interventions && *interventions)
        json_object_set_new(root, "interventions", json_string(interventions));
    return jsonout_print(f, root, 2, JSONOUT_MEASURES, "the importance", e);
}
