/* Printing the probe and the components: text for people, JSON for programs (the formats
 * of doc/measures.md, "Probes and components"). */
#include "config.h"

#include <jansson.h>
#include <math.h>

#include "analysis/jsonout.h"
#include "gatetui/probe.h"
#include "gatetui/report.h"

#define TEXT_WEIGHTS 10 /* weights listed in the plain output */

static int done(FILE *f)
{
    return fflush(f) || ferror(f) ? -1 : 0;
}

static void header(FILE *f, const gt_model *m, int layer, int signal, const char *text_name,
                   size_t steps)
{
    char n[32];
    fprintf(f, "%s: %s, layer %d, %d units, signal %s;\n%s, the first %s steps from the "
               "zero state\n",
            m->path, model_kind(m), layer, model_width(m, layer), signals_name(m, signal),
            text_name, report_commas(steps, n, sizeof n));
}

static json_t *probe_json(const gt_probe *p, const char *regex)
{
    json_t *root = json_object(), *folds = json_array(), *weights = json_array();
    json_object_set_new(root, "regex", json_string(regex));
    json_object_set_new(root, "signal", json_string(signals_name(p->m, p->signal)));
    json_object_set_new(root, "auc", jsonout_num(p->auc));
    json_object_set_new(root, "auc_ci", jsonout_interval(&p->auc_ci));
    json_object_set_new(root, "accuracy", jsonout_num(p->accuracy));
    for (int k = 0; k < p->nfolds; k++) {
        const gt_probe_fold *f = &p->folds[k];
        json_array_append_new(folds, json_pack("{s:o, s:o, s:i, s:o}", "auc",
                                               jsonout_num(f->auc), "accuracy",
                                               jsonout_num(f->accuracy), "best_unit",
                                               f->best_unit, "best_unit_auc",
                                               jsonout_num(f->best_unit_auc)));
    }
    json_object_set_new(root, "folds", folds);
    for (int i = 0; i < p->nweights; i++)
        json_array_append_new(weights, json_pack("{s:i, s:o}", "unit", p->weights[i].unit,
                                                 "w", jsonout_num(p->weights[i].w)));
    json_object_set_new(root, "weights", weights);
    json_object_set_new(root, "bias", jsonout_num(p->bias));
    json_object_set_new(root, "units_for_95", p->units_for_95 < 0
                                                  ? json_null()
                                                  : json_integer(p->units_for_95));
    return root;
}

static void put_num(FILE *f, const char *fmt, double v)
{
    if (isnan(v))
        fputs("     -", f);
    else
        fprintf(f, fmt, v);
}

int probe_print(FILE *f, const gt_probe *p, const char *regex, const char *text_name,
                int json)
{
    if (json)
        return jsonout_write(f, probe_json(p, regex), 1, JSONOUT_FINDING);
    header(f, p->m, p->layer, p->signal, text_name, p->steps);
    char n[32];
    fprintf(f, "\"%s\" covers %s steps (%.1f%%); %d contiguous folds, l2 %g\n", regex,
            report_commas(p->inside, n, sizeof n), 100.0 * (double)p->inside / (double)p->steps,
            p->nfolds, p->lambda);
    fprintf(f, "\nheld out  probe AUC  accuracy  best unit  its AUC\n");
    for (int k = 0; k < p->nfolds; k++) {
        const gt_probe_fold *o = &p->folds[k];
        fprintf(f, "fold %-4d    ", k);
        put_num(f, "%6.4f", o->auc);
        fprintf(f, "    %6.4f  %9d   ", o->accuracy, o->best_unit);
        put_num(f, "%6.4f", o->best_unit_auc);
        fputc('\n', f);
    }
    fputs("mean         ", f);
    put_num(f, "%6.4f", p->auc);
    fprintf(f, "    %6.4f              ", p->accuracy);
    put_num(f, "%6.4f", p->best_unit_auc);
    char ci[64];
    int with_auc = 0; /* the folds the means are over */
    for (int k = 0; k < p->nfolds; k++)
        with_auc += !isnan(p->folds[k].auc);
    fprintf(f, "\nthe probe's mean AUC's 95%% interval %s (+- 1.96 sd / sqrt(%d)\nover the %d "
               "folds with an AUC, sd their sample deviation)\n",
            interval_text(&p->auc_ci, 0, 4, ci, sizeof ci), with_auc, with_auc);
    if (p->units_for_95 < 0)
        fputs("\nunits for 95% of the probe's AUC: -\n", f);
    else
        fprintf(f, "\nunits for 95%% of the probe's AUC: %d\n", p->units_for_95);
    int top = p->nweights < TEXT_WEIGHTS ? p->nweights : TEXT_WEIGHTS;
    fprintf(f, "the fit on every step: bias %+.4f; the %d largest |w| (standardised units)\n",
            p->bias, top);
    for (int i = 0; i < top; i++)
        fprintf(f, "  unit %4d  %+9.4f\n", p->weights[i].unit, p->weights[i].w);
    return done(f);
}

/* Component i's loadings, largest |value| first (ties: the lower unit), at most top. */
static int top_loadings(const gt_components *c, int i, int *unit, int top)
{
    const double *v = c->loading + (size_t)i * (size_t)c->H;
    int n = 0;
    for (int j = 0; j < c->H; j++) {
        int at = n < top ? n++ : top;
        if (at == top && fabs(v[j]) <= fabs(v[unit[top - 1]]))
            continue;
        if (at == top)
            at = top - 1;
        while (at > 0 && fabs(v[unit[at - 1]]) < fabs(v[j]))
            unit[at] = unit[at - 1], at--;
        unit[at] = j;
    }
    return n;
}

static json_t *components_json(const gt_components *c)
{
    json_t *root = json_object(), *list = json_array();
    json_object_set_new(root, "signal", json_string(signals_name(c->m, c->signal)));
    json_object_set_new(root, "steps", json_integer((json_int_t)c->steps));
    for (int i = 0; i < c->k; i++) {
        int unit[COMPONENTS_TOP], n = top_loadings(c, i, unit, COMPONENTS_TOP);
        json_t *ld = json_array();
        for (int a = 0; a < n; a++)
            json_array_append_new(ld, json_pack("{s:i, s:o}", "unit", unit[a], "value",
                                                jsonout_num(c->loading[(size_t)i * (size_t)c->H + (size_t)unit[a]])));
        json_array_append_new(list, json_pack("{s:o, s:o}", "explained",
                                              jsonout_num(c->explained[i]), "loadings", ld));
    }
    json_object_set_new(root, "components", list);
    return root;
}

int components_print(FILE *f, const gt_components *c, const char *text_name, int json)
{
    if (json)
        return jsonout_write(f, components_json(c), 1, JSONOUT_FINDING);
    header(f, c->m, c->layer, c->signal, text_name, c->steps);
    double sum = 0;
    for (int i = 0; i < c->k; i++) {
        int unit[COMPONENTS_TOP], n = top_loadings(c, i, unit, COMPONENTS_TOP);
        sum += c->explained[i];
        fprintf(f, "\ncomponent %d: %.2f%% of the variance (%.2f%% with those before)\n", i,
                100 * c->explained[i], 100 * sum);
        for (int a = 0; a < n; a++)
            fprintf(f, "  unit %4d  %+8.4f\n", unit[a],
                    c->loading[(size_t)i * (size_t)c->H + (size_t)unit[a]]);
    }
    return done(f);
}
