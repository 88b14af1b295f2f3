/* The stats view: the report's tables (doc/measures.md, "The report") for the text as loaded and the layer
 * shown, over the panels below the text strip; in two columns when they fit side by side;
 * "computing" with its progress while the report is computed in the background. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/compare.h"
#include "gatetui/report.h"
#include "screen/panel.h"
#include "screen/draw_plot.h"

/* Line i (0-based) of text into buf; 0 when there is none. */
static int line_at(const char *text, int i, char *buf, size_t n)
{
    const char *p = text;
    for (; i > 0 && p; i--) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return 0;
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    snprintf(buf, n, "%.*s", (int)len, p);
    return 1;
}


/* Several models: the table that compares them, its label column fixed and the models'
 * columns from the first one chosen (← →), as many as fit; "computing" until every
 * model's report is known. */
static void compare_table(gt_surface *s, gt_rect r, const gt_view *v)
{
    gt_compare_col c[VIEW_MAX_MODELS];
    char title[320], note[128], buf[4096];
    int n = view_compare_cols(v, c, VIEW_MAX_MODELS), first = v->ui->stats_col;
    int fit = n > 0 ? view_compare_fit(c, n, first, view_stats_width(v)) : 0;
    /* the title, then the note of the models shown, each shorter where both do not fit */
    for (int f = 0; f < 4; f++) {
        if (f < 2)
            snprintf(title, sizeof title, "report: %s, layer %d, %d models", v->text_name,
                     v->layer, v->npeers);
        else
            snprintf(title, sizeof title, "report, layer %d", v->layer);
        if (n > 0)
            snprintf(note, sizeof note, f % 2 ? "models %d-%d of %d %s" :
                     "models %d-%d of %d %s  Enter one  r closes", first + 1, first + fit, n,
                     s->utf8 ? "←→" : "<>");
        else
            snprintf(note, sizeof note, "r closes");
        if (panel_frame_fits(r, title, note))
            break;
    }
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    if (n < 1) {
        int known = 0;
        for (int k = 0; k < v->npeers; k++)
            known += data_stats_col(&v->peers[k].stats, v->layer) != NULL;
        panel_stats_computing(s, in, v);
        snprintf(buf, sizeof buf, "%d of %d models' reports known: the table compares them "
                 "once all are", known, v->npeers);
        surf_text(s, in.x + 1, in.y + 2, in.w - 1, R_DIM, buf);
        return;
    }
    for (int y = 0; y < in.h && v->ui->stats_scroll + y < COMPARE_ROWS; y++) {
        int row = v->ui->stats_scroll + y;
        compare_line(row, c, n, first, fit, buf, sizeof buf);
        if (row == COMPARE_LEGEND) /* words, not numbers: an ellipsis where it is cut */
            panel_line(s, in.x + 1, in.y + y, in.w - 1, R_DIM, buf);
        else
            surf_text(s, in.x + 1, in.y + y, in.w - 1, row == COMPARE_NAME ? R_TITLE : R_NORMAL,
                      buf);
    }
}

/* The note on the stats view's frame: the lines shown of n, the keys, and `wide` (from how
 * wide the intervals show, or ""): without the keys, then wide alone, then without it where
 * the note would not fit with it. */
static void stats_note(char *note, size_t len, const gt_surface *s, gt_rect r,
                       const char *title, const gt_view *v, int n, int shown, int marked,
                       const char *wide)
{
    const int last = v->ui->stats_scroll + shown;
    char range[40], keys[96];
    snprintf(range, sizeof range, "%d-%d of %d", v->ui->stats_scroll + 1, last < n ? last : n,
             n);
    snprintf(keys, sizeof keys, "%s scroll  %s%sr closes", s->utf8 ? "↑↓" : "up/down",
             marked >= 0 ? (s->utf8 ? "Enter: to ▶  " : "Enter: to >  ") : "",
             marked < 0 && v->npeers > 1 ? "Enter every model  " : "");
    for (int f = *wide ? 0 : 3; f < 4; f++) {
        if (f == 0)
            snprintf(note, len, "%s  %s  %s", range, wide, keys);
        else if (f == 1)
            snprintf(note, len, "%s  %s", range, wide);
        else if (f == 2)
            snprintf(note, len, "%s", wide);
        else
            snprintf(note, len, "%s  %s", range, keys);
        if (panel_frame_fits(r, title, note))
            return;
    }
}

