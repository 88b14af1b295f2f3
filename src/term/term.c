/* ncursesw: set up, colours by role, showing a surface, restoring (see term.h). */
#include "config.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "term/term.h"

static int active;
static int suspended; /* term_suspend gave the terminal back; term_resume not yet */
static SCREEN *screen;
static int have_tty;
static struct termios saved_tios;
static char restore_seq[256]; /* leaves the alternate screen, shows the cursor */
static size_t restore_len;
static attr_t role_attr[R_COUNT];
/* the terminal reports mouse presses while the screen is up (X10 encoding, which libtermkey
 * reads: columns and rows up to 223) */
static const char mouse_on[] = "\033[?1000h", mouse_off[] = "\033[?1000l";
static int mouse;
static short role_pair[R_COUNT];

typedef struct role_style {
    short fg, bg;     /* -1: the terminal's default */
    attr_t color_attr;
    attr_t mono_attr;
} role_style;

static const role_style styles[R_COUNT] = {
    [R_NORMAL] = {-1, -1, 0, 0},
    [R_DIM] = {-1, -1, A_DIM, A_DIM},
    [R_TITLE] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
    [R_HEADER] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD},
    /* the cursor and an edit look like no shade of the text's colouring (c), in 8 colours
     * and without colour alike, nor like each other */
    [R_CURSOR] = {COLOR_BLACK, COLOR_WHITE, A_BOLD, A_REVERSE | A_BOLD},
    [R_CURSOR_EDIT] = {COLOR_MAGENTA, COLOR_WHITE, A_BOLD | A_UNDERLINE,
                       A_REVERSE | A_BOLD | A_UNDERLINE},
    [R_EDIT] = {COLOR_MAGENTA, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
    [R_SKIPPED] = {COLOR_RED, -1, A_DIM, A_DIM},
    [R_SELECTED] = {COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE},
    [R_BAR0] = {COLOR_GREEN, -1, 0, 0},
    [R_BAR1] = {COLOR_YELLOW, -1, 0, 0},
    [R_BAR2] = {COLOR_BLUE, -1, A_BOLD, 0},
    [R_CARRY] = {COLOR_YELLOW, -1, 0, 0},
    [R_POS] = {-1, -1, 0, 0},
    [R_NEG] = {COLOR_RED, -1, 0, 0},
    [R_PLOT] = {COLOR_CYAN, -1, 0, 0},
    [R_MARK] = {COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
    [R_STATUS] = {-1, -1, 0, 0},
    [R_KEY] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
    [R_MSG] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
    [R_ERROR] = {COLOR_RED, -1, A_BOLD, A_BOLD | A_REVERSE},
    [R_PROGRESS] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
    [R_HEAT_N3] = {COLOR_WHITE, COLOR_BLUE, A_BOLD, A_DIM | A_UNDERLINE},
    [R_HEAT_N2] = {COLOR_WHITE, COLOR_BLUE, 0, A_UNDERLINE},
    [R_HEAT_N1] = {COLOR_BLACK, COLOR_CYAN, 0, A_DIM},
    [R_HEAT_0] = {-1, -1, 0, 0},
    /* without colour: the negatives dim or underlined, the positives bold or reversed, the
     * strongest reversed and underlined (the cursor is reversed and bold, not underlined;
     * an edit bold and underlined) */
    [R_HEAT_P1] = {COLOR_BLACK, COLOR_YELLOW, 0, A_BOLD},
    [R_HEAT_P2] = {COLOR_WHITE, COLOR_RED, 0, A_REVERSE | A_DIM},
    [R_HEAT_P3] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_UNDERLINE},
    [R_MATCH] = {-1, -1, A_UNDERLINE, A_UNDERLINE},
    [R_SPAN] = {COLOR_BLACK, COLOR_GREEN, 0, A_REVERSE},
    [R_FOUND] = {COLOR_BLACK, COLOR_MAGENTA, A_BOLD, A_STANDOUT | A_UNDERLINE},
};

/* A gradient for the heat roles when the terminal has 256 colours. */
static const short heat256[7][2] = {{231, 19}, {231, 26}, {16, 117}, {-1, -1},
                                    {16, 223}, {231, 167}, {231, 160}};

/* Async-signal-safe: puts the terminal back as it was before the program started. */
static void emergency_restore(void)
{
    if (!active)
        return;
    if (restore_len && write(STDOUT_FILENO, restore_seq, restore_len) < 0) {
        /* nothing more can be done */
    }
    if (have_tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tios);
    active = 0;
}

