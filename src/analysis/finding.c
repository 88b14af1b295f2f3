/* The modes that find units (see finding.h): checking what they are asked, running them. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figure.h"
#include "gatetui/fileio.h"
#include "gatetui/finding.h"
#include "gatetui/pathname.h"
#include "gatetui/probe.h"
#include "gatetui/signals.h"

void find_options_init(gt_find_options *o)
{
    memset(o, 0, sizeof *o);
    o->unit = -1;
    o->component = -1;
    o->steps = -1;
    o->to = -1;
}

static const char *mode_flag(gt_find_mode mode)
{
    static const char *const flags[] = {"--units", "--select", "--profile", "--html"};
    return flags[mode];
}

int find_pick_signal(const gt_model *m, const char *name, gt_error *e)
{
    if (!name)
        return signals_h(m);
    int s = signals_parse(m, name);
    if (s < 0)
        gt_fail(e, GT_EINPUT, "--signal %s: the %s's signals are %s", name,
                m->cell->kind, signals_list(m));
    return s;
}

/* --unit (which must be given) and --signal, into *sig. */
static int pick_unit(const gt_model *m, const gt_find_options *o, int *sig, gt_error *e)
{
    if ((*sig = find_pick_signal(m, o->signal, e)) < 0)
        return e->code;
    const int H = model_width(m, o->layer);
    char who[24];
    if (o->unit < 0)
        return gt_fail(e, GT_EINPUT, "%s needs --unit J (0..%d)", mode_flag(o->mode), H - 1);
    if (o->unit >= H)
        return gt_fail(e, GT_EINPUT, "--unit %ld: %s has %d units (0..%d)", o->unit,
                       model_units_of(m, o->layer, who, sizeof who), H, H - 1);
    return GT_OK;
}

static int parse_threshold(const char *s, double *out, gt_error *e)
{
    *out = SELECT_DEFAULT_THRESHOLD;
    if (!s)
        return GT_OK;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return gt_fail(e, GT_EINPUT, "--threshold wants a number, not \"%s\"", s);
    *out = v;
    return GT_OK;
}

/* "A:B" with A <= B, both steps of the n searched (of the text's T). */
static int parse_span(const char *s, size_t n, size_t T, size_t *a, size_t *b, gt_error *e)
{
    char *end, *end2;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10), y = 0;
    int ok = isdigit((unsigned char)s[0]) && *end == ':'; /* digits only: no sign, no space */
    if (ok) {
        y = strtoull(end + 1, &end2, 10);
        ok = isdigit((unsigned char)end[1]) && !*end2 && !errno;
    }
    if (!ok)
        return gt_fail(e, GT_EINPUT, "--select wants A:B (two steps), not \"%s\"", s);
    if (x > y)
        return gt_fail(e, GT_EINPUT, "--select %s: the span ends before it starts", s);
    if (y >= T)
        return gt_fail(e, GT_EINPUT, "--select %s: outside the text (steps 0..%zu)", s, T - 1);
    if (y >= n)
        return gt_fail(e, GT_EINPUT,
                       "--select %s: past the %zu steps searched (--steps N searches more)", s,
                       n);
    *a = (size_t)x;
    *b = (size_t)y;
    return GT_OK;
}

/* GT_OK, or the error of a failed write. */
static int written(int bad, gt_error *e)
{
    return bad ? gt_fail(e, GT_EFAIL, "error writing the output: %s", strerror(errno)) : GT_OK;
}

static int run_units(FILE *out, const gt_model *m, const gt_text *t, size_t n,
                     const gt_find_options *o, const gt_pass_options *po, gt_error *e)
{
    int only = -1;
    if (o->signal && (only = find_pick_signal(m, o->signal, e)) < 0)
        return e->code;
    gt_units u;
    double seconds = o->regex_seconds > 0 ? (double)o->regex_seconds : MASK_SECONDS;
    int rc = units_compute(&u, m, t->tok, n, o->arg, seconds, po, e);
    if (rc)
        return rc;
    rc = written(find_print_units(out, &u, o->arg, only, t->path, o->json), e);
    units_free(&u);
    return rc;
}

static int run_select(FILE *out, const gt_model *m, const gt_text *t, size_t n,
                      const gt_find_options *o, const gt_pass_options *po, gt_error *e)
{
    int sig = find_pick_signal(m, o->signal, e);
    double th;
    size_t a = 0, b = 0;
    if (sig < 0)
        return e->code;
    int rc = parse_threshold(o->threshold, &th, e);
    if (rc == GT_OK)
        rc = parse_span(o->arg, n, t->steps, &a, &b, e);
    gt_selection s;
    if (rc == GT_OK)
        rc = select_compute(&s, m, t->tok, n, a, b, sig, th, po, e);
    if (rc)
        return rc;
    rc = written(find_print_selection(out, &s, t->tok, o->json), e);
    select_free(&s);
    return rc;
}

