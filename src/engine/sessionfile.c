/* A session written to a file and read again (sessionfile.h). */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/fileio.h"
#include "gatetui/sessionfile.h"
#include "gatetui/sha256.h"

/* ---- writing ---- */

static int oom(gt_error *e)
{
    return gt_fail(e, GT_EFAIL, "out of memory for the session");
}

/* {"path", "size", "sha256"} of the file at path (its absolute path); when t is given, the
 * file must be the one t was read from: its bytes as read (a word model's text: the digest
 * taken before its split, text.h). */
static int file_entry(const char *path, const gt_text *t, json_t **out, gt_error *e)
{
    char abs[PATH_MAX], hex[SHA256_HEX];
    unsigned long long size;
    if (!realpath(path, abs))
        return gt_fail(e, GT_EINPUT, "%s: %s", path, strerror(errno));
    int rc = sha256_file(abs, hex, &size, e);
    if (rc)
        return rc;
    if (t) {
        char mem[SHA256_HEX];
        const size_t n = t->words ? t->file_size : t->nbytes;
        if (t->words)
            memcpy(mem, t->file_sha256, SHA256_HEX);
        else
            sha256_of(t->bytes, t->nbytes, mem);
        if (size != n || strcmp(mem, hex) != 0)
            return gt_fail(e, GT_EINPUT, "%s changed on disk since it was read: a session "
                           "written now would not open on the text shown", path);
    }
    *out = json_pack("{s:s, s:I, s:s}", "path", abs, "size", (json_int_t)size, "sha256", hex);
    return *out ? GT_OK : oom(e);
}

static const char *const iv_option[] = {"forget-bias", "ablate", "carousel"};

static int add_iv(void *ctx, char kind, const char *arg)
{
    json_t *o = json_pack("{s:s, s:s}", "option",
                          iv_option[kind == 'f' ? 0 : kind == 'a' ? 1 : 2], "value", arg);
    return o && json_array_append_new(ctx, o) == 0 ? GT_OK : GT_EFAIL;
}

static int model_entry(const gt_session_model *sm, const gt_intervention *iv, json_t *models,
                       gt_error *e)
{
    if (model_file_changed(sm->base))
        return gt_fail(e, GT_EINPUT, "%s changed on disk since it was read: a session written "
                       "now would not open on the model shown", sm->base->path);
    json_t *o = NULL, *ivs = json_array(), *vb = json_null();
    const gt_model *m = sm->base;
    int rc = file_entry(m->path, NULL, &o, e);
    /* the vocabulary found beside it, as it was read (its words are the model's as much);
       null: none, so that one put there since is seen (check_session_vocab) */
    if (rc == GT_OK && m->vocab_beside_path &&
        (rc = file_entry(m->vocab_beside_path, NULL, &vb, e)) == GT_OK &&
        strcmp(json_string_value(json_object_get(vb, "sha256")), m->vocab_beside_sha) != 0)
        rc = gt_fail(e, GT_EINPUT, "%s changed on disk since it was read: a session written "
                     "now would not open on the vocabulary shown", m->vocab_beside_path);
    if (rc == GT_OK) {
        const int bad = json_object_set_new(o, "vocab_beside", vb); /* takes vb */
        vb = NULL;
        if (bad)
            rc = oom(e);
    }
    if (rc) {
        json_decref(vb);
        json_decref(o);
        json_decref(ivs);
        return rc;
    }
    if (!ivs || json_object_set_new(o, "interventions", ivs) ||
        json_array_append_new(models, o))
        return oom(e);
    return iv_args(iv, add_iv, ivs, e) ? oom(e) : GT_OK;
}

/* The model options: a vocabulary file by its entry, the others as their words (null: not
 * given). */
static int options_json(const gt_model_options *o, json_t **out, gt_error *e)
{
    json_t *vf = json_null(), *vt = json_null();
    int rc = o->vocab_file ? file_entry(o->vocab_file, NULL, &vf, e) : GT_OK;
    if (rc == GT_OK && o->vocab_from)
        rc = file_entry(o->vocab_from, NULL, &vt, e);
    if (rc) {
        json_decref(vf);
        return rc;
    }
    *out = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "vocab", vf, "vocab_from", vt, "tokens",
                     o->tokens == GT_TOKENS_CHARS   ? json_string("chars")
                     : o->tokens == GT_TOKENS_WORDS ? json_string("words")
                                                    : json_null(),
                     "embedding", o->embedding ? json_string(o->embedding) : json_null(),
                     "gru_reset",
                     o->gru_reset < 0 ? json_null()
                                      : json_string(o->gru_reset ? "before" : "after"),
                     "nonlinearity",
                     o->nonlinearity < 0 ? json_null()
                                         : json_string(o->nonlinearity ? "relu" : "tanh"));
    return *out ? GT_OK : oom(e);
}

