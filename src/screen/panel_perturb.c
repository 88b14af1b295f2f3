/* The perturbation panel (doc/measures.md, "Perturbation"): the last edit, the half-lives and the ratio
 * measured / forget-only at the last k; the curves, each over its value at k = 0, on a log
 * scale against k = 0..K, measured c (an LSTM's), forget-only F, measured h and the
 * linearized L (the edit's first difference carried by the exact tangent map) overlaid;
 * and the units that carry the edit furthest. For a GRU, h against the update gate alone;
 * a plain RNN has no carry gate, so no forget-only curve (the panel says so). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "screen/panel_perturb.h"
#include "screen/panel_frame.h"
#include "screen/draw_logplot.h"
#include "screen/draw_plot.h"

/* Other models' measured curves drawn at most (named 1-9 by their place on the command
 * line). */
#define PEER_MAX 9

static void fmt_hl(char *buf, size_t n, double hl, int K)
{
    if (hl == PERTURB_NONE || !(hl >= 0))
        snprintf(buf, n, ">%d", K);
    else
        snprintf(buf, n, "%.1f", hl);
}


/* The view of model k when it has the same edit's curves as v (same step, layer and K),
 * else NULL. */
static const gt_data_pert *peer_pert(const gt_view *v, int k)
{
    const gt_data_pert *pv = &v->pert, *o = &v->peers[k].pert;
    return o->valid && o->step == pv->step && o->layer == pv->layer && o->r.K == pv->r.K ? o : NULL;
}

/* What every model's curve in the plot is: its hidden state's difference (h with h: an
 * LSTM's cell c is not set beside another model's h). */
static const double *hidden_curve(const gt_data_pert *p) { return p->r.dh; }

/* A model's half-lives as the line of every model's gives them (models_line). */
typedef struct peer_hl {
    char h[16], c[16]; /* c "" for a model without a cell */
    int kept;          /* 0: left out */
} peer_hl;

/* The line of every model's half-life into buf, at a level of compactness of its words:
 * each kept model's h, and an LSTM's c beside it (with_c: 2 every model's, 1 the others'
 * but the model shown's, whose c is on the line above, 0 none). Returns the length. */
static int models_text(char *buf, size_t n, const gt_surface *s, const gt_view *v,
                       const peer_hl *hl, int np, int level, int with_c)
{
    static const char *const lead[4] = {"measured %s of h by model:", "%s of h by model:",
                                        "h %s by model:", "h %s:"};
    int len = snprintf(buf, n, lead[level], s->utf8 ? "t½" : "t1/2");
    for (int k = 0; k < np && (size_t)len < n; k++) {
        if (!hl[k].kept)
            continue;
        int c = hl[k].c[0] && (with_c == 2 || (with_c == 1 && k != v->self));
        len += snprintf(buf + len, n - (size_t)len,
                        k == v->self ? "%s[%d] %s%s%s%s" : "%s%d %s%s%s%s",
                        k && !level ? "  " : " ", k + 1, hl[k].h, c ? " (c " : "",
                        c ? hl[k].c : "", c ? ")" : "");
    }
    return len;
}

/* With several models: every model's half-life of its hidden state h for the same edit,
 * the model shown in brackets, an LSTM's of its cell c beside it, labelled ("measured t½
 * of h by model: [1] 4.5 (c 12.3)  2 5.7  3 4.5"). Where it does not fit: fewer words,
 * then the c of the model shown (on the line above), then the others' c, then the last
 * models but the one shown, the count left out said ("+2 more", or "+2"). Returns the row
 * after it. */
