/* Finding the model in what torch.save was given (doc/model-files.md): a state_dict, a
 * checkpoint holding one at any depth, a whole module (its _parameters, _buffers and
 * _modules flattened to state_dict names), or modules saved side by side. The model is the
 * topmost container on the way to the recurrent weights that holds tensors only (a module
 * counts as one whatever else it keeps), so a float or an optimizer beside it does not
 * matter; containers of tensors beside it with no recurrent weights of their own (a
 * decoder saved apart) join it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/torchfind.h"
#include "base/bytes.h"

enum { ON_PATH = 1, PURE_DONE = 2, PURE = 4, WALK_SHIFT = 8 };

/* ---- walking the graph ---- */

/* A TorchScript module (torch.jit.save's data.pkl): an object of a class under
 * "__torch__" whose state is a dict of its attributes, parameters and submodules among
 * them. */
static int tf_is_script(const pk_value *v)
{
    if (!v || v->kind != PK_OBJECT || !v->u.obj.state || v->u.obj.state->kind != PK_DICT ||
        !v->u.obj.cls || v->u.obj.cls->kind != PK_GLOBAL)
        return 0;
    const char *m = v->u.obj.cls->u.global.module;
    return strncmp(m, "__torch__", 9) == 0 && (m[9] == 0 || m[9] == '.');
}

static int tf_is_module(const pk_value *v)
{
    if (tf_is_script(v))
        return 1;
    if (!v || v->kind != PK_OBJECT || !v->u.obj.state)
        return 0;
    const pk_value *p = pk_dict_get(v->u.obj.state, "_parameters"),
                   *m = pk_dict_get(v->u.obj.state, "_modules");
    return p && m && p->kind == PK_DICT && m->kind == PK_DICT;
}

/* The name a dict key gives its value's path: a string, or an integer in decimal. */
static int tf_key_name(const pk_value *k, char *buf, size_t n)
{
    if (k->kind == PK_STR) {
        if (k->u.str.n >= n || memchr(k->u.str.s, 0, k->u.str.n))
            return -1;
        memcpy(buf, k->u.str.s, k->u.str.n);
        buf[k->u.str.n] = 0;
        return 0;
    }
    if (k->kind == PK_INT) {
        snprintf(buf, n, "%lld", (long long)k->u.i);
        return 0;
    }
    return -1;
}

/* The children of a container or an object's state: key-value pairs (*pairs = 1) or items. */
static void tf_children(const pk_value *v, pk_value **kv_out[], size_t *n, int *pairs)
{
    static pk_value *none[1];
    *kv_out = none;
    *n = 0;
    *pairs = 0;
    const pk_value *c = v;
    if (v->kind == PK_OBJECT) {
        c = v->u.obj.state ? v->u.obj.state : v->u.obj.items ? v->u.obj.items : v->u.obj.list;
        if (!c)
            return;
    }
    if (c->kind == PK_DICT) {
        *kv_out = c->u.seq.v;
        *n = c->u.seq.n / 2;
        *pairs = 1;
    } else if (c->kind == PK_LIST || c->kind == PK_TUPLE || c->kind == PK_SET) {
        *kv_out = c->u.seq.v;
        *n = c->u.seq.n;
    }
}

/* Child i of those: its key's name into key[TF_MAX_NAME] (an item's index for a list), its
 * path below path into sub[TF_PATH_BUF]; NULL when it has no name or the path is too long. */
static pk_value *tf_child(pk_value **kv, size_t i, int pairs, const char *path, char *key,
                          char *sub)
{
    if (pairs ? tf_key_name(kv[2 * i], key, TF_MAX_NAME) != 0 : 0)
        return NULL;
    if (!pairs)
        snprintf(key, TF_MAX_NAME, "%zu", i);
    snprintf(sub, TF_PATH_BUF, "%s%s%s", path, *path ? "." : "", key);
    return strlen(sub) < TF_MAX_NAME ? (pairs ? kv[2 * i + 1] : kv[i]) : NULL;
}

/* 1 when v is a module, or a dict whose values are tensors and such dicts (at least one
 * tensor in all). */
