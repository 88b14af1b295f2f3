/* The mouse on the view (see keys_mouse.h). */
#include "config.h"

#include "gatetui/model.h"
#include "screen/keys_mouse.h"
#include "screen/layout.h"
#include "screen/surface.h"

static int inside(gt_rect r, int x, int y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

/* The columns the character at byte offset o takes in the strip. */
static int char_cells(const gt_view *v, size_t o)
{
    uint32_t cp;
    char g[16];
    text_char_at(v->text, o, &cp);
    size_t s = text_step_at_offset(v->text, o);
    if (s < v->steps && text_step_offset(v->text, s) == o)
        view_token_glyph(v, trace_token(v->tr, s), g);
    else
        view_cp_glyph(v->utf8, v->text->bytes_mode, cp, g);
    return surf_width(g);
}

/* The start of the character before byte offset o (o > 0). */
static size_t char_before(const gt_view *v, size_t o)
{
    const unsigned char *b = (const unsigned char *)v->text->bytes;
    size_t p = o - 1;
    if (!v->text->bytes_mode)
        while (p > 0 && o - p < 4 && (b[p] & 0xC0) == 0x80)
            p--;
    uint32_t cp;
    if ((size_t)text_char_at(v->text, p, &cp) != o - p) /* not one character: a bad byte */
        p = o - 1;
    return p;
}

long keys_strip_step_at(const gt_view *v, int x, int y)
{
    /* the strip's geometry, as panel_strip draws it: rows of W cells under its title, each
     * followed by a row of marks, the cursor at cell `before` of the rows read as one line */
    gt_rect r = v->lay.r[P_STRIP];
    gt_rect in = {r.x, r.y + 1, r.w, r.h - 1};
    int pairs = in.h / 2, W = in.w - 2;
    if (pairs < 1 || W < 1 || y < in.y || (y - in.y) % 2 || (y - in.y) / 2 >= pairs ||
        x < in.x + 1 || x >= in.x + 1 + W)
        return -1;
    long cell = (long)((y - in.y) / 2) * W + (x - in.x - 1) - view_strip_cursor_cell(v, pairs, W);
    const gt_text *t = v->text;
    size_t o = text_step_offset(t, v->t);
    if (cell >= 0) {
        long at = 0;
        while (o < t->nbytes) {
            int w = char_cells(v, o);
            if (cell < at + w)
                break;
            at += w;
            uint32_t cp;
            o += (size_t)text_char_at(t, o, &cp);
        }
        if (o >= t->nbytes)
            return -1;
    } else {
        long at = 0;
        while (o > 0 && at > cell) {
            o = char_before(v, o);
            at -= char_cells(v, o);
        }
        if (at > cell)
            return -1;
    }
    size_t s = text_step_at_offset(t, o); /* a character not fed to the model: the next step */
    return s < v->steps ? (long)s : -1;
}

int keys_unit_at(const gt_view *v, int x, int y)
{
    gt_rect r = v->lay.r[P_GATES];
    if (!inside(r, x, y) || y < r.y + 2)
        return -1;
    int blocks[3];
    gt_gate_grid g;
    layout_gate_grid_extra(r, v->m->hidden, model_sigmoid_gates(v->m, blocks), 0,
                           view_r_columns(v), &g);
    int col = (x - r.x) / (g.colw + 1), row = y - (r.y + 2);
    if (col >= g.ncols || row >= g.rows)
        return -1;
    int rank = v->top + col * g.rows + row;
    return rank < v->m->hidden ? v->order[rank] : -1;
}

gt_act keys_mouse(gt_view *v, const gt_key *k)
{
    if (v->lay.too_small || v->prompt != PROMPT_NONE)
        return ACT_NONE;
    int overlay = v->stats.shown || v->jac.shown || v->find.prof_shown;
    gt_rect strip = v->lay.r[P_STRIP];
    if (k->sym == K_WHEEL_UP || k->sym == K_WHEEL_DOWN) {
        int d = k->sym == K_WHEEL_UP ? -3 : 3;
        gt_key arrow = {K_NONE, 0, 0, 0, 0, 0};
        if (inside(strip, k->x, k->y))
            arrow.sym = d < 0 ? K_LEFT : K_RIGHT;
        else if (k->y > strip.y + strip.h - 1 && k->y < v->lay.rows - 1)
            arrow.sym = d < 0 ? K_UP : K_DOWN; /* the units, or an overlay's scrolling */
        else
            return ACT_NONE;
        for (int i = 0; i < 3; i++)
            keys_handle(v, &arrow);
        return ACT_REDRAW;
    }
    if (k->sym != K_CLICK)
        return ACT_NONE;
    long s = keys_strip_step_at(v, k->x, k->y);
    if (s >= 0) {
        view_seek(v, (size_t)s);
        return ACT_REDRAW;
    }
    int u = overlay ? -1 : keys_unit_at(v, k->x, k->y);
    if (u >= 0) {
        v->unit = u;
        return ACT_REDRAW;
    }
    return ACT_NONE;
}