static int run_profile(FILE *out, const gt_model *m, const gt_text *t, size_t n,
                       const gt_find_options *o, const gt_pass_options *po, gt_error *e)
{
    int sig, rc = pick_unit(m, o, &sig, e);
    gt_profile p;
    if (rc == GT_OK)
        rc = profile_compute(&p, m, t->tok, n, (int)o->unit, sig, po, e);
    if (rc)
        return rc;
    rc = written(find_print_profile(out, &p, t->tok, t->steps, o->json), e);
    profile_free(&p);
    return rc;
}

/* Component J's scores over the n steps searched, into fg (fg->score: c's, freed by the
 * caller with components_free). */
static int html_component(gt_figure *fg, gt_components *c, const gt_model *m,
                          const gt_text *t, size_t n, const gt_find_options *o,
                          const gt_pass_options *po, gt_error *e)
{
    fg->signal = find_pick_signal(m, o->signal, e);
    if (fg->signal < 0)
        return e->code;
    const int H = model_width(m, o->layer);
    char who[24];
    if (o->component >= H || (size_t)o->component >= n)
        return gt_fail(e, GT_EINPUT, "--component %ld: %s has %d units (0..%d)", o->component,
                       model_units_of(m, o->layer, who, sizeof who), H, H - 1);
    if (fg->to >= n)
        return gt_fail(e, GT_EINPUT, "--to %zu: past the %zu steps searched", fg->to, n);
    gt_signal_matrix x;
    int rc = probe_matrix(&x, m, t->tok, n, fg->signal, po, e);
    if (rc)
        return rc;
    rc = components_compute(c, &x, (int)o->component + 1, e);
    free(x.x);
    if (rc)
        return rc;
    fg->component = (int)o->component;
    fg->score = c->score + (size_t)o->component * n;
    fg->scale = 0;
    for (size_t s = 0; s < n; s++)
        fg->scale = fmax(fg->scale, fabs(fg->score[s]));
    if (fg->scale == 0)
        fg->scale = 1;
    return GT_OK;
}

static int run_html(FILE *out, const gt_model *m, const gt_text *t, size_t n,
                    const gt_find_options *o, const gt_pass_options *po, gt_error *e)
{
    int sig = 0, rc = o->component >= 0 ? GT_OK : pick_unit(m, o, &sig, e);
    if (rc)
        return rc;
    size_t T = t->steps, from = (size_t)o->from, to = o->to < 0 ? n - 1 : (size_t)o->to;
    if (from >= T || to >= T)
        return gt_fail(e, GT_EINPUT, "--%s %zu: outside the text (steps 0..%zu)",
                       from >= T ? "from" : "to", from >= T ? from : to, T - 1);
    if (from > to)
        return gt_fail(e, GT_EINPUT, "--from %zu is after --to %zu", from, to);
    int to_out = strcmp(o->arg, "-") == 0; /* "-": the page on the standard output */
    rc = to_out ? GT_OK : file_can_create(o->arg, e);
    if (rc)
        return rc;
    char mname[256], tname[256]; /* the files' names (one model: its base name) */
    path_name_among(mname, sizeof mname, (const char *const *)&m->path, 1, 0);
    path_name_among(tname, sizeof tname, (const char *const *)&t->path, 1, 0);
    gt_figure fg = {m, mname, tname, o->layer, (int)o->unit, sig,
                    from, to, -1, NULL, 0, NULL};
    gt_components c = {0};
    if (o->component >= 0)
        rc = html_component(&fg, &c, m, t, n, o, po, e);
    if (rc == GT_OK)
        rc = figure_html(to_out ? NULL : o->arg, out, &fg, t->tok, T, po, e);
    int comp = o->component >= 0;
    if (rc == GT_OK && !to_out)
        rc = written(fprintf(out, "%s: %s %ld, signal %s, layer %d, steps %zu to %zu\n", o->arg,
                             comp ? "component" : "unit", comp ? o->component : o->unit,
                             signals_name(m, comp ? fg.signal : sig), o->layer, from, to) < 0 ||
                         fflush(out) != 0,
                     e);
    components_free(&c);
    return rc;
}

int find_main(FILE *out, const gt_model *m, const gt_text *t, const gt_find_options *o,
              gt_error *e)
{
    size_t n = o->steps < 0 ? SIGNALS_DEFAULT_STEPS : (size_t)o->steps;
    if (n > t->steps)
        n = t->steps;
    gt_pass_options po = {o->layer, o->threads, o->progress, o->progress_ctx};
    switch (o->mode) {
    case FIND_UNITS: return run_units(out, m, t, n, o, &po, e);
    case FIND_SELECT: return run_select(out, m, t, n, o, &po, e);
    case FIND_PROFILE: return run_profile(out, m, t, n, o, &po, e);
    case FIND_HTML: return run_html(out, m, t, n, o, &po, e);
    }
    return gt_fail(e, GT_EFAIL, "no such mode");
}