static int models_line(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    peer_hl hl[PEER_MAX];
    const int np = v->npeers < PEER_MAX ? v->npeers : PEER_MAX;
    int left = 0; /* the others' c, when they are left out */
    for (int k = 0; k < np; k++) {
        const gt_data_pert *o = peer_pert(v, k);
        snprintf(hl[k].h, sizeof hl[k].h, "-");
        hl[k].c[0] = 0;
        hl[k].kept = 1;
        if (o)
            fmt_hl(hl[k].h, sizeof hl[k].h, o->r.hl_h, o->r.K);
        if (o && o->lstm) {
            fmt_hl(hl[k].c, sizeof hl[k].c, o->r.hl_c, o->r.K);
            left += k != v->self;
        }
    }
    char buf[512];
    for (int level = 0; level < 4; level++)
        for (int with_c = 2; with_c >= 1; with_c--)
            if (models_text(buf, sizeof buf, s, v, hl, np, level, with_c) > 0 &&
                surf_width(buf) <= w) {
                surf_text(s, x, y, w, R_NORMAL, buf);
                return y + 1;
            }
    for (int k = np; k >= 0; k--) { /* the others' c left out, then the last models */
        if (k < np && k != v->self) {
            hl[k].kept = 0;
            left++;
        } else if (k < np) {
            continue;
        }
        char more[32] = "";
        models_text(buf, sizeof buf, s, v, hl, np, 3, 0);
        for (int f = 0; f < 2 && left; f++) { /* "+2 more", or where that is too long "+2" */
            snprintf(more, sizeof more, f ? " +%d" : " +%d more", left);
            if (surf_width(buf) + surf_width(more) <= w)
                break;
        }
        if (surf_width(buf) + surf_width(more) <= w) {
            int used = surf_text(s, x, y, w, R_NORMAL, buf);
            surf_text(s, x + used, y, w - used, R_DIM, more);
            break;
        }
    }
    return y + 1;
}

/* The pinned edit's curves drawn beside the last edit's (data_pert_pin_shown). */
static int pin_drawn(const gt_view *v)
{
    return data_pert_pin_shown(&v->pin, &v->pert);
}

/* The pinned edit (B) under the last edit's half-lives, dim: the letters of its curves, its
 * step and characters, its half-lives, in the widest form that fits; or why its curves are
 * not drawn; above it, where they were computed under other interventions than those in
 * force now (and a row is left before end), those. Returns the row after it. */
static int pinned_line(gt_surface *s, int x, int y, int w, int end, const gt_view *v)
{
    const gt_pert_pin *p = &v->pin;
    const gt_data_pert *pv = &v->pert;
    char from[32], to[32], at[32], what[160], buf[320], c[16], l[16], f[16], h[16];
    panel_char_name(v, p->old_tok, from, sizeof from);
    panel_char_name(v, p->new_tok, to, sizeof to);
    report_commas(p->step, at, sizeof at);
    if (p->all)
        snprintf(what, sizeof what, "all %zu from step %s", p->nedits, at);
    else
        snprintf(what, sizeof what, "step %s %s%s%s", at, from, s->utf8 ? "→" : "->", to);
    if (data_pert_pin_same(p, pv)) {
        snprintf(buf, sizeof buf, "pinned: this edit (%s lets go)", keys_names[KN_PIN].text);
    } else if (!pin_drawn(v)) {
        snprintf(buf, sizeof buf, "pinned %s: layer %d, K %d (drawn there only)", what,
                 p->layer, p->r.K);
    } else {
        const int K = p->r.K, nofo = isnan(p->r.fo[0]);
        fmt_hl(c, sizeof c, p->r.hl_c, K);
        fmt_hl(l, sizeof l, p->r.hl_lin, K);
        fmt_hl(f, sizeof f, p->r.hl_fo, K);
        fmt_hl(h, sizeof h, p->r.hl_h, K);
        const char *names = p->lstm ? (nofo ? "C H" : "C f H") : nofo ? "H" : "f H";
        char hl[96], packed[96];
        if (p->lstm) {
            snprintf(hl, sizeof hl, "c %s L %s F %s h %s", c, l, f, h);
            snprintf(packed, sizeof packed, "c%s L%s F%s h%s", c, l, f, h);
        } else {
            snprintf(hl, sizeof hl, nofo ? "h %s L %s" : "h %s L %s F %s", h, l, f);
            snprintf(packed, sizeof packed, nofo ? "h%s L%s" : "h%s L%s F%s", h, l, f);
        }
        /* shorter: without "pinned" and t½, without "step", without the characters; then
           the half-lives packed as the line above packs them, without the step: never the
           names without their numbers */
        for (int form = 0; form < 6; form++) {
            if (form == 0)
                snprintf(buf, sizeof buf, "pinned %s: %s  %s %s", names, what,
                         s->utf8 ? "t½" : "t1/2", hl);
            else if (form == 1)
                snprintf(buf, sizeof buf, "%s %s: %s", names, what, hl);
            else if (form == 2)
                snprintf(buf, sizeof buf, "%s %s: %s", names, what + (p->all ? 0 : 5), hl);
            else if (form == 3)
                snprintf(buf, sizeof buf, "%s %s: %s", names, at, hl);
            else if (form == 4)
                snprintf(buf, sizeof buf, "%s %s: %s", names, at, packed);
            else
                snprintf(buf, sizeof buf, "%s: %s", names, packed);
            if (surf_width(buf) <= w)
                break;
        }
    }
    /* computed under other interventions than those in force: which, on a line above */
    const char *now = v->ivs ? v->ivs->what : "";
    if (!data_pert_pin_same(p, pv) && strcmp(p->what, now) != 0 && y + 1 < end) {
        char under[600];
        if (p->what[0])
            snprintf(under, sizeof under, "pinned ones computed with %s", p->what);
        else
            snprintf(under, sizeof under, "pinned ones computed without interventions");
        panel_line(s, x, y++, w, R_DIM, under);
    }
    panel_line(s, x, y, w, R_DIM, buf);
    return y + 1;
}

