/* The header: the model, the text and the readout's mean loss on it (with a warning when
 * it is no better than a uniform guess), the step and its character; the readout's top
 * predictions for the next character and the loss of the one that comes. */
#define _GNU_SOURCE /* memrchr */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gatetui/report.h"
#include "screen/panel_header.h"
#include "screen/panel_frame.h"

/* Text from x, cut before end after its last whole word with an ellipsis when it does not
 * fit (panel_line). */
static int put(gt_surface *s, int x, int y, int end, gt_role role, const char *text)
{
    return x >= end ? x : x + panel_line(s, x, y, end - x, role, text);
}

/* The mean loss of the text (doc/model-files.md) in its forms, longest first: in bits per
 * character, marked when it is no better than a uniform guess (log2 V); with
 * interventions, the model's with them and its change against the model without
 * (doc/screen.md). The number of forms (0: no loss), their role in *role. */
typedef struct loss_forms {
    char text[2][200];
    gt_role role;
} loss_forms;

static int loss_forms_of(const gt_view *v, loss_forms *lf)
{
    const gt_text *t = v->text;
    const gt_data_interv *iv = v->ivs;
    double nats = t->loss_nats;
    size_t count = t->loss_count;
    int changed = iv && iv->what[0], known = !changed || iv->loss_known;
    if (changed && known) {
        nats = iv->loss_nats;
        count = iv->loss_count;
    }
    if (!count)
        return 0;
    double bits = nats / log(2.0), uniform = t->loss_uniform / log(2.0);
    int bad = !(nats < t->loss_uniform);
    /* per character, a word model's per token */
    const char *per = v->m->words ? "token" : "char", *bp = v->m->words ? "bpt" : "bpc";
    if (changed) {
        const char *forms[2] = {"loss %.2f bits/%s, %+.3f against no interventions",
                                "%.2f %s (%+.3f)"};
        for (int f = 0; f < 2; f++) {
            if (known)
                snprintf(lf->text[f], sizeof lf->text[f], forms[f], bits, f ? bp : per,
                         bits - iv->base_nats / log(2.0));
            else
                snprintf(lf->text[f], sizeof lf->text[f], f ? "loss ..." : "loss: computing");
        }
        lf->role = R_EDIT;
        return 2;
    }
    if (bad) {
        snprintf(lf->text[0], sizeof lf->text[0], "loss %.2f bits/%s, no better than chance "
                 "(%.2f): vocabulary order or readout layer wrong?", bits, per, uniform);
        snprintf(lf->text[1], sizeof lf->text[1], "loss %.2f bits/%s, not below chance (%.2f)!",
                 bits, per, uniform);
    } else {
        char part[64] = ""; /* over fewer windows than the report's: said */
        if (t->loss_windows)
            snprintf(part, sizeof part, " (first %zu windows)", t->loss_windows);
        snprintf(lf->text[0], sizeof lf->text[0], "loss %.2f bits/%s%s", bits, per, part);
        snprintf(lf->text[1], sizeof lf->text[1], "%.2f %s", bits, bp);
    }
    lf->role = bad ? R_EDIT : R_NORMAL;
    return 2;
}

/* The longest form of the loss that fits between x and end, after sep. */
static void header_loss(gt_surface *s, int x, int y, int end, const char *sep,
                        const loss_forms *lf, int forms)
{
    for (int f = 0; f < forms; f++) {
        if (x + surf_width(sep) + surf_width(lf->text[f]) <= end) {
            x = put(s, x, y, end, R_DIM, sep);
            put(s, x, y, end, lf->role, lf->text[f]);
            return;
        }
    }
}

/* The model's i-th guess of the next character, " 'a' 12%": under 1% with a decimal, so
 * that a word model's guesses are not all "0%". */
