/* A sheet: what covers the panels below the text strip, one at a time (doc/screen.md,
 * "Sheets over the panels"): the report's tables (r), the unit table (U), the derivative (D),
 * a unit's profile (p). Each sheet is one file, sheet_NAME.c, that fills a gt_sheet: its own
 * state (for each model, and shared by every model), what it does as it opens and closes,
 * as the state changes, for each frame and in the background, how it draws, its lines of
 * the key table and its status line's hints; and one row of the table of sheets
 * (sheets.c). The view knows only which sheet is up (gt_shared.sheet) and loops over the
 * table (v->sheets) where every sheet has its say (view.c); the dispatch finds a key in the
 * sheet's lines first (keys.c); the frame draws it (frame.c). doc/architecture.md, "Where a
 * change goes", walks through adding one. */
#ifndef GATETUI_SHEET_H
#define GATETUI_SHEET_H

#include <stddef.h>

#include "screen/draw_layout.h"
#include "screen/draw_surface.h"
#include "screen/keys_line.h"
#include "screen/view.h"

/* What a sheet's data may be out of date by (its invalidate hook). */
enum {
    SHEET_EDITS = 1u, /* an edit or an undo, or another layer on any path */
    SHEET_MODEL = 2u, /* an intervention changed the model's weights */
    SHEET_LAYER = 4u, /* [ ] chose another layer */
};

/* What a sheet asks of the view's data while it is up. */
enum {
    SHEET_NEEDS_REPORT = 1u, /* the report of the layer shown (v->stats), kept computed */
    SHEET_SHOWS_PEERS = 2u,  /* it draws the other models' data: their work redraws it */
};

/* The most numbers a session file keeps of a sheet's state. */
#define SHEET_SAVED_MAX 8

typedef struct gt_sheet {
    const char *name;       /* what it shows, in words: "the report's tables" */
    const char *id;         /* its word in a session file ("report", "units", ...) */
    size_t data_size;       /* its state for each model (sheet_data), zeroed at first */
    size_t ui_size;         /* its state every model shares (sheet_ui), zeroed at first */
    unsigned needs;         /* SHEET_NEEDS_* */
    /* Each hook may be NULL: nothing to do. */
    int (*init)(gt_view *v, gt_error *e);   /* its state for a new view; GT_OK or an error */
    void (*free)(gt_view *v);
    void (*open)(gt_view *v);               /* as it comes over the panels */
    void (*close)(gt_view *v);              /* as it goes (another came, or the panels) */
    void (*follow)(gt_view *v, int shown);  /* a model's data follows the shared state
                                             * while it is up (view_follow) */
    void (*prepare)(gt_view *v);            /* each frame while it is up, after the view's
                                             * values: what it draws derived (or asked for) */
    int (*tick)(gt_view *v);                /* its background work, up or not: 1 to redraw */
    int (*busy)(const gt_view *v);          /* 1 while it computes in the background */
    void (*invalidate)(gt_view *v, unsigned why); /* SHEET_EDITS | SHEET_MODEL | SHEET_LAYER */
    void (*draw)(gt_surface *s, gt_rect r, const gt_view *v); /* over the panels, changing
                                                                * nothing */
    /* The numbers of its state a session file keeps (its scroll, its K, ...) for the model
     * shown: save writes them into val (at most SHEET_SAVED_MAX) and returns how many;
     * load, after it is opened, takes them back (n of them): 0, or -1 with what a number
     * out of its range wants in why (sheet_load_check). A scroll past the end is drawn as
     * the last page, and the next key that scrolls brings it back within the text. */
    int (*save)(const gt_view *v, long *val);
    int (*load)(gt_view *v, const long *val, int n, char *why, size_t len);
    /* its status line's hints in the state v is in; NULL: the panels' hints */
    const gt_hint *(*hints)(const gt_view *v);
    const gt_hint *const *contexts; /* every list hints() gives, NULL-terminated (for
                                     * tests/unit/t_keydoc) */
    const gt_keyname *const *names; /* the names of keys its notes show, NULL-terminated
                                     * (tests/unit/t_keydoc holds them to its lines) */
    const gt_keyline *keys;  /* its lines of the key table: those of keys NULL or `here`
                              * apply only while it is up and are found before the
                              * others; the rest (the key that opens it) everywhere, listed
                              * in the help box with the sheets' lines */
    int nkeys;
    const gt_hint *panels_hint; /* the key that opens it on the panels' status line, NULL:
                                 * none; at that place without an edit and after one
                                 * (0: not there) */
    int panels_at, edited_at;
} gt_sheet;