/* The first line: the edit, its layer and the number of edits (or the layer alone). */
static void edit_line(gt_surface *s, int x, int y, int w, const gt_view *v, size_t n)
{
    const gt_data_pert *pv = &v->pert;
    char from[32], to[32], buf[256];
    panel_char_name(v, pv->old_tok, from, sizeof from);
    panel_char_name(v, pv->new_tok, to, sizeof to);
    char at[32], many[32];
    if (pv->all) /* every edit against the text as loaded, from the first */
        snprintf(buf, sizeof buf, "all %s edit%s from step %s, against the text as loaded",
                 report_commas(pv->nedits, many, sizeof many), pv->nedits == 1 ? "" : "s",
                 report_commas(pv->step, at, sizeof at));
    else
        snprintf(buf, sizeof buf, "step %s: %s %s %s", report_commas(pv->step, at, sizeof at),
                 from, s->utf8 ? "→" : "->", to);
    int used = panel_line(s, x, y, w, R_EDIT, buf);
    snprintf(buf, sizeof buf, "  layer %d, %s edit%s", pv->layer, report_commas(n, at, sizeof at),
             n == 1 ? "" : "s");
    if (used + surf_width(buf) > w) /* no room: the layer alone */
        snprintf(buf, sizeof buf, "  layer %d", pv->layer);
    if (used + surf_width(buf) <= w)
        surf_text(s, x + used, y, w - used, R_DIM, buf);
}

/* The half-lives (hc of an LSTM's c, hl of L, hf of F, hh of h) and the ratio at k_at, at a
 * level of compactness: 0 spaced out, 1 tight, 2 tighter (the ratio's k kept: a ratio
 * means nothing without it), 3 the half-lives alone (the ratio then goes on a line of its
 * own). Returns buf. */
static const char *summary(char *buf, size_t n, int level, int lstm, const char *half,
                           const char *hc, const char *hl, const char *hf, const char *hh,
                           int K, int k_at, const char *ratio)
{
    if (!hf) { /* a plain RNN: no forget-only curve, no ratio */
        snprintf(buf, n, "%s h%s%s%sL%s%s%s", half, level ? "" : " ", hh, level ? " " : "  ",
                 level ? "" : " ", hl, level >= 2 ? "" : level ? " no F" : "  (no F: no carry gate)");
        return buf;
    }
    static const char *const num_sep[4] = {" ", " ", "", ""}, *const sep[4] = {"  ", " ", " ", " "};
    const char *v = lstm ? "c" : "h", *ns = num_sep[level], *sp = sep[level];
    char tail[64] = "";
    const int at = k_at < 0 ? K : k_at;
    if (level == 0)
        snprintf(tail, sizeof tail, "   %s/F at k=%d: %s", v, at, ratio);
    else if (level == 1)
        snprintf(tail, sizeof tail, "  %s/F(%d) %s", v, at, ratio);
    else if (level == 2)
        snprintf(tail, sizeof tail, " %s/F(%d) %s", v, at, ratio);
    if (lstm)
        snprintf(buf, n, "%s c%s%s%sL%s%s%sF%s%s%sh%s%s%s", half, ns, hc, sp, ns, hl, sp, ns, hf,
                 sp, ns, hh, tail);
    else
        snprintf(buf, n, "%s h%s%s%sL%s%s%sF%s%s%s", half, ns, hh, sp, ns, hl, sp, ns, hf, tail);
    return buf;
}