int sessionfile_json(const gt_session *s, const gt_intervention *const *ivs, json_t **out,
                     gt_error *e)
{
    json_t *root = json_pack("{s:i, s:s, s:[]}", "gatetui_session", SESSIONFILE_VERSION,
                             "written_by", PACKAGE_STRING, "models");
    if (!root)
        return oom(e);
    json_t *models = json_object_get(root, "models"), *text = NULL, *opt = NULL;
    int rc = GT_OK;
    for (int k = 0; rc == GT_OK && k < s->n; k++)
        rc = model_entry(&s->model[k], ivs[k], models, e);
    if (rc == GT_OK)
        rc = file_entry(s->text.path, &s->text, &text, e);
    if (rc == GT_OK && json_object_set_new(root, "text", text))
        rc = oom(e);
    if (rc == GT_OK && (rc = options_json(&s->opt.model, &opt, e)) == GT_OK &&
        json_object_set_new(root, "model_options", opt))
        rc = oom(e);
    if (rc)
        json_decref(root);
    else
        *out = root;
    return rc;
}

/* ---- reading ---- */

typedef gt_sessionreader reader;

int sessionfile_bad(const gt_sessionreader *r, const char *where, const char *want)
{
    return gt_fail(r->e, GT_EINPUT, "%s: %s: %s", r->file, where, want);
}


/* The file an entry names, checked: there, of the size and SHA-256 the session holds. */
static int check_entry(const reader *r, const json_t *o, const char *where, const char **path)
{
    const char *p = NULL, *sha = NULL;
    json_int_t size = -1;
    if (json_unpack((json_t *)o, "{s:s, s:I, s:s}", "path", &p, "size", &size, "sha256", &sha) ||
        size < 0 || strlen(sha) != SHA256_HEX - 1)
        return sessionfile_bad(r, where, "wants {\"path\", \"size\", \"sha256\"}");
    char hex[SHA256_HEX];
    unsigned long long n;
    gt_error fe = {0};
    if (sha256_file(p, hex, &n, &fe))
        return gt_fail(r->e, GT_EINPUT, "%s (named by the session %s)", fe.msg, r->file);
    if (n != (unsigned long long)size || strcmp(hex, sha) != 0)
        return gt_fail(r->e, GT_EINPUT, "%s has changed since the session %s was written (%s): "
                       "it would not open on the same screen", p, r->file,
                       n != (unsigned long long)size ? "another size" : "another SHA-256");
    *path = p;
    return GT_OK;
}

/* One model's interventions into f->iv from *at on. */
static int read_ivs(gt_sessionfile *f, const reader *r, const json_t *list, int k, int *at)
{
    f->each[k] = (gt_session_ivs){f->iv + *at, 0};
    size_t i;
    const json_t *o;
    json_array_foreach(list, i, o) {
        const char *opt, *val;
        if (json_unpack((json_t *)o, "{s:s, s:s}", "option", &opt, "value", &val))
            return sessionfile_bad(r, "interventions", "wants {\"option\", \"value\"}");
        char kind = strcmp(opt, "forget-bias") == 0 ? 'f' : strcmp(opt, "ablate") == 0 ? 'a'
                    : strcmp(opt, "carousel") == 0  ? 'c' : 0;
        if (!kind)
            return sessionfile_bad(r, "interventions",
                                   "an option is forget-bias, ablate or carousel");
        f->iv[(*at)++] = (gt_session_iv){kind, val};
        f->each[k].n++;
    }
    return GT_OK;
}

static int read_models(gt_sessionfile *f, const reader *r, const json_t *models)
{
    size_t n = json_array_size(models), total = 0, i;
    const json_t *o;
    if (!json_is_array(models) || n == 0 || n > 64)
        return sessionfile_bad(r, "models", "wants a list of 1 to 64 models");
    json_array_foreach(models, i, o) total += json_array_size(json_object_get(o, "interventions"));
    f->model_path = calloc(n, sizeof *f->model_path);
    f->vocab_beside = calloc(n, sizeof *f->vocab_beside);
    f->each = calloc(n, sizeof *f->each);
    f->iv = calloc(total + 1, sizeof *f->iv);
    if (!f->model_path || !f->vocab_beside || !f->each || !f->iv)
        return gt_fail(r->e, GT_EFAIL, "out of memory for the session");
    int at = 0, rc = GT_OK;
    json_array_foreach(models, i, o) {
        const json_t *ivs = json_object_get(o, "interventions");
        if (ivs && !json_is_array(ivs))
            return sessionfile_bad(r, "interventions", "wants a list");
        const json_t *vb = json_object_get(o, "vocab_beside");
        if (vb && json_is_null(vb))
            f->vocab_beside[i] = ""; /* none beside it when written */
        if ((rc = check_entry(r, o, "models", &f->model_path[i])) ||
            (vb && !json_is_null(vb) &&
             (rc = check_entry(r, vb, "models.vocab_beside", &f->vocab_beside[i]))) ||
            (rc = read_ivs(f, r, ivs, (int)i, &at)))
            return rc;
        f->nmodels++;
    }
    return GT_OK;
}

