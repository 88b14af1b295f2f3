/* A computation in a child process, for the screen: long computations (the report, the
 * correlations of a hypothesis, a selection, a profile) take seconds to minutes, and the
 * keys must keep working meanwhile. The child (a fork: the model and the tokens, as they
 * are at the fork, are already in its memory) sends its progress and then its result
 * through a pipe; the screen reads the pipe without blocking whenever it ticks, and ends
 * the child at once (by its process id) when the result is no longer wanted. */
#ifndef GATETUI_BGJOB_H
#define GATETUI_BGJOB_H

#include <stddef.h>
#include <sys/types.h>

typedef struct gt_bgjob gt_bgjob;

/* What the child does: its result is what it writes with bgjob_write; a nonzero return
 * (with why filled, at most 256 bytes) is a failure. */
typedef int (*gt_bgjob_fn)(gt_bgjob *job, void *ctx, char *why);

struct gt_bgjob {
    pid_t pid;          /* the child computing, or 0 */
    int fd;             /* the pipe from it */
    int permille;       /* its progress */
    int last;           /* child: the last progress sent */
    int tag;            /* the owner's: what the job computes */
    char *buf;          /* what came through the pipe */
    size_t len, cap;
    char note[256];     /* the last note the child sent (bgjob_note), "" before one */
    char *result;       /* when done: the result (in buf) and its length */
    size_t result_len;
    char error[256];    /* when it failed: why */
};

void bgjob_init(gt_bgjob *j);
/* Starts fn(ctx) in a child (a job running is ended first). 0, or -1 with j->error set. */
int bgjob_start(gt_bgjob *j, int tag, gt_bgjob_fn fn, void *ctx);
/* Ends the child, if any, and forgets its result. */
void bgjob_cancel(gt_bgjob *j);
/* Reads what the child sent: 0 while it runs (or when there is none), 1 when it has just
 * finished (result or error set; the next bgjob_start or bgjob_cancel frees them). */
int bgjob_tick(gt_bgjob *j);
/* 1 while a child runs. */
int bgjob_busy(const gt_bgjob *j);

/* In the child: the fraction done (sent when it changes by a thousandth), and bytes of the
 * result. A progress callback of the engine's form: ctx is the job. */
void bgjob_progress(void *job, double done);
void bgjob_write(gt_bgjob *j, const void *p, size_t n);
/* In the child, before the result: a line (no newline in it, at most 250 bytes) that the
 * screen reads as j->note while the child goes on (a result known so far). */
void bgjob_note(gt_bgjob *j, const char *line);

/* A result that a child computes for its owner (the effect, the carriers), and what is
 * known of it: none asked, computing, known, failed, or stopped by Esc. */
enum { BG_NONE, BG_COMPUTING, BG_KNOWN, BG_FAILED, BG_STOPPED };
/* Esc: the child ended, *state BG_STOPPED; 1 when one was running. */
int bgjob_stop(gt_bgjob *j, int *state);
/* Computed again after a stop or a failure: *state back to BG_NONE (the next want starts
 * it). */
void bgjob_again(int *state);
/* The owner's tick: 0 when no child runs; else 1, and when the child has just finished,
 * its result handed to take(ctx, bytes, n) or its error to fail(ctx, why), and the job
 * forgotten. */
int bgjob_deliver(gt_bgjob *j, void (*take)(void *ctx, const char *p, size_t n),
                  void (*fail)(void *ctx, const char *why), void *ctx);
/* The fraction done. */
double bgjob_done(const gt_bgjob *j);

#endif
