/* What a call in a pickle builds (pickle.h): nothing is called. A few pure constructors
 * build their value (dicts, sets, bytes, PyTorch's tensors and parameters); a call of a
 * function that runs commands or code is refused; any other call is an opaque object. */
#include "config.h"

#include <string.h>

#include "format/pickle_impl.h"
#include "gatetui/utf8.h"

/* Modules whose functions and classes run commands, code, imports or I/O when called. */
static const char *const denied_modules[] = {
    "os", "posix", "nt", "subprocess", "sys", "shutil", "socket", "importlib", "runpy",
    "ctypes", "pty", "code", "codeop", "pickle", "_pickle", "cPickle", "marshal", "shelve",
    "multiprocessing", "webbrowser", "platform", "commands", "popen2", "_posixsubprocess",
    "signal", "asyncio", "threading", "_thread", "thread", "types", "pdb", "bdb", "timeit",
    "trace", "profile", "cProfile", "operator", "functools", "inspect", "tempfile", "io",
    "_io", "pip", "setuptools", "distutils", "site", "pkgutil", "zipimport", "imp",
    "requests", "urllib", "urllib2", "http", "httplib", "ftplib", "smtplib", "telnetlib",
    "xmlrpc", "xmlrpclib", "socketserver", "SocketServer",
    "numpy.testing", "numpy.f2py", "numpy.distutils", "torch.hub", "torch.jit",
    "torch.package", "torch.utils.cpp_extension", "torch.ops", "torch._dynamo",
    "torch._inductor", "dill", "joblib", "cloudpickle",
};

/* Functions of other modules that load or run what a file or string holds. */
static const char *const denied_functions[][2] = {
    {"torch", "load"}, {"torch.serialization", "load"}, {"numpy", "load"},
    {"numpy", "loadtxt"}, {"numpy", "fromfile"}, {"torch", "compile"},
};

/* What builtins may be called: types whose construction runs nothing. */
static const char *const builtin_types[] = {
    "set", "frozenset", "dict", "list", "tuple", "bytes", "bytearray", "str", "unicode",
    "int", "long", "float", "complex", "bool", "slice", "range", "xrange", "object", "type",
};

static int module_is(const char *module, const char *m)
{
    size_t n = strlen(m);
    return strncmp(module, m, n) == 0 && (module[n] == 0 || module[n] == '.');
}

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return 1;
    return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int denied(const pk_value *fn)
{
    const char *m = fn->u.global.module, *n = fn->u.global.name;
    if (strcmp(m, "builtins") == 0 || strcmp(m, "__builtin__") == 0)
        return !in_list(n, builtin_types, COUNT(builtin_types));
    for (size_t i = 0; i < COUNT(denied_modules); i++)
        if (module_is(m, denied_modules[i]))
            return 1;
    for (size_t i = 0; i < COUNT(denied_functions); i++)
        if (strcmp(m, denied_functions[i][0]) == 0 && strcmp(n, denied_functions[i][1]) == 0)
            return 1;
    return 0;
}

static int is_builtin(const pk_value *fn, const char *name)
{
    return pk_is_global(fn, "builtins", name) || pk_is_global(fn, "__builtin__", name);
}

static int is_dict_class(const pk_value *fn)
{
    return pk_is_global(fn, "collections", "OrderedDict") ||
           pk_is_global(fn, "collections", "defaultdict") || is_builtin(fn, "dict");
}

static pk_value *arg(const pk_value *args, size_t i)
{
    return args && args->kind == PK_TUPLE && i < args->u.seq.n ? args->u.seq.v[i] : NULL;
}

/* OrderedDict(), OrderedDict([(k, v), ...]), dict(...), defaultdict(factory). */
static pk_value *make_dict(pk_machine *pm, const pk_value *fn, const pk_value *args)
{
    pk_value *d = pk_alloc(pm, PK_DICT), *pairs = arg(args, 0);
    if (!d)
        return NULL;
    if (pk_is_global(fn, "collections", "defaultdict") || !pairs)
        return d;
    if (pairs->kind == PK_DICT) {
        for (size_t i = 0; i < pairs->u.seq.n; i++)
            if (pk_list_push(pm, &d->u.seq, pairs->u.seq.v[i]))
                return NULL;
        return d;
    }
    if (pairs->kind != PK_LIST && pairs->kind != PK_TUPLE) {
        pk_fail(pm, "a dict made from a value that is not a list of pairs");
        return NULL;
    }
    for (size_t i = 0; i < pairs->u.seq.n; i++) {
        const pk_value *kv = pairs->u.seq.v[i];
        if ((kv->kind != PK_LIST && kv->kind != PK_TUPLE) || kv->u.seq.n != 2) {
            pk_fail(pm, "a dict made from a value that is not a list of pairs");
            return NULL;
        }
        if (pk_list_push(pm, &d->u.seq, kv->u.seq.v[0]) ||
            pk_list_push(pm, &d->u.seq, kv->u.seq.v[1]))
            return NULL;
    }
    return d;
}

