/* Printing what the finding modes found: text for people, JSON for programs (the formats of
 * doc/measures.md, "Finding the units that mean something"). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "analysis/jsonout.h"
#include "gatetui/finding.h"
#include "gatetui/report.h"
#include "gatetui/utf8.h"
#include "analysis/steptext.h"

#define TEXT_TOP 10      /* units per signal in the plain --units output */
#define TEXT_MATCHES 40  /* matches listed in the plain --select output */

static int done(FILE *f)
{
    return fflush(f) || ferror(f) ? -1 : 0;
}

/* A character for the plain output: a newline as a return sign, a tab as an arrow. */
static void put_shown(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            fputs("\xe2\x86\xb5", f);
        else if (s[i] == '\t')
            fputs("\xe2\x87\xa5", f);
        else if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            fputc('?', f);
        else
            fputc(s[i], f);
    }
}

static void put_token(FILE *f, const gt_model *m, int tok)
{
    char u[4];
    int n;
    const char *t = steptext_token(m, tok, u, &n);
    if (m->words && tok == m->tok_eos)
        t = "<eos>", n = 5;
    put_shown(f, t, (size_t)n);
}


static const char *signal_label(const gt_model *m, int s)
{
    return m->cell->signal[s].title;
}

/* ---- --units ---- */

static json_t *units_json(const gt_units *u, const char *regex, int only)
{
    json_t *root = json_object(), *sigs = json_object();
    json_object_set_new(root, "regex", json_string(regex));
    json_object_set_new(root, "layer", json_integer(u->layer));
    json_object_set_new(root, "steps", json_integer((json_int_t)u->steps));
    json_object_set_new(root, "inside", json_integer((json_int_t)u->inside));
    for (int s = 0; s < u->nsig; s++) {
        if (only >= 0 && s != only)
            continue;
        json_t *list = json_array();
        for (int j = 0; j < model_width(u->m, u->layer); j++) {
            const gt_unit_r *x = &u->by_signal[s][j];
            json_array_append_new(list, json_pack("{s:i, s:o, s:o, s:o}", "unit", x->unit, "r",
                                                  jsonout_num(x->r), "mean_inside", jsonout_num(x->mean_inside),
                                                  "mean_outside", jsonout_num(x->mean_outside)));
        }
        json_object_set_new(sigs, signals_name(u->m, s), list);
    }
    json_object_set_new(root, "signals", sigs);
    return root;
}

int find_print_units(FILE *f, const gt_units *u, const char *regex, int only,
                     const char *text_name, int json)
{
    if (json)
        return jsonout_write(f, units_json(u, regex, only), 1, JSONOUT_FINDING);
    const gt_model *m = u->m;
    const int H = model_width(m, u->layer);
    char mp[1024], tp[1024], rp[1024], n1[32], n2[32];
    fprintf(f, "%s: %s, layer %d, %d units;\n%s, the first %s steps from the zero state\n",
            utf8_printable(mp, sizeof mp, m->path), model_kind(m), u->layer, H,
            utf8_printable(tp, sizeof tp, text_name), report_commas(u->steps, n1, sizeof n1));
    fprintf(f, "\"%s\": %s match%s cover%s %s step%s (%.1f%%)\n",
            utf8_printable(rp, sizeof rp, regex), report_commas(u->matches, n1, sizeof n1),
            u->matches == 1 ? "" : "es", u->matches == 1 ? "s" : "",
            report_commas(u->inside, n2, sizeof n2), u->inside == 1 ? "" : "s",
            100.0 * (double)u->inside / (double)u->steps);
    int top = H < TEXT_TOP ? H : TEXT_TOP;
    for (int s = 0; s < u->nsig; s++) {
        if (only >= 0 && s != only)
            continue;
        fprintf(f, "\n%s: the %d units of largest |r|\n", signal_label(m, s), top);
        fprintf(f, "  unit        r   mean inside  mean outside\n");
        for (int i = 0; i < top; i++) {
            const gt_unit_r *x = &u->by_signal[s][i];
            if (isnan(x->r))
                fprintf(f, "  %4d        -  %12.4f  %12.4f\n", x->unit, x->mean_inside,
                        x->mean_outside);
            else
                fprintf(f, "  %4d  %+7.4f  %12.4f  %12.4f\n", x->unit, x->r, x->mean_inside,
                        x->mean_outside);
        }
    }
    return done(f);
}

/* ---- --select ---- */