static void guess_text(const gt_view *v, int i, char *buf, size_t n)
{
    char nm[32];
    panel_char_name(v, v->top_tok[i], nm, sizeof nm);
    const double pc = 100.0 * v->top_p[i];
    if (pc >= 0.95) /* what %.1f would show as 1.0 */
        snprintf(buf, n, " %s %.0f%%", nm, pc);
    else if (pc >= 0.05)
        snprintf(buf, n, " %s %.1f%%", nm, pc);
    else
        snprintf(buf, n, " %s <0.1%%", nm);
}

static void header_cursor_row(gt_surface *s, gt_rect r, const gt_view *v, const char *sep);

/* " (vocab.json beside it)" when the vocabulary came from a file found beside the model (its
 * where: "DIR/NAME, beside the model"), else nothing. */
static void vocab_beside(const gt_model *m, char *buf, size_t n)
{
    if (!m->vocab_beside || !m->vocab_where)
        return;
    const char *w = m->vocab_where, *end = strstr(w, ", beside");
    size_t len = end ? (size_t)(end - w) : strlen(w);
    const char *slash = memrchr(w, '/', len);
    if (slash) {
        len -= (size_t)(slash + 1 - w);
        w = slash + 1;
    }
    snprintf(buf, n, " (%.*s beside it)", (int)(len > 100 ? 100 : len), w);
}

void panel_header(gt_surface *s, gt_rect r, const gt_view *v)
{
    const gt_model *m = v->m;
    const char *sep = s->utf8 ? " │ " : " | ";
    int end = r.x + r.w, y = r.y;
    char buf[512];

    /* row 1: what is loaded, the loss (and its warning) kept when the rest must be cut */
    loss_forms lf;
    int forms = loss_forms_of(v, &lf);
    int keep = forms ? surf_width(sep) + surf_width(lf.text[forms - 1]) : 0;
    int rest = end - keep > r.x + 9 ? end - keep : end;
    int x = put(s, r.x, y, rest, R_TITLE, " gatetui");
    x = put(s, x, y, rest, R_DIM, sep);
    char n1[32], n2[32], n3[32]; /* counts with thousands separators, as the report's */
    char vb[160] = "";
    vocab_beside(m, vb, sizeof vb);
    char hw[128]; /* the layers' widths: "512", or "16, 24, 12" */
    snprintf(buf, sizeof buf, "%s: %s, %d layer%s, H %s, V %s%s, %s params", v->model_name,
             model_kind(m), m->layers, m->layers == 1 ? "" : "s", model_widths(m, hw, sizeof hw),
             report_commas((size_t)m->vocab, n3, sizeof n3), vb,
             report_commas((size_t)m->params, n1, sizeof n1));
    const int whole = x + surf_width(buf) <= rest; /* else cut, with its " …" */
    x = put(s, x, y, rest, R_NORMAL, buf);
    if (v->file_changed) /* kept as read: the file on disk is another now */
        x = put(s, x, y, rest, R_EDIT, " (file changed on disk)");
    /* the text's name whole (then its count of steps, which may be left out), or left out
       after an ellipsis: a name is not cut (doc/screen.md, "What it shows") */
    const int name_fits = rest - x >= surf_width(sep) + surf_width(v->text_name) + 3;
    if (whole && !name_fits) {
        x = put(s, x, y, rest, R_DIM, s->utf8 ? " …" : " ~");
    } else if (whole) {
        x = put(s, x, y, rest, R_DIM, sep);
        snprintf(buf, sizeof buf, "%s, %s steps", v->text_name,
                 report_commas(v->steps, n2, sizeof n2));
        x = put(s, x, y, rest, R_NORMAL, buf);
        if (v->text->skipped || v->text->unknown) { /* a word model's: read as <unk> */
            snprintf(buf, sizeof buf, v->text->unknown ? " (%s <unk>)" : " (%s skipped)",
                     report_commas(v->text->skipped + v->text->unknown, n1, sizeof n1));
            x = put(s, x, y, rest, R_DIM, buf);
        }
    }
    header_loss(s, x, y, end, sep, &lf, forms);
    header_cursor_row(s, r, v, sep);
}