/* set(items), frozenset(items), list(items), tuple(items). */
static pk_value *make_seq(pk_machine *pm, pk_kind kind, const pk_value *args)
{
    pk_value *s = pk_alloc(pm, kind), *items = arg(args, 0);
    if (!s || !items)
        return s;
    if (items->kind != PK_LIST && items->kind != PK_TUPLE && items->kind != PK_SET) {
        pk_fail(pm, "a set or list made from a value that is not a sequence");
        return NULL;
    }
    for (size_t i = 0; i < items->u.seq.n; i++)
        if (pk_list_push(pm, &s->u.seq, items->u.seq.v[i]))
            return NULL;
    return s;
}

/* _codecs.encode(text, "latin1"): how protocol 2 writes Python 3 bytes. */
static pk_value *make_encoded(pk_machine *pm, const pk_value *args)
{
    const pk_value *s = arg(args, 0), *enc = arg(args, 1);
    if (!s || s->kind != PK_STR || !(pk_is_str(enc, "latin1") || pk_is_str(enc, "latin-1")))
        return NULL;
    unsigned char *d = pk_bytes(pm, s->u.str.n ? s->u.str.n : 1);
    if (!d)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < s->u.str.n;) {
        uint32_t cp;
        i += (size_t)utf8_decode((const unsigned char *)s->u.str.s + i, s->u.str.n - i, &cp);
        if (cp > 0xFF) {
            pk_fail(pm, "latin-1 bytes with a character above U+00FF");
            return NULL;
        }
        d[n++] = (unsigned char)cp;
    }
    pk_value *v = pk_alloc(pm, PK_BYTES);
    if (v) {
        v->u.str.s = (const char *)d;
        v->u.str.n = n;
    }
    return v;
}

static int int_tuple(const pk_value *t, uint64_t *out, int *n)
{
    if (!t || (t->kind != PK_TUPLE && t->kind != PK_LIST) || t->u.seq.n > GT_MAX_DIMS)
        return -1;
    for (size_t i = 0; i < t->u.seq.n; i++) {
        int64_t v;
        if (pk_int(t->u.seq.v[i], &v) || v < 0)
            return -1;
        out[i] = (uint64_t)v;
    }
    *n = (int)t->u.seq.n;
    return 0;
}

/* _rebuild_tensor_v2(storage, offset, size, stride, ...): checks that every element the
 * shape and strides reach lies inside the storage. */
static pk_value *make_tensor(pk_machine *pm, const pk_value *args)
{
    pk_value *st = arg(args, 0);
    int64_t off;
    pk_tensor t = {0};
    int nstride = -1;
    if (!st || st->kind != PK_STORAGE || pk_int(arg(args, 1), &off) || off < 0 ||
        int_tuple(arg(args, 2), t.shape, &t.ndim) ||
        int_tuple(arg(args, 3), t.stride, &nstride) || nstride != t.ndim) {
        pk_fail(pm, "a tensor whose storage, offset, size or stride is not what PyTorch writes "
                    "(or has more than %d dimensions)", GT_MAX_DIMS);
        return NULL;
    }
    t.storage = st;
    t.offset = (uint64_t)off;
    uint64_t last = t.offset, nelem = 1;
    for (int i = 0; i < t.ndim; i++) {
        uint64_t reach;
        if (__builtin_mul_overflow(nelem, t.shape[i], &nelem) ||
            (t.shape[i] && (__builtin_mul_overflow(t.shape[i] - 1, t.stride[i], &reach) ||
                            __builtin_add_overflow(last, reach, &last)))) {
            pk_fail(pm, "a tensor whose size overflows");
            return NULL;
        }
    }
    const pk_storage *s = st->u.storage;
    if (nelem ? last >= s->nelem : t.offset > s->nelem) {
        pk_fail(pm, "a tensor reaching element %llu of a storage of %llu (storage \"%.40s\")",
                (unsigned long long)last, (unsigned long long)s->nelem, s->key);
        return NULL;
    }
    t.nelem = nelem;
    pk_tensor *copy = pk_bytes(pm, sizeof *copy);
    pk_value *v = copy ? pk_alloc(pm, PK_TENSOR) : NULL;
    if (!v)
        return NULL;
    *copy = t;
    v->u.tensor = copy;
    return v;
}