static json_t *selection_json(const gt_selection *s, const gt_model *m)
{
    json_t *root = json_object(), *units = json_array(), *matches = json_array();
    json_object_set_new(root, "span", json_pack("[I, I]", (json_int_t)s->a, (json_int_t)s->b));
    json_object_set_new(root, "signal", json_string(signals_name(m, s->signal)));
    json_object_set_new(root, "threshold", json_real(s->threshold));
    for (int i = 0; i < s->nunits; i++)
        json_array_append_new(units, json_integer(s->units[i]));
    json_object_set_new(root, "units", units);
    for (size_t i = 0; i < s->nmatches; i++)
        json_array_append_new(matches, json_pack("{s:I, s:I}", "from", (json_int_t)s->from[i],
                                                 "to", (json_int_t)s->to[i]));
    json_object_set_new(root, "matches", matches);
    return root;
}

/* Steps a..b's characters, at most max of them (a word model's tokens joined as the text
 * joins them, within max bytes), then an ellipsis when some are left out. */
static void put_steps(FILE *f, const gt_model *m, const uint16_t *tok, size_t a, size_t b,
                      size_t max)
{
    size_t t = a, used = 0;
    for (; t <= b; t++) {
        const int gap = m->words && t > a &&
                        (text_token_gap(m, tok[t - 1], tok[t]) || tok[t - 1] == m->tok_eos ||
                         tok[t] == m->tok_eos); /* <eos> written as a word */
        const size_t l =
            m->words ? (tok[t] == m->tok_eos ? 5 : steptext_len(m, tok[t])) + (size_t)gap : 1;
        if (used + l > max && t > a)
            break;
        if (gap)
            fputc(' ', f);
        put_token(f, m, tok[t]);
        used += l;
    }
    if (t <= b)
        fputs("\xe2\x80\xa6", f);
}

int find_print_selection(FILE *f, const gt_selection *s, const uint16_t *tok, int json)
{
    const gt_model *m = s->m;
    if (json)
        return jsonout_write(f, selection_json(s, m), 1, JSONOUT_FINDING);
    char n1[32];
    fprintf(f, "steps %zu:%zu \"", s->a, s->b);
    put_steps(f, m, tok, s->a, s->b, 54); /* the line within 80 columns: steps of 7 digits */
    fprintf(f, "\"\n%s >= %g, layer %d, over the first %s steps\n", signals_name(m, s->signal),
            s->threshold, s->layer, report_commas(s->steps, n1, sizeof n1));
    if (!s->nunits) {
        fprintf(f, "no unit is >= %g throughout the span and below it just before and after\n",
                s->threshold);
        return done(f);
    }
    fprintf(f, "%d unit%s on throughout the span and off around it (by their minimum there):\n",
            s->nunits, s->nunits == 1 ? "" : "s");
    for (int i = 0; i < s->nunits; i++)
        fprintf(f, "  unit %4d  minimum %.4f\n", s->units[i], s->minimum[i]);
    fprintf(f, "%s match%s, stretches where all of them are on:\n",
            report_commas(s->nmatches, n1, sizeof n1), s->nmatches == 1 ? "" : "es");
    for (size_t i = 0; i < s->nmatches && i < TEXT_MATCHES; i++) {
        fprintf(f, "  %8zu %8zu  ", s->from[i], s->to[i]);
        put_steps(f, m, tok, s->from[i], s->to[i], 50);
        fputc('\n', f);
    }
    if (s->nmatches > TEXT_MATCHES)
        fprintf(f, "  ... and %zu more (--json lists them all)\n", s->nmatches - TEXT_MATCHES);
    return done(f);
}

/* ---- --profile ---- */

static json_t *hits_json(const gt_profile *p, const gt_profile_hit *h, int nh,
                         const uint16_t *tok, size_t ntok)
{
    json_t *a = json_array();
    for (int i = 0; i < nh; i++) {
        char ctx[PROFILE_CONTEXT_BYTES];
        size_t at, len, n = profile_context(p->m, tok, ntok, h[i].step, ctx, &at, &len);
        json_array_append_new(a, json_pack("{s:I, s:o, s:s#}", "step", (json_int_t)h[i].step,
                                           "value", jsonout_num(h[i].value), "context", ctx, (int)n));
    }
    return a;
}

