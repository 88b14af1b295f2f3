/* The pickle machine (pickle.h): opcodes in, a graph of values out, nothing ever called.
 * The stack and the marks follow Python's unpickler: a MARK starts a new segment of the
 * stack and the opcodes that take "the items since the mark" close it. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pickle_impl.h"
#include "base/bytes.h"
#include "gatetui/utf8.h"

/* A memo key may run this far ahead of the number of keys stored so far. */
#define MEMO_SLACK 1024
#define MAX_LINE 4096

/* ---- the stack ---- */

static size_t seg_base(const pk_machine *pm)
{
    return pm->nmarks ? pm->marks[pm->nmarks - 1] : 0;
}

static int push(pk_machine *pm, pk_value *v)
{
    if (!v)
        return GT_EINPUT;
    if (pm->sp >= PK_MAX_STACK)
        return pk_fail(pm, "more than %u entries on the stack", PK_MAX_STACK);
    if (grow_array(&pm->stack, &pm->stack_cap, pm->sp, sizeof *pm->stack, 64))
        return pk_oom(pm);
    pm->stack[pm->sp++] = v;
    return GT_OK;
}

static pk_value *pop(pk_machine *pm)
{
    if (pm->sp <= seg_base(pm)) {
        pk_fail(pm, "stack underflow");
        return NULL;
    }
    return pm->stack[--pm->sp];
}

static pk_value *top(pk_machine *pm)
{
    if (pm->sp <= seg_base(pm)) {
        pk_fail(pm, "stack underflow");
        return NULL;
    }
    return pm->stack[pm->sp - 1];
}

static int push_mark(pk_machine *pm)
{
    if (pm->nmarks >= PK_MAX_MARKS)
        return pk_fail(pm, "more than %u open marks", PK_MAX_MARKS);
    if (grow_array(&pm->marks, &pm->marks_cap, pm->nmarks, sizeof *pm->marks, 32))
        return pk_oom(pm);
    pm->marks[pm->nmarks++] = pm->sp;
    return GT_OK;
}

/* Closes the last mark: its items are stack[*from .. *from + *n). */
static int pop_mark(pk_machine *pm, size_t *from, size_t *n)
{
    if (!pm->nmarks)
        return pk_fail(pm, "no mark to close");
    *from = pm->marks[--pm->nmarks];
    *n = pm->sp - *from;
    pm->sp = *from;
    return GT_OK;
}

/* ---- reading the input ---- */

static const unsigned char *take(pk_machine *pm, size_t n)
{
    if ((size_t)(pm->end - pm->p) < n) {
        pk_fail(pm, "the pickle ends inside an opcode (truncated)");
        return NULL;
    }
    const unsigned char *q = pm->p;
    pm->p += n;
    return q;
}

/* A text argument ending in a newline (not included); *n its length. */
static const char *line(pk_machine *pm, size_t *n)
{
    size_t avail = (size_t)(pm->end - pm->p);
    const unsigned char *nl = memchr(pm->p, '\n', avail < MAX_LINE ? avail : MAX_LINE);
    if (!nl) {
        pk_fail(pm, "a text argument with no newline within %d bytes", MAX_LINE);
        return NULL;
    }
    const char *s = (const char *)pm->p;
    *n = (size_t)(nl - pm->p);
    pm->p = nl + 1;
    return s;
}

/* A decimal integer in the text (INT, LONG, GET, PUT); *big set when it does not fit in 64
 * bits (then *out is 0). */
static int line_int(pk_machine *pm, int64_t *out, int *big)
{
    size_t n;
    const char *s = line(pm, &n);
    if (!s)
        return GT_EINPUT;
    char buf[MAX_LINE + 1];
    if (n && s[n - 1] == 'L')
        n--;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (n == 0 || *end || (errno && errno != ERANGE))
        return pk_fail(pm, "\"%.40s\" is not an integer", buf);
    *big = errno == ERANGE;
    *out = *big ? 0 : v;
    return GT_OK;
}

static pk_value *make_int(pk_machine *pm, pk_kind kind, int64_t i)
{
    pk_value *v = pk_alloc(pm, kind);
    if (v)
        v->u.i = i;
    return v;
}