/* Its state for v's model (data_size bytes), or NULL when it has none. */
void *sheet_data(const gt_view *v, const gt_sheet *s);
/* Its state every model shares (ui_size bytes), or NULL when it has none. */
void *sheet_ui(const gt_view *v, const gt_sheet *s);

/* Puts s over the panels (NULL: the panels again), closing the one up; s when it is up
 * already: the panels again (sheet_toggle). The report is asked for or ended as the sheet
 * up and the order of the units want it (view_follow_stats). */
void sheet_set(gt_view *v, const gt_sheet *s);
void sheet_toggle(gt_view *v, const gt_sheet *s);
/* 1 when s is the sheet up. */
int sheet_up(const gt_view *v, const gt_sheet *s);

/* A first line shown at moved by d lines (KEYS_PAGE, -KEYS_PAGE: a page of `page` lines),
 * within 0..max. */
int sheet_scroll(int at, int d, int page, int max);

/* A computation's progress on a sheet at (x, y), w columns: what, then a bar (where it
 * fits). */
void sheet_progress(gt_surface *s, int x, int y, int w, const char *what, double done);
/* Lines of text from its line `from` on, at (x, y) in w columns and h rows, each cut where
 * it is wider. */
void sheet_text(gt_surface *s, int x, int y, int w, int h, const char *text, int from);
/* The first line shown of a text of `lines` lines in a sheet of h rows (its title's row
 * among them) after d lines (KEYS_PAGE: a page), from `at`. */
int sheet_text_scroll(int at, int d, int h, int lines);

/* The rows a text takes in w columns with each line wider than w wrapped at its spaces (a
 * word wider than w cut into pieces), the rest of a line indented by SHEET_WRAP_INDENT:
 * a number is never cut off. */
#define SHEET_WRAP_INDENT 4
int sheet_wrapped_rows(const char *text, int w);
/* The columns a text sheet in r writes its lines in (sheet_draw_text). */
int sheet_text_width(gt_rect r);
/* Where a sheet is drawn over the panels: below the strip, the whole width. */
gt_rect sheet_rect(const gt_view *v);
/* The first row shown of text drawn as a text sheet in r (sheet_draw_text) after d rows
 * (KEYS_PAGE: a page), from `at`. */
int sheet_text_rows_scroll(int at, int d, gt_rect r, const char *text);

/* A sheet of a text computed in the background (the effect's, the carriers'): framed with
 * its title and a note; then what is not known (why, in words), its progress, its error,
 * or its rows (its lines wrapped: sheet_wrapped_rows) from row `scroll` on with "1-20 of
 * 40" before the note. */
typedef struct gt_textsheet {
    const char *title, *note;
    enum { TEXT_SAY, TEXT_COMPUTING, TEXT_KNOWN, TEXT_FAILED } state;
    const char *say;   /* TEXT_SAY, TEXT_COMPUTING ("computing the effect "), TEXT_FAILED:
                        * the words */
    double done;       /* TEXT_COMPUTING */
    const char *text;  /* TEXT_KNOWN */
    int scroll;        /* the first row shown */
} gt_textsheet;
void sheet_draw_text(gt_surface *s, gt_rect r, const gt_textsheet *t);
/* 0 when val[i] (of n) is absent or from lo to hi; otherwise -1, and why says so ("state[2]
 * (the column sorted by) wants an integer from 0 to 6"). */
int sheet_load_check(const long *val, int n, int i, long lo, long hi, const char *what,
                     char *why, size_t len);
/* A sheet whose state in a session is its scroll alone: save's and load's part (load takes
 * 0 to 2^24). */
int sheet_save_scroll(int scroll, long *val);
int sheet_load_scroll(int *scroll, const long *val, int n, char *why, size_t len);

/* The handler of a sheet's line that closes it: the panels again. */
gt_act sheet_close_key(gt_view *v, int arg);

#endif