/* The half-lives and the ratio measured / forget-only, in the widest form that fits; at the
 * narrowest the ratio goes on a line of its own. Returns the row after them. */
static int halflife_lines(gt_surface *s, int x, int y, int w, int end, const gt_data_pert *pv,
                          int ratio_k)
{
    const int K = pv->r.K, lstm = pv->lstm, nofo = isnan(pv->r.fo[0]);
    const char *half = s->utf8 ? "t½" : "t1/2";
    char buf[256], a[16], b[16], c[16], l[16];
    int k_at;
    double ratio = data_pert_ratio(pv, ratio_k, &k_at);
    char rs[32];
    if (isnan(ratio))
        snprintf(rs, sizeof rs, "-");
    else
        snprintf(rs, sizeof rs, ratio >= 99999.5 ? "%.3g" : ratio >= 99.95 ? "%.0f" : "%.2f",
                 ratio);
    fmt_hl(b, sizeof b, pv->r.hl_fo, K);
    fmt_hl(c, sizeof c, pv->r.hl_h, K);
    fmt_hl(l, sizeof l, pv->r.hl_lin, K);
    fmt_hl(a, sizeof a, pv->r.hl_c, K);
    int level = 0;
    while (surf_width(summary(buf, sizeof buf, level, lstm, half, a, l, nofo ? NULL : b, c, K,
                              k_at, rs)) > w &&
           level < 3)
        level++;
    if (level == 3 && !nofo) {
        surf_text(s, x, y, w, R_NORMAL, buf);
        if (++y >= end)
            return y;
        snprintf(buf, sizeof buf, "%s/F(%d) %s", lstm ? "c" : "h", k_at < 0 ? K : k_at, rs);
    }
    surf_text(s, x, y, w, R_NORMAL, buf);
    return y + 1;
}

/* The legend's width at a level (0 the names, 1 the brief ones, 2 those one space apart)
 * with the items of mask (bit i: item i) and the other models' digits when peers. */
typedef struct legend_item {
    const char *letter, *name, *brief;
    gt_role role;
} legend_item;

static int legend_width(const legend_item *item, unsigned mask, int level, int npeer,
                        const char *what)
{
    int wd = 0, gap = level >= 2 ? 1 : 2;
    for (int i = 0; i < 4; i++)
        if (mask >> i & 1)
            wd += (wd ? gap : 0) + 2 + surf_width(level ? item[i].brief : item[i].name);
    if (npeer)
        wd += gap + 2 * npeer + surf_width(what);
    return wd;
}

/* The curves' names under the plot, shortened, then closer together, then without the
 * other models' digits (the first npeer curves of cv) where the long ones do not fit in w;
 * where even those do not, whole names left out (the plain h and c first, F and L kept
 * longest) and " …" said. */