static pk_value *make_str(pk_machine *pm, pk_kind kind, const char *s, size_t n)
{
    pk_value *v = pk_alloc(pm, kind);
    if (v) {
        v->u.str.s = s;
        v->u.str.n = n;
    }
    return v;
}

/* The bytes after a length of nlen bytes (signed when 4); their count in *n. */
static const unsigned char *prefixed(pk_machine *pm, unsigned nlen, size_t *n)
{
    const unsigned char *q = take(pm, nlen);
    if (!q)
        return NULL;
    uint64_t len = load_le(q, nlen);
    if (nlen == 4 && len > 0x7fffffffu) {
        pk_fail(pm, "a negative length");
        return NULL;
    }
    *n = len > SIZE_MAX ? SIZE_MAX : (size_t)len;
    return take(pm, *n);
}

/* A length-prefixed string or bytes. */
static pk_value *counted(pk_machine *pm, pk_kind kind, unsigned nlen)
{
    size_t n;
    const unsigned char *s = prefixed(pm, nlen, &n);
    return s ? make_str(pm, kind, (const char *)s, n) : NULL;
}

/* A little-endian two's complement integer of n bytes (LONG1, LONG4). */
static pk_value *long_bytes(pk_machine *pm, unsigned nlen)
{
    size_t n;
    const unsigned char *s = prefixed(pm, nlen, &n);
    if (!s)
        return NULL;
    if (n > 8)
        return make_str(pm, PK_BIGINT, (const char *)s, (size_t)n);
    uint64_t u = load_le(s, (unsigned)n);
    if (n && n < 8 && (s[n - 1] & 0x80))
        u |= ~(uint64_t)0 << (8 * n);
    return make_int(pm, PK_INT, (int64_t)u);
}