static int pure(pk_value *v, int depth)
{
    if (tf_is_module(v))
        return 1;
    if (v->kind != PK_DICT || v->u.seq.n == 0)
        return 0;
    if (v->mark & PURE_DONE)
        return !!(v->mark & PURE);
    if ((v->mark & ON_PATH) || depth > TF_MAX_DEPTH)
        return 0;
    v->mark |= ON_PATH;
    int ok = 1;
    for (size_t i = 0; ok && i + 1 < v->u.seq.n; i += 2) {
        pk_value *k = v->u.seq.v[i], *c = v->u.seq.v[i + 1];
        ok = k->kind == PK_STR && (c->kind == PK_TENSOR || pure(c, depth + 1));
    }
    v->mark &= ~(unsigned)ON_PATH;
    v->mark |= PURE_DONE | (ok ? PURE : 0);
    return ok;
}

static int is_anchor(const char *name)
{
    size_t n = strlen(name);
    return (n >= 12 && strcmp(name + n - 12, "weight_ih_l0") == 0) ||
           (n >= 9 && strcmp(name + n - 9, "weight_ih") == 0);
}

/* 1 when v is a state_dict with other entries beside its tensors (sd["chars"] = chars, a
 * config, an epoch): a dict, not pure, holding recurrent weights as tensors of its own. */
static int mixed(const pk_value *v)
{
    if (v->kind != PK_DICT)
        return 0;
    for (size_t i = 0; i + 1 < v->u.seq.n; i += 2) {
        const pk_value *k = v->u.seq.v[i];
        char key[TF_MAX_NAME];
        if (v->u.seq.v[i + 1]->kind == PK_TENSOR && tf_key_name(k, key, sizeof key) == 0 &&
            is_anchor(key))
            return 1;
    }
    return 0;
}

/* ---- flattening a model to state_dict names ---- */

typedef struct flat {
    tf_named *t;
    size_t n, cap;
    size_t visits;
    const char *path;
    gt_error *e;
} flat;

static int add(flat *f, const char *prefix, const char *key, pk_value *v)
{
    if (f->n >= TF_MAX_TENSORS)
        return gt_fail(f->e, GT_EINPUT, "%s: more than %u tensors", f->path, TF_MAX_TENSORS);
    if (grow_array(&f->t, &f->cap, f->n, sizeof *f->t, 32))
        return gt_fail(f->e, GT_EFAIL, "%s: out of memory", f->path);
    size_t len = strlen(prefix) + strlen(key) + 1;
    char *name = malloc(len);
    if (!name)
        return gt_fail(f->e, GT_EFAIL, "%s: out of memory", f->path);
    snprintf(name, len, "%s%s", prefix, key);
    f->t[f->n].name = name;
    f->t[f->n].v = v;
    f->n++;
    return GT_OK;
}

static int flatten(flat *f, pk_value *v, const char *prefix, int depth);

/* The entries of dict d whose values are tensors (or, recursively, containers). */
static int flatten_dict(flat *f, const pk_value *d, const char *prefix, int depth,
                        const pk_value *skip)
{
    for (size_t i = 0; d && d->kind == PK_DICT && i + 1 < d->u.seq.n; i += 2) {
        char key[TF_MAX_NAME], sub[2 * TF_MAX_NAME + 2];
        pk_value *c = d->u.seq.v[i + 1];
        /* a state_dict's other entries (a vocabulary, a config, numbers, a quantized
         * module's packed parameters) are not tensors of the model */
        if (tf_key_name(d->u.seq.v[i], key, sizeof key) ||
            (c->kind != PK_TENSOR && !pure(c, depth + 1)))
            continue;
        if (skip && skip->kind == PK_SET) { /* non-persistent buffers */
            int listed = 0;
            for (size_t j = 0; j < skip->u.seq.n && !listed; j++)
                listed = pk_is_str(skip->u.seq.v[j], key);
            if (listed)
                continue;
        }
        if (strlen(prefix) + strlen(key) + 2 > TF_MAX_NAME)
            return gt_fail(f->e, GT_EINPUT, "%s: a tensor name longer than %d characters",
                           f->path, TF_MAX_NAME);
        int rc;
        if (c->kind == PK_TENSOR) {
            rc = add(f, prefix, key, c);
        } else {
            snprintf(sub, sizeof sub, "%s%s.", prefix, key);
            rc = flatten(f, c, sub, depth + 1);
        }
        if (rc)
            return rc;
    }
    return GT_OK;
}

