/* A session written to a file and read again (doc/usage.md, "Sessions"): the session's
 * object (session.h) serialised, its files named by their absolute paths with their sizes
 * and SHA-256, the model options, each model's interventions in the command line's words,
 * and beside them what the screen showed (the "screen" object, which the screen writes and
 * reads: src/screen/sessionstate.c). Read again, every file is checked first: one that
 * changed since is refused, named. */
#ifndef GATETUI_SESSIONFILE_H
#define GATETUI_SESSIONFILE_H

#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/session.h"

struct json_t;

#define SESSIONFILE_VERSION 1
#define SESSIONFILE_EXT ".gatetui-session.json"

/* A session file as read: what session_open needs (its strings are the file's, kept while
 * it is open) and the screen's state. */
typedef struct gt_sessionfile {
    const char *path;
    struct json_t *root;
    const char **model_path;   /* [nmodels] */
    int nmodels;
    const char *text_path;
    gt_model_options mopt;
    const char **vocab_beside; /* [nmodels]: the vocabulary file found beside each model
                                  when it was written (checked: unchanged), "" for none,
                                  NULL when the session does not say (written before it
                                  was kept) */
    gt_session_ivs *each;      /* [nmodels]: each model's interventions */
    gt_session_iv *iv;         /* all of them (each[k].iv points into it) */
    const struct json_t *screen; /* the screen's state, or NULL */
} gt_sessionfile;

/* A session file being read, for what its messages say: the file, and the error to fill. */
typedef struct gt_sessionreader {
    const char *file;
    gt_error *e;
} gt_sessionreader;
/* GT_EINPUT with "FILE: WHERE: WANT" (WHERE the entry, "models" or "screen.unit"). */
int sessionfile_bad(const gt_sessionreader *r, const char *where, const char *want);

/* Reads the session file at path and checks every file it names (the models, the text, a
 * vocabulary file): GT_EINPUT with one line naming the file that is not what the session
 * holds (gone, another size, another SHA-256), or what in the session file is wrong. */
int sessionfile_read(gt_sessionfile *f, const char *path, gt_error *e);
void sessionfile_free(gt_sessionfile *f);

/* The session s as a new JSON object into *out (the caller adds "screen" and frees it):
 * its models (each with the interventions ivs[k], the screen's, which may have changed
 * since s was opened), its text (the bytes as read: a text changed on disk since is
 * refused) and the model options, every file by its absolute path, size and SHA-256. A
 * model file changed on disk since it was read is refused (GT_EINPUT, named): the session
 * would name a file that is not the model shown. */
int sessionfile_json(const gt_session *s, const gt_intervention *const *ivs,
                     struct json_t **out, gt_error *e);

#endif