static void legend(gt_surface *s, int x, int y, int w, int lstm, int nofo, const plot_curve *cv,
                   int npeer)
{
    const legend_item item[4] = {
        {"c", "measured", "meas.", R_PLOT},
        {"F", lstm ? "forget-only" : "update gate only", lstm ? "forget" : "z only", R_CARRY},
        {"h", lstm ? "hidden" : "measured", lstm ? "hidden" : "meas.", R_BAR0},
        {"L", "linearized", "linear", R_MARK},
    };
    static const int drop[4] = {2, 0, 3, 1}; /* h, c, L, F: the order they are left out */
    const char *what = npeer > 1 ? "models' h" : "model's h";
    unsigned mask = (lstm ? 1u : 0u) | (nofo ? 0u : 2u) | 4u | 8u;
    int level = 0, peers = npeer, cut = 0;
    while (legend_width(item, mask, level, peers, what) > w) {
        if (level < 2)
            level++;
        else if (peers)
            peers = 0, cut = 1;
        else if (mask & (mask - 1)) { /* more than one name left */
            int i = 0;
            while (!(mask >> drop[i] & 1))
                i++;
            mask &= ~(1u << drop[i]);
            cut = 1;
        } else {
            break;
        }
    }
    if (cut && legend_width(item, mask, level, 0, what) + 2 > w && mask & (mask - 1)) {
        int i = 0; /* room for " …" */
        while (!(mask >> drop[i] & 1))
            i++;
        mask &= ~(1u << drop[i]);
    }
    const char *gap = level >= 2 ? " " : "  ";
    int lx = x;
    for (int i = 0; i < 4; i++) {
        if (!(mask >> i & 1))
            continue;
        if (lx > x)
            lx += surf_text(s, lx, y, x + w - lx, R_DIM, gap);
        lx += surf_text(s, lx, y, x + w - lx, item[i].role, item[i].letter);
        lx += surf_printf(s, lx, y, x + w - lx, R_DIM, " %s", level ? item[i].brief : item[i].name);
    }
    if (peers) { /* "2 3 models' h": the digits of the other models' curves */
        lx += surf_text(s, lx, y, x + w - lx, R_DIM, gap);
        for (int i = 0; i < npeer; i++)
            lx += surf_text(s, lx, y, 1, cv[i].role, cv[i].label) + 1;
        surf_text(s, lx, y, x + w - lx, R_DIM, what);
    } else if (cut) {
        surf_text(s, lx, y, x + w - lx, R_DIM, s->utf8 ? " …" : " ~");
    }
}

/* The plot of the curves over plot_rows rows at y, its k axis and its legend; returns the
 * row after them. */
static int curves(gt_surface *s, gt_rect in, int y, int plot_rows, const gt_view *v,
                  int letters)
{
    const gt_data_pert *pv = &v->pert;
    int x = in.x + 1, w = in.w - 1;
    static const char *const name[PEER_MAX] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
    /* in colours none of this model's curves has (c cyan, F yellow, h green, L magenta) */
    static const gt_role role[3] = {R_BAR2, R_NEG, R_POS};
    plot_curve cv[PEER_MAX + 7];
    int nc = 0;
    for (int k = 0; k < v->npeers && k < PEER_MAX; k++) { /* the other models under this one's */
        const gt_data_pert *o = k == v->self ? NULL : peer_pert(v, k);
        if (o && hidden_curve(o)[0] > 0)
            cv[nc++] = (plot_curve){hidden_curve(o), name[k], role[k % 3]};
    }
    const int npeer = nc;
    if (pin_drawn(v)) { /* the pinned edit's under this one's, dim, in capitals (F: f) */
        const gt_pert_pin *p = &v->pin;
        if (p->lstm && p->r.dc[0] > 0)
            cv[nc++] = (plot_curve){p->r.dc, "C", R_DIM};
        if (!isnan(p->r.fo[0]) && p->r.fo[0] > 0)
            cv[nc++] = (plot_curve){p->r.fo, "f", R_DIM};
        if (p->r.dh[0] > 0)
            cv[nc++] = (plot_curve){p->r.dh, "H", R_DIM};
    }
    const int nofo = isnan(pv->r.fo[0]); /* a plain RNN: no carry gate, no F */
    if (!nofo)
        cv[nc++] = (plot_curve){pv->r.fo, "F", R_CARRY};
    if (pv->r.lin[0] > 0)
        cv[nc++] = (plot_curve){pv->r.lin, "L", R_MARK};
    if (pv->r.dh[0] > 0)
        cv[nc++] = (plot_curve){pv->r.dh, "h", R_BAR0};
    if (pv->lstm && pv->r.dc[0] > 0)
        cv[nc++] = (plot_curve){pv->r.dc, "c", R_PLOT};
    if (nofo ? pv->r.dh[0] > 0 : pv->r.fo[0] > 0) {
        plot_log(s, in.x, y, w, plot_rows, pv->r.K, cv, nc, letters);
    } else {
        nc = 0;
        panel_wrap(s, x, y, w, plot_rows, R_DIM, "no difference at k = 0 on this layer");
    }
    y += plot_rows + 1;
    if (nc)
        legend(s, x, y, w, pv->lstm, nofo, cv, npeer);
    return y + 1;
}

