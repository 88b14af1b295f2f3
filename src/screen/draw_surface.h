/* A drawing surface: a grid of character cells, each a UTF-8 string and a role. The
 * panels draw into it; the screen shows it (term.c gives each role its colour) and the
 * export writes its characters, so the exported frame is the screen. */
#ifndef GATETUI_SURFACE_H
#define GATETUI_SURFACE_H

#include <stdio.h>

#include "screen/draw_layout.h"

/* What a cell is for; the screen turns roles into colours and attributes. */
typedef enum gt_role {
    R_NORMAL,
    R_DIM,      /* labels, axes, less important text */
    R_TITLE,    /* a panel's title row */
    R_HEADER,   /* the header's main facts */
    R_CURSOR,   /* the cursor's character */
    R_EDIT,     /* an edited character */
    R_CURSOR_EDIT, /* the cursor's character where it is edited: the cursor's look, marked */
    R_SKIPPED,  /* a character not fed to the model */
    R_SELECTED, /* the selected unit */
    R_BAR0,     /* the first, second and third gate columns */
    R_BAR1,
    R_BAR2,
    R_CARRY,    /* the carry gate */
    R_POS,
    R_NEG,
    R_PLOT,     /* plotted points */
    R_MARK,     /* the selected unit's point, the cursor in a history */
    R_STATUS,
    R_KEY,      /* a key's name in the status line and help */
    R_MSG,
    R_ERROR,
    R_PROGRESS,
    R_HEAT_N3,  /* text coloured by a unit's value: strongly negative .. strongly positive */
    R_HEAT_N2,
    R_HEAT_N1,
    R_HEAT_0,
    R_HEAT_P1,
    R_HEAT_P2,
    R_HEAT_P3,
    R_MATCH,    /* a character inside a match of the hypothesis (underlined) */
    R_SPAN,     /* the stretch being selected */
    R_FOUND,    /* a character inside a match of the last search */
    R_COUNT
} gt_role;

typedef struct gt_cell {
    char s[8];            /* one character's UTF-8, NUL-terminated; "" after a wide one */
    unsigned char role;
    unsigned char wide;   /* 1: this character takes this cell and the next */
} gt_cell;

/* A text surf_text cut short (at its width or the surface's edge): where the first cell not
 * drawn is, the end of what was drawn and the start of what was left out. What a frame cut
 * is kept so that it can be checked: a number is never cut (doc/screen.md, tests/samples/t_cut.c). */
typedef struct gt_clip {
    int x, y;
    char drawn[24], dropped[24];
} gt_clip;

#define SURF_CLIPS 64

typedef struct gt_surface {
    int w, h;
    int utf8;             /* Unicode glyphs (block elements, braille) allowed */
    gt_cell *cells;       /* [h][w] */
    int nclips;           /* the texts cut since the surface was cleared; the first
                           * SURF_CLIPS of them in clips */
    gt_clip clips[SURF_CLIPS];
} gt_surface;

int surf_init(gt_surface *s, int w, int h, int utf8);
void surf_free(gt_surface *s);
/* Blanks every cell and forgets the clips. */
void surf_clear(gt_surface *s);
static inline gt_cell *surf_cell(const gt_surface *s, int x, int y)
{
    return &s->cells[(size_t)y * (size_t)s->w + (size_t)x];
}

/* Writes UTF-8 text at (x, y), at most maxw columns (and never off the surface); characters
 * the locale cannot show as one or two columns become '?'. Returns the columns used. Text
 * left out past the width is noted in clips. */
int surf_text(gt_surface *s, int x, int y, int maxw, gt_role role, const char *text);
int surf_printf(gt_surface *s, int x, int y, int maxw, gt_role role, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* One glyph of width 1 (a UTF-8 string) at (x, y), clipped. */
void surf_put(gt_surface *s, int x, int y, gt_role role, const char *glyph);
/* Fills r with a glyph. */
void surf_fill(gt_surface *s, gt_rect r, gt_role role, const char *glyph);
/* The columns a UTF-8 string takes (as surf_text would draw it). */
int surf_width(const char *text);

/* Row y's characters with trailing blanks trimmed, NUL-terminated in buf; returns the length. */
size_t surf_row_text(const gt_surface *s, int y, char *buf, size_t n);
/* Writes every row, trimmed, each ended by '\n'. Returns 0, or -1 on a write error. */
int surf_write(const gt_surface *s, FILE *f);

#endif