static int flatten(flat *f, pk_value *v, const char *prefix, int depth)
{
    if (++f->visits > TF_MAX_VISITS)
        return gt_fail(f->e, GT_EINPUT, "%s: more than %u values to search", f->path,
                       TF_MAX_VISITS);
    if (depth > TF_MAX_DEPTH)
        return gt_fail(f->e, GT_EINPUT, "%s: the model is nested deeper than %d levels", f->path,
                       TF_MAX_DEPTH);
    if (v->mark & ON_PATH)
        return GT_OK; /* a cycle: a module inside itself */
    v->mark |= ON_PATH;
    int rc = GT_OK;
    if (tf_is_script(v)) {
        rc = flatten_dict(f, v->u.obj.state, prefix, depth, NULL);
    } else if (tf_is_module(v)) {
        const pk_value *st = v->u.obj.state;
        rc = flatten_dict(f, pk_dict_get(st, "_parameters"), prefix, depth, NULL);
        if (rc == GT_OK)
            rc = flatten_dict(f, pk_dict_get(st, "_buffers"), prefix, depth,
                              pk_dict_get(st, "_non_persistent_buffers_set"));
        if (rc == GT_OK)
            rc = flatten_dict(f, pk_dict_get(st, "_modules"), prefix, depth, NULL);
    } else if (v->kind == PK_DICT) {
        rc = flatten_dict(f, v, prefix, depth, NULL);
    }
    v->mark &= ~(unsigned)ON_PATH;
    return rc;
}

/* ---- the candidates: the topmost pure containers ---- */

typedef struct scope {
    pk_value *v;
    pk_value *parent; /* the container holding it, NULL at the root */
    char *path;       /* "" at the root, else "a.b" */
    char *key;        /* its key in parent */
    int anchored;     /* holds recurrent weights */
} scope;

typedef struct search {
    tf_walker w; /* first: the walk's visit gets it */
    scope *s;
    size_t n, cap;
    const char *path;
    gt_error *e;
} search;

static int anchored(pk_value *v, const char *path, gt_error *e, int *out)
{
    flat f = {.path = path, .e = e};
    int rc = flatten(&f, v, "", 0);
    *out = 0;
    for (size_t i = 0; i < f.n; i++) {
        *out |= is_anchor(f.t[i].name);
        free(f.t[i].name);
    }
    free(f.t);
    return rc;
}

static int add_scope(search *s, pk_value *v, pk_value *parent, const char *path,
                     const char *key)
{
    if (grow_array(&s->s, &s->cap, s->n, sizeof *s->s, 8))
        return gt_fail(s->e, GT_EFAIL, "%s: out of memory", s->path);
    scope *sc = &s->s[s->n];
    *sc = (scope){v, parent, strdup(path), strdup(key), 0};
    if (!sc->path || !sc->key) {
        free(sc->path);
        free(sc->key);
        return gt_fail(s->e, GT_EFAIL, "%s: out of memory", s->path);
    }
    s->n++;
    return anchored(v, s->path, s->e, &sc->anchored);
}

/* Each walk a number of its own (never 0, the mark of a value no walk has seen). */
static unsigned next_walk(void)
{
    static unsigned last;
    unsigned w = __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED) & (~0u >> WALK_SHIFT);
    return w ? w : next_walk();
}

/* Visits every value reachable from v once: a container met again (shared by several
 * references) is not walked again, so the walk is linear in the file. */
int tf_walk(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key, const char *name,
            const char *path, int depth)
{
    if (depth == 0)
        w->walk = next_walk();
    if (++w->visits > TF_MAX_VISITS)
        return gt_fail(w->e, GT_EINPUT, "%s: more than %u values to search", w->file,
                       TF_MAX_VISITS);
    if (depth > TF_MAX_DEPTH || (v->mark & ON_PATH) || v->mark >> WALK_SHIFT == w->walk)
        return GT_OK;
    pk_value **kv;
    size_t n;
    int pairs;
    tf_children(v, &kv, &n, &pairs);
    if (n)
        v->mark = (v->mark & ((1u << WALK_SHIFT) - 1)) | w->walk << WALK_SHIFT;
    int rc = w->visit(w, v, parent, key, name, path);
    if (rc)
        return rc == TF_SKIP ? GT_OK : rc;
    v->mark |= ON_PATH;
    for (size_t i = 0; i < n && rc == GT_OK; i++) {
        char k[TF_MAX_NAME], sub[TF_PATH_BUF];
        pk_value *c = tf_child(kv, i, pairs, path, k, sub);
        if (c)
            rc = tf_walk(w, c, v, pairs ? kv[2 * i] : NULL, k, sub, depth + 1);
    }
    v->mark &= ~(unsigned)ON_PATH;
    return rc;
}