void panel_stats(gt_surface *s, gt_rect r, const gt_view *v)
{
    if (view_stats_compares(v)) {
        compare_table(s, r, v);
        return;
    }
    const gt_data_stats *sv = &v->stats;
    int n, width, need;
    const char *text = data_stats_tables(sv, v->layer, &n, &width);
    char title[600], note[200], buf[4096], wide[48] = "";
    snprintf(title, sizeof title, "report: %s as loaded, layer %d%s%s", v->text_name, v->layer,
             v->npeers > 1 ? ", " : "", v->npeers > 1 ? v->model_name : "");
    int rows = r.h - 1, cols = text ? layout_text_columns(r, n, width) : 1;
    size_t step;
    int marked = -1; /* the line Enter goes to the step of */
    if (text && view_stats_step(v, &step, &marked) != 0)
        marked = -1;
    const int edge = r.x > 0, w = r.w - edge - 1, colw = cols == 2 ? (w - 1) / 2 : w;
    if (text && (need = data_stats_ci_need(sv, v->layer)) > 0) /* shown without them */
        snprintf(wide, sizeof wide, "95%% intervals from %d columns", need + edge + 1);
    if (text)
        stats_note(note, sizeof note, s, r, title, v, n, cols * rows, marked, wide);
    else
        snprintf(note, sizeof note, "r closes");
    gt_rect in;
    panel_frame(s, r, title, note, &in);
    int x = in.x + 1;
    if (!text) {
        panel_stats_computing(s, in, v);
        return;
    }
    for (int c = 0; c < cols; c++)
        for (int y = 0; y < in.h; y++) {
            if (!line_at(text, v->ui->stats_scroll + c * in.h + y, buf, sizeof buf))
                break;
            surf_text(s, x + c * (colw + 1), in.y + y, colw, R_NORMAL, buf);
            if (v->ui->stats_scroll + c * in.h + y == marked)
                surf_put(s, x + c * (colw + 1), in.y + y, R_MARK, s->utf8 ? "▶" : ">");
        }
}

void panel_stats_computing(gt_surface *s, gt_rect in, const gt_view *v)
{
    const gt_data_stats *sv = &v->stats;
    char buf[512];
    int x = in.x + 1, w = in.w - 1, layer;
    double p = data_stats_progress(sv, &layer);
    if (sv->error[0] && !data_stats_busy(sv)) {
        panel_wrap(s, x, in.y + 1, w, in.h - 1, R_ERROR, sv->error);
        return;
    }
    snprintf(buf, sizeof buf, "computing the report of layer %d%s ", v->layer,
             s->utf8 ? "…" : "...");
    int used = surf_text(s, x, in.y + 1, w, R_NORMAL, buf);
    int bw = w - used - 8 > 40 ? 40 : w - used - 8;
    if (layer == v->layer && bw > 4) {
        surf_text(s, x + used, in.y + 1, 1, R_DIM, "[");
        plot_bar(s, x + used + 1, in.y + 1, bw, p, R_PROGRESS);
        surf_text(s, x + used + 1 + bw, in.y + 1, 1, R_DIM, "]");
        surf_printf(s, x + used + bw + 2, in.y + 1, 6, R_NORMAL, " %3.0f%%", 100.0 * p);
    }
    snprintf(buf, sizeof buf,
             "the keys keep working meanwhile; %s or Esc closes the view and stops the "
             "computation. The tables are those of gatetui --report (%d windows of %d "
             "characters from the start of the text).",
             v->ui->overlay == OVERLAY_UNITS ? "U" : "r", REPORT_WINDOWS, REPORT_WINDOW_LEN);
    panel_wrap(s, x, in.y + 3, w, in.h - 3, R_DIM, buf);
}