/* A string option, or null. */
static int read_word(const reader *r, const json_t *opt, const char *key, const char **out)
{
    const json_t *v = json_object_get(opt, key);
    *out = NULL;
    if (v && !json_is_null(v) && !json_is_string(v))
        return sessionfile_bad(r, key, "wants a string or null");
    if (json_is_string(v))
        *out = json_string_value(v);
    return GT_OK;
}

static int read_options(gt_sessionfile *f, const reader *r, const json_t *opt)
{
    gt_model_options *o = &f->mopt;
    model_options_init(o);
    if (!opt)
        return GT_OK;
    if (!json_is_object(opt))
        return sessionfile_bad(r, "model_options", "wants an object");
    const json_t *vf = json_object_get(opt, "vocab"), *vt = json_object_get(opt, "vocab_from");
    const char *reset, *nl, *tokens;
    int rc = GT_OK;
    if (vf && !json_is_null(vf))
        rc = check_entry(r, vf, "model_options.vocab", &o->vocab_file);
    if (rc == GT_OK && vt && !json_is_null(vt))
        rc = check_entry(r, vt, "model_options.vocab_from", &o->vocab_from);
    if (rc == GT_OK && (rc = read_word(r, opt, "tokens", &tokens)) == GT_OK && tokens) {
        o->tokens = strcmp(tokens, "chars") == 0   ? GT_TOKENS_CHARS
                    : strcmp(tokens, "words") == 0 ? GT_TOKENS_WORDS
                                                   : 0;
        if (!o->tokens)
            rc = sessionfile_bad(r, "tokens", "is chars, words or null");
    }
    if (rc == GT_OK)
        rc = read_word(r, opt, "embedding", &o->embedding);
    if (rc == GT_OK && (rc = read_word(r, opt, "gru_reset", &reset)) == GT_OK && reset)
        o->gru_reset = strcmp(reset, "before") == 0;
    if (rc == GT_OK && (rc = read_word(r, opt, "nonlinearity", &nl)) == GT_OK && nl)
        o->nonlinearity = strcmp(nl, "relu") == 0;
    return rc;
}

/* The largest session file read: its pinned curves are the largest part, some kilobytes */
#define SESSIONFILE_MAX ((size_t)64 << 20)

/* The session file's JSON, read as every other file is (a directory, a FIFO, a missing file
 * refused by name), or NULL with the reason in e. */
static json_t *load_json(const char *path, gt_error *e)
{
    gt_filecopy *fc;
    char why[sizeof e->msg];
    int rc = filecopy_open(&fc, path, e);
    if (rc == GT_OK && filecopy_bytes(fc) > SESSIONFILE_MAX) {
        gt_fail(e, GT_EINPUT, "--session %s: %llu bytes, more than a session file holds", path,
                filecopy_bytes(fc));
        filecopy_free(fc);
        return NULL;
    }
    if (rc == GT_OK)
        rc = filecopy_read(fc, (size_t)filecopy_bytes(fc), path, e);
    if (rc) {
        filecopy_free(fc);
        snprintf(why, sizeof why, "%s", e->msg); /* "PATH: why" */
        gt_fail(e, GT_EINPUT, "--session %s", why);
        return NULL;
    }
    size_t n;
    const unsigned char *data = filecopy_data(fc, &n);
    if (!n) {
        filecopy_free(fc);
        gt_fail(e, GT_EINPUT, "--session %s: the file is empty", path);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loadb((const char *)data, n, JSON_REJECT_DUPLICATES, &je);
    filecopy_free(fc);
    if (!root)
        gt_fail(e, GT_EINPUT, "--session %s: not a gatetui session file: %s (line %d)", path,
                je.text, je.line);
    return root;
}

int sessionfile_read(gt_sessionfile *f, const char *path, gt_error *e)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    f->root = load_json(path, e);
    if (!f->root)
        return GT_EINPUT;
    const reader r = {path, e};
    json_int_t version = 0;
    if (json_unpack(f->root, "{s:I}", "gatetui_session", &version) || version < 1)
        return sessionfile_bad(&r, "gatetui_session", "not a gatetui session file");
    if (version > SESSIONFILE_VERSION)
        return sessionfile_bad(&r, "gatetui_session",
                               "written by a newer gatetui (format version above 1)");
    int rc = read_models(f, &r, json_object_get(f->root, "models"));
    const json_t *t = json_object_get(f->root, "text");
    if (rc == GT_OK)
        rc = t ? check_entry(&r, t, "text", &f->text_path) : sessionfile_bad(&r, "text", "missing");
    if (rc == GT_OK)
        rc = read_options(f, &r, json_object_get(f->root, "model_options"));
    f->screen = json_object_get(f->root, "screen");
    return rc;
}

void sessionfile_free(gt_sessionfile *f)
{
    free(f->model_path);
    free(f->vocab_beside);
    free(f->each);
    free(f->iv);
    json_decref(f->root);
    memset(f, 0, sizeof *f);
}