/* The topmost pure containers: each a candidate for the model. */
static int scope_visit(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                       const char *name, const char *path)
{
    (void)key;
    if (!pure(v, 0) && !mixed(v))
        return GT_OK;
    int rc = add_scope((search *)w, v, parent, path, name);
    return rc ? rc : TF_SKIP;
}

/* How much a key says "this is the model": lower is better. */
static int rank(const char *key)
{
    static const char *const names[] = {"model_state_dict", "state_dict", "model", "net",
                                        "network", "module", "model_state", "weights", "params",
                                        "rnn", "lstm", "gru"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(key, names[i]) == 0)
            return (int)i;
    return 100;
}

static int choose(const search *s, size_t *out, gt_error *e)
{
    size_t best = s->n;
    for (size_t i = 0; i < s->n; i++) {
        if (!s->s[i].anchored)
            continue;
        if (best == s->n || rank(s->s[i].key) < rank(s->s[best].key)) {
            best = i;
        } else if (rank(s->s[i].key) == rank(s->s[best].key)) {
            return gt_fail(e, GT_EINPUT,
                           "%s: two recurrent models in the file, at \"%.100s\" and \"%.100s\": "
                           "save the one to show by itself (torch.save(checkpoint[\"...\"], "
                           "FILE))",
                           s->path, s->s[best].path, s->s[i].path);
        }
    }
    *out = best;
    return GT_OK;
}