/* A STR of bytes read as Latin-1 (BINSTRING, SHORT_BINSTRING: Python 2's str), as UTF-8. */
static pk_value *latin1(pk_machine *pm, pk_value *v)
{
    if (!v)
        return NULL;
    size_t high = 0;
    for (size_t i = 0; i < v->u.str.n; i++)
        high += (unsigned char)v->u.str.s[i] >= 0x80;
    if (!high)
        return v;
    char *d = pk_bytes(pm, v->u.str.n + high), *o = d;
    if (!d)
        return NULL;
    for (size_t i = 0; i < v->u.str.n; i++)
        o += utf8_encode((unsigned char)v->u.str.s[i], o);
    v->u.str.s = d;
    v->u.str.n = (size_t)(o - d);
    return v;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The code point of the escape at s[*i] (after the backslash): \uXXXX and \UXXXXXXXX in
 * both forms, the C escapes and \xHH in a quoted STRING only. -1 when it is not one. */
static long escape(const char *s, size_t n, size_t *i, int unicode)
{
    char c = s[*i];
    int digits = c == 'u' ? 4 : c == 'U' ? 8 : c == 'x' && !unicode ? 2 : 0;
    if (digits) {
        if (n - *i - 1 < (size_t)digits)
            return -1;
        long v = 0;
        for (int k = 1; k <= digits; k++) {
            int h = hexval((unsigned char)s[*i + k]);
            if (h < 0)
                return -1;
            v = v * 16 + h;
        }
        *i += (size_t)digits + 1;
        return v;
    }
    if (unicode)
        return -1;
    static const char from[] = "\\'\"ntr", to[] = "\\'\"\n\t\r";
    const char *f = c ? strchr(from, c) : NULL;
    if (!f)
        return -1;
    (*i)++;
    return (unsigned char)to[f - from];
}

/* STRING (a quoted Python literal) and UNICODE (raw-unicode-escape), as UTF-8. */
static pk_value *text_string(pk_machine *pm, int unicode)
{
    size_t n;
    const char *s = line(pm, &n);
    if (!s)
        return NULL;
    if (!unicode) {
        if (n < 2 || (s[0] != '\'' && s[0] != '"') || s[n - 1] != s[0]) {
            pk_fail(pm, "STRING argument is not quoted");
            return NULL;
        }
        s++;
        n -= 2;
    }
    char *d = pk_bytes(pm, 4 * n + 1), *o = d;
    if (!d)
        return NULL;
    for (size_t i = 0; i < n;) {
        long cp = (unsigned char)s[i++];
        if (cp == '\\' && i < n) {
            size_t j = i;
            long v = escape(s, n, &j, unicode);
            if (v >= 0) {
                cp = v;
                i = j;
            }
        }
        int k = utf8_encode((uint32_t)cp, o);
        if (!k) {
            pk_fail(pm, "an escape that is not a character");
            return NULL;
        }
        o += k;
    }
    return make_str(pm, PK_STR, d, (size_t)(o - d));
}

static pk_value *text_float(pk_machine *pm)
{
    size_t n;
    const char *s = line(pm, &n);
    if (!s)
        return NULL;
    char buf[128];
    if (n == 0 || n >= sizeof buf) {
        pk_fail(pm, "a float of %zu characters", n);
        return NULL;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    if (*end) {
        pk_fail(pm, "\"%s\" is not a float", buf);
        return NULL;
    }
    pk_value *v = pk_alloc(pm, PK_FLOAT);
    if (v)
        v->u.f = d;
    return v;
}

static pk_value *bin_float(pk_machine *pm)
{
    const unsigned char *q = take(pm, 8);
    if (!q)
        return NULL;
    uint64_t b = 0;
    for (int i = 0; i < 8; i++)
        b = b << 8 | q[i]; /* big-endian */
    pk_value *v = pk_alloc(pm, PK_FLOAT);
    if (v)
        memcpy(&v->u.f, &b, 8);
    return v;
}

/* ---- the memo ---- */

static int memo_put(pk_machine *pm, uint64_t key)
{
    pk_value *v = top(pm);
    if (!v)
        return GT_EINPUT;
    if (key >= (uint64_t)2 * pm->memo_puts + MEMO_SLACK)
        return pk_fail(pm, "memo key %llu is far beyond the %zu stored so far",
                       (unsigned long long)key, pm->memo_puts);
    if (key >= pm->memo_cap) {
        size_t cap = pm->memo_cap ? pm->memo_cap : 64;
        while (cap <= key)
            cap *= 2;
        pk_value **nm = realloc(pm->memo, cap * sizeof *nm);
        if (!nm)
            return pk_oom(pm);
        memset(nm + pm->memo_cap, 0, (cap - pm->memo_cap) * sizeof *nm);
        pm->memo = nm;
        pm->memo_cap = cap;
    }
    pm->memo[key] = v;
    pm->memo_puts++;
    return GT_OK;
}

static int memo_get(pk_machine *pm, uint64_t key)
{
    if (key >= pm->memo_cap || !pm->memo[key])
        return pk_fail(pm, "memo key %llu was never stored", (unsigned long long)key);
    return push(pm, pm->memo[key]);
}

static int text_key(pk_machine *pm, uint64_t *key)
{
    int64_t k;
    int big;
    if (line_int(pm, &k, &big))
        return GT_EINPUT;
    if (k < 0 || big)
        return pk_fail(pm, "a negative memo key");
    *key = (uint64_t)k;
    return GT_OK;
}

/* ---- containers ---- */

static pk_value *seq_from(pk_machine *pm, pk_kind kind, size_t from, size_t n)
{
    pk_value *v = pk_alloc(pm, kind);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (pk_list_push(pm, &v->u.seq, pm->stack[from + i]))
            return NULL;
    return v;
}

static int op_tuple_n(pk_machine *pm, size_t n)
{
    if (pm->sp - seg_base(pm) < n)
        return pk_fail(pm, "stack underflow");
    pm->sp -= n;
    return push(pm, seq_from(pm, PK_TUPLE, pm->sp, n));
}

static int op_from_mark(pk_machine *pm, pk_kind kind)
{
    size_t from = 0, n = 0;
    if (pop_mark(pm, &from, &n))
        return GT_EINPUT;
    if (kind == PK_DICT && n % 2)
        return pk_fail(pm, "an odd number of items for a dict");
    return push(pm, seq_from(pm, kind, from, n));
}

/* Adds the items stack[from..from+n) to target (SETITEM(S), APPEND(S), ADDITEMS). */
static int add_items(pk_machine *pm, pk_value *target, size_t from, size_t n, int pairs)
{
    if (!target)
        return GT_EINPUT;
    if (pairs && n % 2)
        return pk_fail(pm, "an odd number of items for a dict");
    pk_value *into = target;
    if (target->kind == PK_OBJECT) {
        /* an object of a class pickled as a dict or a list: keep its items */
        pk_value **slot = pairs ? &target->u.obj.items : &target->u.obj.list;
        if (!*slot && !(*slot = pk_alloc(pm, pairs ? PK_DICT : PK_LIST)))
            return GT_EINPUT;
        into = *slot;
    } else if (target->kind != (pairs == 1 ? PK_DICT : pairs == 0 ? PK_LIST : PK_SET)) {
        return pk_fail(pm, "items added to a value that cannot hold them");
    }
    for (size_t i = 0; i < n; i++)
        if (pk_list_push(pm, &into->u.seq, pm->stack[from + i]))
            return GT_EINPUT;
    return GT_OK;
}

static int op_setitem(pk_machine *pm, int mark, int pairs)
{
    size_t from = 0, n = 0;
    if (mark) {
        if (pop_mark(pm, &from, &n))
            return GT_EINPUT;
    } else {
        n = pairs == 1 ? 2 : 1;
        if (pm->sp - seg_base(pm) < n + 1)
            return pk_fail(pm, "stack underflow");
        pm->sp -= n;
        from = pm->sp;
    }
    return add_items(pm, top(pm), from, n, pairs);
}

/* ---- classes and calls ---- */

static int op_global(pk_machine *pm)
{
    size_t nm, nn;
    const char *m = line(pm, &nm);
    if (!m)
        return GT_EINPUT;
    const char *n = line(pm, &nn);
    if (!n)
        return GT_EINPUT;
    pk_value *v = pk_alloc(pm, PK_GLOBAL);
    if (!v || !(v->u.global.module = pk_strdup(pm, m, nm)) ||
        !(v->u.global.name = pk_strdup(pm, n, nn)))
        return GT_EINPUT;
    return push(pm, v);
}

static int op_stack_global(pk_machine *pm)
{
    pk_value *n = pop(pm), *m = n ? pop(pm) : NULL;
    if (!m)
        return GT_EINPUT;
    if (m->kind != PK_STR || n->kind != PK_STR)
        return pk_fail(pm, "STACK_GLOBAL wants two strings");
    pk_value *v = pk_alloc(pm, PK_GLOBAL);
    if (!v || !(v->u.global.module = pk_strdup(pm, m->u.str.s, m->u.str.n)) ||
        !(v->u.global.name = pk_strdup(pm, n->u.str.s, n->u.str.n)))
        return GT_EINPUT;
    return push(pm, v);
}

static int op_reduce(pk_machine *pm, int newobj)
{
    pk_value *kwargs = NULL;
    if (newobj == 2 && !(kwargs = pop(pm)))
        return GT_EINPUT;
    pk_value *args = pop(pm), *fn = args ? pop(pm) : NULL;
    if (!fn)
        return GT_EINPUT;
    return push(pm, pk_call(pm, fn, args, newobj ? PK_CALL_NEW : PK_CALL_REDUCE));
}

/* INST (module and name in the text) and OBJ (the class first after the mark). */
static int op_inst(pk_machine *pm, int obj)
{
    pk_value *cls = NULL;
    if (!obj) {
        if (op_global(pm))
            return GT_EINPUT;
        cls = pm->stack[--pm->sp];
    }
    size_t from = 0, n = 0;
    if (pop_mark(pm, &from, &n))
        return GT_EINPUT;
    if (obj) {
        if (n == 0)
            return pk_fail(pm, "OBJ without a class");
        cls = pm->stack[from++];
        n--;
    }
    pk_value *args = seq_from(pm, PK_TUPLE, from, n);
    return args ? push(pm, pk_call(pm, cls, args, PK_CALL_REDUCE)) : GT_EINPUT;
}

static int op_build(pk_machine *pm)
{
    pk_value *state = pop(pm), *obj = state ? top(pm) : NULL;
    if (!obj)
        return GT_EINPUT;
    switch (obj->kind) {
    case PK_OBJECT:
        obj->u.obj.state = state;
        return GT_OK;
    case PK_DICT: /* attributes of an OrderedDict (_metadata) */
    case PK_LIST:
    case PK_SET:
    case PK_TENSOR:
        return GT_OK;
    default:
        return pk_fail(pm, "BUILD on a value that has no state");
    }
}

static int op_persid(pk_machine *pm, int bin)
{
    pk_value *pid;
    if (bin) {
        pid = pop(pm);
    } else {
        size_t n;
        const char *s = line(pm, &n);
        pid = s ? make_str(pm, PK_STR, s, n) : NULL;
    }
    if (!pid)
        return GT_EINPUT;
    if (!pm->persistent)
        return pk_fail(pm, "a persistent id where none is expected");
    return push(pm, pm->persistent(pm->ctx, pm, pid));
}

/* ---- the loop ---- */

static int op_pop(pk_machine *pm)
{
    if (pm->sp > seg_base(pm)) {
        pm->sp--;
        return GT_OK;
    }
    size_t from = 0, n = 0;
    return pop_mark(pm, &from, &n);
}

static int op_int_text(pk_machine *pm)
{
    size_t n;
    const unsigned char *save = pm->p;
    const char *s = line(pm, &n);
    if (!s)
        return GT_EINPUT;
    if (n == 2 && (memcmp(s, "00", 2) == 0 || memcmp(s, "01", 2) == 0))
        return push(pm, make_int(pm, PK_BOOL, s[1] == '1'));
    pm->p = save;
    int64_t v;
    int big;
    if (line_int(pm, &v, &big))
        return GT_EINPUT;
    /* an integer beyond 64 bits: kept as BIGINT, its decimal text */
    return push(pm, big ? make_str(pm, PK_BIGINT, s, n) : make_int(pm, PK_INT, v));
}

/* One opcode; 1 at STOP. */
static int step(pk_machine *pm, int op)
{
    const unsigned char *q;
    uint64_t key = 0;
    switch (op) {
    case 0x80: /* PROTO */
        if (!(q = take(pm, 1)))
            return GT_EINPUT;
        return q[0] <= 5 ? GT_OK : pk_fail(pm, "pickle protocol %d (at most 5 is read)", q[0]);
    case 0x95: /* FRAME */
        return take(pm, 8) ? GT_OK : GT_EINPUT;
    case '(': return push_mark(pm);
    case '0': return op_pop(pm);
    case '1': { size_t f = 0, n = 0; return pop_mark(pm, &f, &n); }
    case '2': { pk_value *v = top(pm); return v ? push(pm, v) : GT_EINPUT; }
    case 'N': return push(pm, pk_alloc(pm, PK_NONE));
    case 0x88: return push(pm, make_int(pm, PK_BOOL, 1));
    case 0x89: return push(pm, make_int(pm, PK_BOOL, 0));
    case 'I': return op_int_text(pm);
    case 'L': return op_int_text(pm);
    case 'J': return (q = take(pm, 4)) ? push(pm, make_int(pm, PK_INT, (int32_t)load_le(q, 4))) : GT_EINPUT;
    case 'K': return (q = take(pm, 1)) ? push(pm, make_int(pm, PK_INT, q[0])) : GT_EINPUT;
    case 'M': return (q = take(pm, 2)) ? push(pm, make_int(pm, PK_INT, (int64_t)load_le(q, 2))) : GT_EINPUT;
    case 0x8a: return push(pm, long_bytes(pm, 1));
    case 0x8b: return push(pm, long_bytes(pm, 4));
    case 'F': return push(pm, text_float(pm));
    case 'G': return push(pm, bin_float(pm));
    case 'S': return push(pm, text_string(pm, 0));
    case 'V': return push(pm, text_string(pm, 1));
    case 'T': return push(pm, latin1(pm, counted(pm, PK_STR, 4)));
    case 'U': return push(pm, latin1(pm, counted(pm, PK_STR, 1)));
    case 'X': return push(pm, counted(pm, PK_STR, 4));
    case 0x8c: return push(pm, counted(pm, PK_STR, 1));
    case 0x8d: return push(pm, counted(pm, PK_STR, 8));
    case 'B': return push(pm, counted(pm, PK_BYTES, 4));
    case 'C': return push(pm, counted(pm, PK_BYTES, 1));
    case 0x8e: case 0x96: return push(pm, counted(pm, PK_BYTES, 8));
    case ')': return push(pm, pk_alloc(pm, PK_TUPLE));
    case 't': return op_from_mark(pm, PK_TUPLE);
    case 0x85: return op_tuple_n(pm, 1);
    case 0x86: return op_tuple_n(pm, 2);
    case 0x87: return op_tuple_n(pm, 3);
    case ']': return push(pm, pk_alloc(pm, PK_LIST));
    case 'l': return op_from_mark(pm, PK_LIST);
    case 'a': return op_setitem(pm, 0, 0);
    case 'e': return op_setitem(pm, 1, 0);
    case '}': return push(pm, pk_alloc(pm, PK_DICT));
    case 'd': return op_from_mark(pm, PK_DICT);
    case 's': return op_setitem(pm, 0, 1);
    case 'u': return op_setitem(pm, 1, 1);
    case 0x8f: return push(pm, pk_alloc(pm, PK_SET));
    case 0x90: return op_setitem(pm, 1, 2);
    case 0x91: return op_from_mark(pm, PK_SET);
    case 'c': return op_global(pm);
    case 0x93: return op_stack_global(pm);
    case 'R': return op_reduce(pm, 0);
    case 0x81: return op_reduce(pm, 1);
    case 0x92: return op_reduce(pm, 2);
    case 'i': return op_inst(pm, 0);
    case 'o': return op_inst(pm, 1);
    case 'b': return op_build(pm);
    case 'P': return op_persid(pm, 0);
    case 'Q': return op_persid(pm, 1);
    case 'g': return text_key(pm, &key) ? GT_EINPUT : memo_get(pm, key);
    case 'h': return (q = take(pm, 1)) ? memo_get(pm, q[0]) : GT_EINPUT;
    case 'j': return (q = take(pm, 4)) ? memo_get(pm, load_le(q, 4)) : GT_EINPUT;
    case 'p': return text_key(pm, &key) ? GT_EINPUT : memo_put(pm, key);
    case 'q': return (q = take(pm, 1)) ? memo_put(pm, q[0]) : GT_EINPUT;
    case 'r': return (q = take(pm, 4)) ? memo_put(pm, load_le(q, 4)) : GT_EINPUT;
    case 0x94: return memo_put(pm, pm->memo_puts);
    case 0x82: case 0x83: case 0x84:
        return pk_fail(pm, "extension registry codes (EXT1/2/4) are not read");
    case 0x97: return pk_fail(pm, "out-of-band buffers (NEXT_BUFFER) are not read");
    case 0x98: return top(pm) ? GT_OK : GT_EINPUT;
    case '.': return 1;
    default:
        return pk_fail(pm, "unknown opcode 0x%02x", op);
    }
}

int pk_run(pk_machine *pm, const char *what, const unsigned char *p, size_t n, size_t *used,
           pk_value **root, pk_persistent_fn persistent, void *ctx)
{
    pm->what = what;
    pm->start = pm->p = p;
    pm->end = p + n;
    pm->sp = pm->nmarks = 0;
    pm->memo_puts = 0;
    if (pm->memo)
        memset(pm->memo, 0, pm->memo_cap * sizeof *pm->memo);
    pm->persistent = persistent;
    pm->ctx = ctx;
    pk_bound_memory(pm, n);
    for (;;) {
        pm->op_pos = (size_t)(pm->p - pm->start);
        if (pm->p == pm->end) {
            pk_fail(pm, "the pickle ends without STOP (truncated)");
            break;
        }
        int rc = step(pm, *pm->p++);
        if (pm->failed)
            break;
        if (rc == 1) {
            if (pm->sp != 1 || pm->nmarks)
                return pk_fail(pm, "STOP with %zu values and %zu marks left", pm->sp,
                               pm->nmarks);
            *root = pm->stack[0];
            *used = (size_t)(pm->p - pm->start);
            return GT_OK;
        }
        if (rc)
            return pk_fail(pm, "bad opcode 0x%02x", pm->start[pm->op_pos]);
    }
    return pm->e ? pm->e->code : GT_EINPUT;
}