static int is_tensor_builder(const pk_value *fn)
{
    return pk_is_global(fn, "torch._utils", "_rebuild_tensor_v2") ||
           pk_is_global(fn, "torch._utils", "_rebuild_tensor");
}

/* The value a known constructor builds; NULL with pm not failed when fn is not one. */
static pk_value *build(pk_machine *pm, const pk_value *fn, const pk_value *args, int *known)
{
    *known = 1;
    if (is_tensor_builder(fn))
        return make_tensor(pm, args);
    if (pk_is_global(fn, "torch._utils", "_rebuild_parameter") ||
        pk_is_global(fn, "torch._utils", "_rebuild_parameter_with_state")) {
        pk_value *t = arg(args, 0);
        if (t && t->kind == PK_TENSOR)
            return t;
        pk_fail(pm, "a parameter whose data is not a tensor");
        return NULL;
    }
    if (pk_is_global(fn, "torch._tensor", "_rebuild_from_type_v2") &&
        is_tensor_builder(arg(args, 0)))
        return make_tensor(pm, arg(args, 2));
    if (is_dict_class(fn))
        return make_dict(pm, fn, args);
    if (is_builtin(fn, "set") || is_builtin(fn, "frozenset"))
        return make_seq(pm, PK_SET, args);
    if (is_builtin(fn, "list"))
        return make_seq(pm, PK_LIST, args);
    if (pk_is_global(fn, "_codecs", "encode")) {
        pk_value *v = make_encoded(pm, args);
        if (v)
            return v;
    }
    *known = 0;
    return NULL;
}

/* What TorchScript's pickler wraps values in (torch.jit._pickle): restore_type_tag(value,
 * type) and build_intlist(list) and the like give back their first argument. Nothing of
 * torch.jit is called. */
static pk_value *script_value(const pk_value *fn, pk_value *args)
{
    static const char *const names[] = {"restore_type_tag", "build_intlist", "build_tensorlist",
                                        "build_doublelist", "build_boollist"};
    if (!pk_is_global(fn, "torch.jit._pickle", fn->u.global.name) ||
        !in_list(fn->u.global.name, names, COUNT(names)))
        return NULL;
    return arg(args, 0);
}

/* getattr(obj, "name") of an object the pickle built, not a dunder: how pickle writes a
 * bound method (awd-lstm-lm's WeightDrop keeps one in its nn.LSTM as flatten_parameters).
 * Kept as an opaque value with getattr as its class; nothing is looked up, and a call of
 * it is refused as a call of a value the pickle built. */
static int bound_method(const pk_value *fn, const pk_value *args)
{
    const pk_value *obj = arg(args, 0), *name = arg(args, 1);
    return is_builtin(fn, "getattr") && obj && name && args->u.seq.n == 2 &&
           obj->kind == PK_OBJECT &&
           name->kind == PK_STR && !(name->u.str.n >= 2 && memcmp(name->u.str.s, "__", 2) == 0);
}

pk_value *pk_call(pk_machine *pm, pk_value *fn, pk_value *args, int how)
{
    if (fn->kind != PK_GLOBAL) {
        pk_fail(pm, "the pickle calls a value it built, not a class or function: refused, "
                    "nothing was run");
        return NULL;
    }
    pk_value *kept = how == PK_CALL_REDUCE ? script_value(fn, args) : NULL;
    if (kept)
        return kept;
    const pk_value *cls = fn;
    /* copyreg._reconstructor(cls, base, state): how protocols 0 and 1 make an object */
    if ((pk_is_global(fn, "copyreg", "_reconstructor") ||
         pk_is_global(fn, "copy_reg", "_reconstructor")) &&
        arg(args, 0) && arg(args, 0)->kind == PK_GLOBAL)
        cls = arg(args, 0);
    if (denied(cls) && !(how == PK_CALL_REDUCE && cls == fn && bound_method(fn, args))) {
        pk_fail(pm, "the pickle would call %s.%s when loaded: code that runs commands or "
                    "reads other files; refused, nothing was run (torch.save never writes this)",
                cls->u.global.module, cls->u.global.name);
        return NULL;
    }
    if (how == PK_CALL_NEW && is_dict_class(cls))
        return pk_alloc(pm, PK_DICT);
    if (how == PK_CALL_REDUCE && cls == fn) {
        int known;
        pk_value *v = build(pm, fn, args, &known);
        if (known)
            return v;
    }
    pk_value *obj = pk_alloc(pm, PK_OBJECT);
    if (obj) {
        obj->u.obj.cls = (pk_value *)cls;
        obj->u.obj.args = args;
    }
    return obj;
}