/* How long each unit's difference stays above half its start, measured / forget-only: on
 * urows (1 or 2) rows at y. */
static void lasting_units(gt_surface *s, int x, int y, int w, int urows, const gt_data_pert *pv)
{
    char buf[256];
    const int nofo = isnan(pv->r.fo[0]); /* a plain RNN: the measured steps alone */
    if (urows == 2) { /* the longest title that fits */
        static const char *const form[4] = {"units lasting longest, steps (measured%s):",
                                            "lasting longest, steps (measured%s):",
                                            "lasting longest (measured%s):", "lasting (measured%s):"};
        for (int f = 0; f < 4; f++) {
            snprintf(buf, sizeof buf, form[f], nofo ? "" : "/F");
            if (surf_width(buf) <= w || f == 3)
                break;
        }
        panel_line(s, x, y++, w, R_DIM, buf);
    }
    int ux = x;
    if (urows == 1)
        ux += surf_text(s, ux, y, w, R_DIM, "lasting:");
    if (!pv->ntop)
        surf_text(s, ux, y, x + w - ux, R_DIM, " no unit differs");
    char item[DATA_PERT_TOP][48];
    int iw[DATA_PERT_TOP];
    for (int i = 0; i < pv->ntop; i++) {
        char t1[16], t2[16];
        const char *ge = s->utf8 ? "≥" : ">=";
        snprintf(t1, sizeof t1, "%s%d", pv->top_last[i] >= pv->r.K ? ge : "", pv->top_last[i]);
        snprintf(t2, sizeof t2, "%s%d", pv->top_last_fo[i] >= pv->r.K ? ge : "",
                 pv->top_last_fo[i]);
        snprintf(item[i], sizeof item[i], "%s#%d %s%s%s", i || urows == 1 ? " " : "",
                 pv->top[i], t1, nofo ? "" : "/", nofo ? "" : t2);
        iw[i] = surf_width(item[i]);
    }
    /* as many whole as fit, and how many more there are where some do not */
    int n = pv->ntop, used = 0;
    char more[32] = "";
    for (;; n--) {
        used = 0;
        for (int i = 0; i < n; i++)
            used += iw[i];
        more[0] = 0;
        if (n < pv->ntop)
            snprintf(more, sizeof more, "%s+%d more", n || urows == 1 ? " " : "", pv->ntop - n);
        if (ux + used + surf_width(more) <= x + w || n == 0)
            break;
    }
    for (int i = 0; i < n; i++)
        ux += surf_text(s, ux, y, iw[i], R_NORMAL, item[i]);
    panel_line(s, ux, y, x + w - ux, R_DIM, more);
}

/* The units that carry most of the last edit, A_j / E in percent, as many as fit, and the
 * key that lists them all ("carried by #71 38% #163 21% ... B all"); or their progress. */