static void crash(int sig)
{
    emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void at_exit(void)
{
    term_stop();
}

static void add_seq(const char *cap)
{
    const char *s = tigetstr((char *)cap);
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (restore_len + n < sizeof restore_seq) {
        memcpy(restore_seq + restore_len, s, n);
        restore_len += n;
    }
}

void term_role_look(int role, int colors, short *fg, short *bg, unsigned long *attr)
{
    *fg = colors ? styles[role].fg : -1;
    *bg = colors ? styles[role].bg : -1;
    *attr = colors ? styles[role].color_attr : styles[role].mono_attr;
    if (colors >= 256 && role >= R_HEAT_N3 && role <= R_HEAT_P3) {
        *fg = heat256[role - R_HEAT_N3][0];
        *bg = heat256[role - R_HEAT_N3][1];
    }
}

static int colors_used;

int term_colors(void) { return colors_used; }

static void set_colors(int color)
{
    colors_used = 0;
    if (color && has_colors()) {
        start_color();
        use_default_colors();
        int colors = COLORS >= 256 && COLOR_PAIRS > R_COUNT ? 256 : 8;
        colors_used = colors;
        for (int r = 0; r < R_COUNT; r++) {
            short fg, bg;
            unsigned long a;
            term_role_look(r, colors, &fg, &bg, &a);
            role_attr[r] = (attr_t)a;
            role_pair[r] = 0;
            if ((fg != -1 || bg != -1) && r + 1 < COLOR_PAIRS) {
                init_pair((short)(r + 1), fg, bg);
                role_pair[r] = (short)(r + 1);
            }
        }
    } else {
        for (int r = 0; r < R_COUNT; r++) {
            role_attr[r] = styles[r].mono_attr;
            role_pair[r] = 0;
        }
    }
}

int term_usable(const char *t, char *why, size_t n)
{
    int err = 0;
    if (!t || !*t) {
        snprintf(why, n, "TERM is not set");
        return 0;
    }
    if (setupterm(t, STDOUT_FILENO, &err) != OK) {
        snprintf(why, n, "the terminal type TERM=%.64s is unknown here (no terminfo entry)", t);
        return 0;
    }
    const char *cup = tigetstr((char *)"cup");
    int ok = cup && cup != (char *)-1 && tigetflag((char *)"hc") <= 0 &&
             tigetflag((char *)"gn") <= 0;
    del_curterm(cur_term);
    if (!ok)
        snprintf(why, n, "the terminal (TERM=%.64s) cannot move the cursor", t);
    return ok;
}

static void set_mouse(int on)
{
    const char *s = on ? mouse_on : mouse_off;
    if (mouse && write(STDOUT_FILENO, s, strlen(s)) < 0) {
        /* the mouse is a convenience: without it the keys do everything */
    }
}

int term_start(FILE *out, const char *term, int color, int want_mouse)
{
    have_tty = tcgetattr(STDIN_FILENO, &saved_tios) == 0;
    if (out) {
        FILE *in = fopen("/dev/null", "r");
        screen = in ? newterm(term, out, in) : NULL;
        if (!screen)
            return -1;
        set_term(screen);
    } else if (!initscr()) {
        return -1;
    }
    active = 1;
    restore_len = 0;
    add_seq("sgr0");
    add_seq("rmcup");
    add_seq("cnorm");
    add_seq("rmkx");
    mouse = !out && want_mouse;
    if (mouse && restore_len + sizeof mouse_off - 1 < sizeof restore_seq) {
        memcpy(restore_seq + restore_len, mouse_off, sizeof mouse_off - 1);
        restore_len += sizeof mouse_off - 1;
    }
    set_mouse(1);
    static int hooked;
    if (!hooked) {
        int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], crash);
        atexit(at_exit);
        hooked = 1;
    }
    cbreak();
    noecho();
    nonl();
    curs_set(0);
    typeahead(-1);
    set_colors(color);
    return 0;
}

void term_stop(void)
{
    if (!active)
        return;
    active = 0;
    if (!suspended) { /* suspended: the terminal is the shell's already, and may be another
                         process group's (ended in the background, touching it would stop
                         the process) */
        set_mouse(0);
        endwin();
    }
    suspended = 0;
    if (screen) {
        delscreen(screen);
        screen = NULL;
    }
}

void term_suspend(void)
{
    if (active && !suspended) {
        set_mouse(0);
        endwin();
        suspended = 1;
    }
}

void term_resume(void)
{
    suspended = 0;
    if (active) {
        reset_prog_mode(); /* curses' modes now, not at its next update */
        set_mouse(1);
        clearok(curscr, TRUE); /* the next doupdate repaints */
        refresh();
    }
}

int term_cols(void) { return COLS; }
int term_rows(void) { return LINES; }

void term_resize(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0)
        resizeterm(ws.ws_row, ws.ws_col);
}

void term_show(const gt_surface *s)
{
    char run[4096];
    int h = s->h < LINES ? s->h : LINES, w = s->w < COLS ? s->w : COLS;
    for (int y = 0; y < h; y++) {
        move(y, 0);
        int x = 0;
        while (x < w) {
            int role = surf_cell(s, x, y)->role;
            size_t k = 0;
            /* a run of cells with one role, as one string */
            while (x < w && surf_cell(s, x, y)->role == role) {
                const char *g = surf_cell(s, x, y)->s;
                size_t len = strlen(g);
                if (k + len + 1 >= sizeof run)
                    break;
                memcpy(run + k, g, len);
                k += len;
                x++;
            }
            run[k] = 0;
            attr_set(role_attr[role], role_pair[role], NULL);
            addstr(run);
        }
    }
    attr_set(A_NORMAL, 0, NULL);
    wnoutrefresh(stdscr);
}
