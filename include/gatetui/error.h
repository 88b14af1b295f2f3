/* Errors of the engine: a code and one line that says what and where. */
#ifndef GATETUI_ERROR_H
#define GATETUI_ERROR_H

enum {
    GT_OK = 0,
    GT_EFAIL = 1,  /* I/O error, out of memory: not the user's input */
    GT_EINPUT = 2, /* bad usage or bad input: model, text, options */
};

typedef struct gt_error {
    int code;
    char msg[512];
} gt_error;

/* Fills e (when not NULL) with the formatted message and returns code. */
int gt_fail(gt_error *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