static void carriers_line(gt_surface *s, int x, int y, int w, const gt_view *v)
{
    const gt_data_carriers *c = &v->carriers;
    const char *all = keys_names[KN_CARRIERS].text;
    char buf[320], tail[48];
    snprintf(tail, sizeof tail, " %s %s all", s->utf8 ? "…" : "...", all);
    /* with every edit shown, the carriers are the last edit's: said so, shorter where the
       longer label would leave no room for a unit */
    const char *label = v->pert.all ? "last edit carried by" : "carried by";
    if (v->pert.all && c->state == CARRY_KNOWN && c->effect > 0 && c->hidden > 0 &&
        surf_width(label) + 10 + surf_width(tail) > w)
        label = "last edit:";
    int ux = x + surf_text(s, x, y, w, R_DIM, label);
    if (c->state != CARRY_KNOWN || !(c->effect > 0)) {
        if (c->state == CARRY_COMPUTING)
            snprintf(buf, sizeof buf, ": computing %.0f%%  %s stops",
                     100.0 * data_carriers_progress(c), keys_names[KN_CANCEL].text);
        else if (c->state == CARRY_STOPPED)
            snprintf(buf, sizeof buf, ": stopped (%s computes them)", all);
        else if (c->state == CARRY_FAILED)
            snprintf(buf, sizeof buf, ": %s", c->error);
        else
            snprintf(buf, sizeof buf, ": nothing (the edit changes no prediction)");
        panel_line(s, ux, y, x + w - ux, c->state == CARRY_FAILED ? R_ERROR : R_DIM, buf);
        return;
    }
    const int tw = surf_width(tail);
    for (int i = 0; i < c->hidden; i++) {
        const int j = c->order[i];
        const double pc = 100.0 * c->alone[j] / c->effect;
        snprintf(buf, sizeof buf, pc >= 10 ? " #%d %.0f%%" : " #%d %.1f%%", j, pc);
        if (ux + surf_width(buf) + tw > x + w)
            break;
        ux += surf_text(s, ux, y, x + w - ux, R_NORMAL, buf);
    }
    panel_line(s, ux, y, x + w - ux, R_DIM, tail);
}

void panel_perturb(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_data_pert *pv = &v->pert;
    gt_rect in;
    char note[48];
    snprintf(note, sizeof note, "K %d  %s", pv->horizon, keys_names[KN_HORIZON].text);
    panel_frame(s, r, "perturbation", note, &in);
    int x = in.x + 1, w = in.w - 1, y = in.y, end = in.y + in.h;
    size_t n = trace_edit_count(v->tr);
    if (n && v->edits_wait) {
        char at[32], buf[160];
        snprintf(buf, sizeof buf, "waiting for the states of the model as changed up to the "
                 "edit at step %s", report_commas(trace_edit_at(v->tr, n - 1)->step, at, sizeof at));
        panel_wrap(s, x, y, w, in.h, R_DIM, buf);
        return;
    }
    if (!n || !pv->valid) {
        char buf[160], at[32];
        const char *noun = model_step_noun(v->m);
        if (v->pin.valid)
            snprintf(buf, sizeof buf, "no edit: press e to change a %s (step %s's curves "
                     "pinned: the next edit's are drawn beside them)", noun,
                     report_commas(v->pin.step, at, sizeof at));
        else
            snprintf(buf, sizeof buf, "no edit: press e to change a %s", noun);
        panel_wrap(s, x, y, w, in.h, R_DIM, buf);
        return;
    }
    edit_line(s, x, y, w, v, n);
    if (++y >= end)
        return;
    y = halflife_lines(s, x, y, w, end, pv, v->ui->ratio_k);
    if (v->pin.valid && y < end)
        y = pinned_line(s, x, y, w, end, v);
    if (v->npeers > 1 && y < end)
        y = models_line(s, x, y, w, v);
    if (y >= end)
        return;
    /* the units, at the bottom: two rows when there is room */
    int urows = in.h >= 11 ? 2 : in.h >= 5 ? 1 : 0;
    /* the units that carry it, above them, when the plot keeps three rows (its curves'
     * names at their ends need them) */
    int crows = in.h >= 7 && v->m->has_readout && end - y - urows - 1 - 2 >= 3;
    int plot_rows = end - y - urows - crows - 2; /* the k axis and the legend */
    if (pv->r.K >= 1 && plot_rows >= 2) {
        y = curves(s, in, y, plot_rows, v, v->mono);
    } else if (pv->r.K < 1 && y < end) {
        panel_wrap(s, x, y, w, 1, R_DIM, "the edit is at the text's end: no k after it");
        y++;
    }
    if (crows && y <= end - urows - 1)
        carriers_line(s, x, end - urows - 1, w, v);
    if (urows < 1 || y >= end)
        return;
    lasting_units(s, x, end - urows, w, urows, pv);
}