/* Row 2: where the cursor is. */
static void header_cursor_row(gt_surface *s, gt_rect r, const gt_view *v, const char *sep)
{
    const gt_model *m = v->m;
    int end = r.x + r.w, y = r.y + 1, x;
    char buf[512];
    char ch[32];
    panel_char_name(v, trace_token(v->tr, v->t), ch, sizeof ch);
    char at[32], last[32]; /* steps count from 0, so the last is steps - 1 */
    snprintf(buf, sizeof buf, " step %s of 0..%s", report_commas(v->t, at, sizeof at),
             report_commas(v->steps ? v->steps - 1 : 0, last, sizeof last));
    x = put(s, r.x, y, end, R_HEADER, buf);
    if (r.w >= 100)
        snprintf(buf, sizeof buf, "  layer %d (of %d)  %s ", v->layer, m->layers,
                 model_step_abbr(m));
    else
        snprintf(buf, sizeof buf, "  %s ", model_step_abbr(m));
    x = put(s, x, y, end, R_NORMAL, buf);
    x = put(s, x, y, end, R_HEADER, ch);
    if (trace_edited(v->tr, v->t)) {
        char was[32];
        panel_char_name(v, trace_original_at(v->tr, v->t), was, sizeof was);
        snprintf(buf, sizeof buf, " (edited, was %s)", was);
        x = put(s, x, y, end, R_EDIT, buf);
    }
    if (v->ivs && v->ivs->what[0]) { /* named wherever values are shown */
        x = put(s, x, y, end, R_DIM, sep);
        x = put(s, x, y, end, R_EDIT, v->ivs->what);
        /* the new label over the values of before: said so (doc/screen.md, "Interventions") */
        if (v->stale)
            x = put(s, x, y, end, R_PROGRESS, " (values as before)");
    }
    if (!m->has_readout) {
        x = put(s, x, y, end, R_DIM, sep);
        x = put(s, x, y, end, R_DIM, "no readout: no predictions");
    } else {
        /* the loss goes on the right; the predictions fill what is between */
        char loss[96];
        if (v->has_next) {
            char nm[32];
            panel_char_name(v, v->next_tok, nm, sizeof nm);
            snprintf(loss, sizeof loss, "loss of %s: %.2f nats", nm, v->loss);
        } else {
            snprintf(loss, sizeof loss, "end of text");
        }
        int room = end - 1 - surf_width(sep) - surf_width(loss);
        char guess[5][48];
        const int ng = v->ntop < 5 ? v->ntop : 5;
        for (int i = 0; i < ng; i++)
            guess_text(v, i, guess[i], sizeof guess[i]);
        /* "next:" only with its first guess: never the label without a number */
        if (ng > 0 && x + surf_width(sep) + 5 + surf_width(guess[0]) <= room) {
            x = put(s, x, y, end, R_DIM, sep);
            x = put(s, x, y, end, R_DIM, "next:");
        } else {
            room = 0;
        }
        for (int i = 0; i < ng; i++) {
            if (x + surf_width(guess[i]) > room)
                break;
            x = put(s, x, y, end, v->has_next && v->top_tok[i] == v->next_tok ? R_HEADER : R_NORMAL,
                    guess[i]);
        }
        if (x + surf_width(sep) + surf_width(loss) <= end) { /* whole, or not at all */
            x = put(s, x, y, end, R_DIM, sep);
            x = put(s, x, y, end, v->has_next ? R_NORMAL : R_DIM, loss);
        }
    }
    if (v->pass_running) {
        snprintf(buf, sizeof buf, " states %.0f%% ", 100.0 * v->pass_progress);
        int w = surf_width(buf);
        if (end - w > x)
            surf_text(s, end - w, y, w, R_PROGRESS, buf);
    }
}