/* Strips "module." (DataParallel) and "_orig_mod." (torch.compile) when every name has it. */
static void strip_wrappers(tf_named *t, size_t n)
{
    static const char *const wrap[] = {"module.", "_orig_mod."};
    for (int again = 1; again && n;) {
        again = 0;
        for (size_t w = 0; w < 2; w++) {
            size_t len = strlen(wrap[w]), i = 0;
            while (i < n && strncmp(t[i].name, wrap[w], len) == 0)
                i++;
            if (i < n)
                continue;
            for (i = 0; i < n; i++)
                memmove(t[i].name, t[i].name + len, strlen(t[i].name + len) + 1);
            again = 1;
        }
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(((const tf_named *)a)->name, ((const tf_named *)b)->name);
}

/* The chosen scope, with its unanchored siblings when it is not the whole file. */
static int collect(const search *s, size_t best, flat *f, char **where)
{
    const scope *sc = &s->s[best];
    int with_siblings = 0;
    for (size_t i = 0; sc->parent && i < s->n; i++)
        with_siblings |= i != best && s->s[i].parent == sc->parent && !s->s[i].anchored;
    /* where: the scope, or the container of it and its siblings */
    const char *dot = strrchr(sc->path, '.');
    *where = with_siblings ? strndup(sc->path, dot ? (size_t)(dot - sc->path) : 0)
                           : strdup(sc->path);
    if (!*where)
        return gt_fail(f->e, GT_EFAIL, "%s: out of memory", f->path);
    if (!with_siblings)
        return flatten(f, sc->v, "", 0);
    for (size_t i = 0; i < s->n; i++) {
        if (s->s[i].parent != sc->parent || (i != best && s->s[i].anchored))
            continue;
        char prefix[TF_MAX_NAME];
        snprintf(prefix, sizeof prefix, "%.*s.", TF_MAX_NAME - 2, s->s[i].key);
        int rc = s->s[i].v->kind == PK_TENSOR ? GT_OK : flatten(f, s->s[i].v, prefix, 0);
        if (rc)
            return rc;
    }
    return GT_OK;
}

typedef struct every_tensor {
    tf_walker w; /* first: the walk's visit gets it */
    flat *f;
} every_tensor;

static int tensor_visit(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                        const char *name, const char *path)
{
    (void)parent, (void)key, (void)name;
    if (v->kind != PK_TENSOR)
        return GT_OK;
    flat *f = ((every_tensor *)w)->f;
    for (size_t i = 0; i < f->n; i++) /* a tensor met again under a path already named */
        if (strcmp(f->t[i].name, path) == 0)
            return TF_SKIP;
    return f->n < 64 ? add(f, "", path, v) : TF_SKIP;
}

int tf_find_model(pk_value *root, const char *path, tf_named **out, size_t *n, char **where,
                  gt_error *e)
{
    *where = NULL;
    search s = {.w = {scope_visit, 0, path, e}, .path = path, .e = e};
    flat f = {.path = path, .e = e};
    size_t best = 0;
    int rc = tf_walk(&s.w, root, NULL, NULL, "", "", 0);
    if (rc == GT_OK)
        rc = choose(&s, &best, e);
    if (rc == GT_OK && best < s.n) {
        rc = collect(&s, best, &f, where);
    } else if (rc == GT_OK) {
        /* no recurrent weights: every tensor of the file, wherever it is (in a list, in a
         * quantized module's packed parameters), under its path, for the message */
        every_tensor all = {.w = {.visit = tensor_visit, .file = path, .e = e}, .f = &f};
        rc = tf_walk(&all.w, root, NULL, NULL, "", "", 0);
        if (rc == GT_OK && !(*where = strdup("")))
            rc = gt_fail(e, GT_EFAIL, "%s: out of memory", path);
    }
    for (size_t i = 0; i < s.n; i++) {
        free(s.s[i].path);
        free(s.s[i].key);
    }
    free(s.s);
    if (rc == GT_OK) {
        strip_wrappers(f.t, f.n);
        if (f.n)
            qsort(f.t, f.n, sizeof *f.t, name_cmp);
        for (size_t i = 1; i < f.n && rc == GT_OK; i++)
            if (strcmp(f.t[i].name, f.t[i - 1].name) == 0)
                rc = gt_fail(e, GT_EINPUT, "%s: two tensors named %.200s", path, f.t[i].name);
    }
    if (rc) {
        for (size_t i = 0; i < f.n; i++)
            free(f.t[i].name);
        free(f.t);
        free(*where);
        *where = NULL;
        return rc;
    }
    *out = f.t;
    *n = f.n;
    return GT_OK;
}

/* ---- a string under a key ---- */

typedef struct str_find {
    tf_walker w; /* first: the walk's visit gets it */
    const char *key;
    char **out;
} str_find;

static int string_visit(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                        const char *name, const char *path)
{
    str_find *f = (str_find *)w;
    (void)parent, (void)key, (void)path;
    if (*f->out)
        return TF_SKIP;
    if (v->kind != PK_STR || !name || strcmp(name, f->key) != 0)
        return GT_OK;
    if (!(*f->out = strndup(v->u.str.s, v->u.str.n)))
        return gt_fail(w->e, GT_EFAIL, "%s: out of memory", w->file);
    return TF_SKIP;
}

int tf_find_string(pk_value *root, const char *path, const char *key, char **out,
                   gt_error *e)
{
    str_find f = {.w = {.visit = string_visit, .file = path, .e = e}, .key = key, .out = out};
    *out = NULL;
    return tf_walk(&f.w, root, NULL, NULL, "", "", 0);
}

/* ---- quantization ---- */

typedef struct quant_find {
    tf_walker w; /* first: the walk's visit gets it */
    char **where;
    int dynamic;
} quant_find;

/* The module a quantized value's path names: the path before "._packed_params",
 * "._all_weight_values" or the quantized tensor's own key. */
static char *quant_module(const char *path)
{
    static const char *const parts[] = {"._packed_params", "._all_weight_values", ".weight",
                                        "._weight_bias"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const char *at = strstr(path, parts[i]);
        if (at && (size_t)(at - path) < n)
            n = (size_t)(at - path);
    }
    return strndup(path, n);
}

static int quant_visit(tf_walker *w, pk_value *v, pk_value *parent, const pk_value *key,
                       const char *name, const char *path)
{
    quant_find *q = (quant_find *)w;
    (void)parent, (void)key;
    int dyn = (name && (strstr(name, "_packed_params") || strstr(name, "_all_weight_values"))) ||
              pk_is_str(v, "quantized_dynamic");
    int qt = v->kind == PK_OBJECT && v->u.obj.cls &&
             pk_is_global(v->u.obj.cls, "torch._utils", "_rebuild_qtensor");
    if (!dyn && !qt)
        return GT_OK;
    q->dynamic |= dyn;
    if (!*q->where && !(*q->where = quant_module(path)))
        return gt_fail(w->e, GT_EFAIL, "%s: out of memory", w->file);
    return TF_SKIP;
}

int tf_find_quantized(pk_value *root, const char *path, char **where, int *dynamic,
                      gt_error *e)
{
    quant_find q = {.w = {.visit = quant_visit, .file = path, .e = e}, .where = where};
    *where = NULL;
    int rc = tf_walk(&q.w, root, NULL, NULL, "", "", 0);
    *dynamic = q.dynamic;
    return rc;
}