static json_t *profile_json(const gt_profile *p, const uint16_t *tok, size_t ntok)
{
    json_t *root = json_object(), *chars = json_array();
    json_object_set_new(root, "unit", json_integer(p->unit));
    json_object_set_new(root, "signal", json_string(signals_name(p->m, p->signal)));
    json_object_set_new(root, "top", hits_json(p, p->top, p->ntop, tok, ntok));
    json_object_set_new(root, "bottom", hits_json(p, p->bottom, p->nbottom, tok, ntok));
    const int words = p->m->words;
    for (int i = 0; i < p->nchars; i++) {
        char u[4];
        int n;
        const int t = p->by_char[i].tok;
        const char *w = words && t == p->m->tok_eos ? "<eos>" : steptext_token(p->m, t, u, &n);
        json_array_append_new(chars, json_pack("{s:s#, s:o, s:I}", words ? "token" : "char", w,
                                               words && t == p->m->tok_eos ? 5 : n, "mean",
                                               jsonout_num(p->by_char[i].mean), "count",
                                               (json_int_t)p->by_char[i].count));
    }
    json_object_set_new(root, words ? "by_token" : "by_char", chars);
    return root;
}

/* A word model's context in the plain profile: bytes of whole tokens before the step and
 * after it, so that a line of a token of up to 8 bytes is within 80 columns (the JSON's
 * context is longer: profile.h). */
#define TEXT_WORDS_BEFORE 34
#define TEXT_WORDS_AFTER 14

/* One line of the plain profile: step, value, and the context with the step's character
 * in brackets at the same column on every line. */
static void hit_line(FILE *f, const gt_profile *p, const gt_profile_hit *h, const uint16_t *tok,
                     size_t ntok)
{
    char ctx[PROFILE_CONTEXT_BYTES];
    size_t at, len, before = 0;
    size_t n = profile_context_within(p->m, tok, ntok, h->step, TEXT_WORDS_BEFORE,
                                      TEXT_WORDS_AFTER, ctx, &at, &len);
    for (size_t i = 0; i < at; i++) /* the characters before it, one column each */
        before += ((unsigned char)ctx[i] & 0xC0) != 0x80;
    const size_t col = p->m->words ? TEXT_WORDS_BEFORE : PROFILE_BEFORE;
    fprintf(f, "  %8zu  %+8.4f  %*s", h->step, h->value, (int)(col - before), "");
    put_shown(f, ctx, at);
    fputc('[', f);
    put_shown(f, ctx + at, len);
    fputc(']', f);
    put_shown(f, ctx + at + len, n - at - len);
    fputc('\n', f);
}

int find_print_profile(FILE *f, const gt_profile *p, const uint16_t *tok, size_t ntok, int json)
{
    if (json)
        return jsonout_write(f, profile_json(p, tok, ntok), 1, JSONOUT_FINDING);
    const gt_model *m = p->m;
    char n1[32];
    /* two lines: each fits the screen's sheet at 80 columns */
    fprintf(f, "unit %d, %s, layer %d\nover the first %s steps from the zero state\n", p->unit,
            signal_label(m, p->signal), p->layer, report_commas(p->steps, n1, sizeof n1));
    for (int side = 0; side < 2; side++) {
        fprintf(f, "\nthe %d steps of %s value\n", side ? p->nbottom : p->ntop,
                side ? "lowest" : "highest");
        fprintf(f, "      step     value  context\n");
        for (int i = 0; i < (side ? p->nbottom : p->ntop); i++)
            hit_line(f, p, side ? &p->bottom[i] : &p->top[i], tok, ntok);
    }
    if (m->words)
        fprintf(f, "\nmean by input token (the %d most frequent), highest first\n",
                PROFILE_TOKENS);
    else
        fprintf(f, "\nmean by input character, highest first\n");
    int cw = m->words ? 5 : 4; /* the token's column: its widest, the heading's at least */
    for (int i = 0; m->words && i < p->nchars; i++) {
        const int w = (int)m->vocab_len[p->by_char[i].tok];
        cw = w > cw ? (w < 24 ? w : 24) : cw;
    }
    fprintf(f, "  %-*s  %8s  %8s\n", cw, m->words ? "token" : "char", "mean", "count");
    for (int i = 0; i < p->nchars; i++) {
        fputs("  ", f);
        const int t = p->by_char[i].tok, w = m->words ? (int)m->vocab_len[t] : 1;
        put_token(f, m, t);
        fprintf(f, "%*s  %+8.4f  %8zu\n", w < cw ? cw - w : 0, "", p->by_char[i].mean,
                p->by_char[i].count);
    }
    return done(f);
}
