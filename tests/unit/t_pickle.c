/* The pickle machine on pickles Python's own pickle module wrote (protocols 0 to 5) of
 * one known object, checked value by value; objects of other classes kept with their
 * state; calls that run code refused through every call opcode. */
#include <stdio.h>
#include <string.h>

#include "format/pickle.h"
#include "../lib/tap.h"

/* pickle.dumps(OBJ, protocol=p) by Python 3.11 for p = 0..5, where OBJ is
 * {'a': [1, 2.5, 'x', None, True, False], 'b': (3, -4, 1 << 40, -(1 << 70)),
 *  'c': '\u00e9\u20ac', 'd': b'\x00\xff', 'e': {7: 'seven'}, 'f': {1, 2},
 *  'g': collections.OrderedDict(z=1)} */
static const struct {
    const char *bytes;
    size_t n;
} known[] = {
#define P(s) {s, sizeof s - 1}
    P("(dp0\x0a""Va\x0a""p1\x0a""(lp2\x0a""I1\x0a""aF2.5\x0a""aVx\x0a""p3\x0a""aNaI01\x0a""aI00\x0a""asVb\x0a""p4\x0a""(I3\x0a""I-4\x0a""L1099511627776L\x0a""L-1180591620717411303424L\x0a""tp5\x0a""sVc\x0a""p6\x0a""V\xe9""\x5c""u20ac\x0a""p7\x0a""sVd\x0a""p8\x0a""c_codecs\x0a""encode\x0a""p9\x0a""(V\x5c""u0000\xff""\x0a""p10\x0a""Vlatin1\x0a""p11\x0a""tp12\x0a""Rp13\x0a""sVe\x0a""p14\x0a""(dp15\x0a""I7\x0a""Vseven\x0a""p16\x0a""ssVf\x0a""p17\x0a""c__builtin__\x0a""set\x0a""p18\x0a""((lp19\x0a""I1\x0a""aI2\x0a""atp20\x0a""Rp21\x0a""sVg\x0a""p22\x0a""ccollections\x0a""OrderedDict\x0a""p23\x0a""(tRp24\x0a""Vz\x0a""p25\x0a""I1\x0a""ss."),
    P("}q\x00""(X\x01""\x00""\x00""\x00""aq\x01""]q\x02""(K\x01""G@\x04""\x00""\x00""\x00""\x00""\x00""\x00""X\x01""\x00""\x00""\x00""xq\x03""NI01\x0a""I00\x0a""eX\x01""\x00""\x00""\x00""bq\x04""(K\x03""J\xfc""\xff""\xff""\xff""L1099511627776L\x0a""L-1180591620717411303424L\x0a""tq\x05""X\x01""\x00""\x00""\x00""cq\x06""X\x05""\x00""\x00""\x00""\xc3""\xa9""\xe2""\x82""\xac""q\x07""X\x01""\x00""\x00""\x00""dq\x08""c_codecs\x0a""encode\x0a""q\x09""(X\x03""\x00""\x00""\x00""\x00""\xc3""\xbf""q\x0a""X\x06""\x00""\x00""\x00""latin1q\x0b""tq\x0c""Rq\x0d""X\x01""\x00""\x00""\x00""eq\x0e""}q\x0f""K\x07""X\x05""\x00""\x00""\x00""sevenq\x10""sX\x01""\x00""\x00""\x00""fq\x11""c__builtin__\x0a""set\x0a""q\x12""(]q\x13""(K\x01""K\x02""etq\x14""Rq\x15""X\x01""\x00""\x00""\x00""gq\x16""ccollections\x0a""OrderedDict\x0a""q\x17"")Rq\x18""X\x01""\x00""\x00""\x00""zq\x19""K\x01""su."),
    P("\x80""\x02""}q\x00""(X\x01""\x00""\x00""\x00""aq\x01""]q\x02""(K\x01""G@\x04""\x00""\x00""\x00""\x00""\x00""\x00""X\x01""\x00""\x00""\x00""xq\x03""N\x88""\x89""eX\x01""\x00""\x00""\x00""bq\x04""(K\x03""J\xfc""\xff""\xff""\xff""\x8a""\x06""\x00""\x00""\x00""\x00""\x00""\x01""\x8a""\x09""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\xc0""tq\x05""X\x01""\x00""\x00""\x00""cq\x06""X\x05""\x00""\x00""\x00""\xc3""\xa9""\xe2""\x82""\xac""q\x07""X\x01""\x00""\x00""\x00""dq\x08""c_codecs\x0a""encode\x0a""q\x09""X\x03""\x00""\x00""\x00""\x00""\xc3""\xbf""q\x0a""X\x06""\x00""\x00""\x00""latin1q\x0b""\x86""q\x0c""Rq\x0d""X\x01""\x00""\x00""\x00""eq\x0e""}q\x0f""K\x07""X\x05""\x00""\x00""\x00""sevenq\x10""sX\x01""\x00""\x00""\x00""fq\x11""c__builtin__\x0a""set\x0a""q\x12""]q\x13""(K\x01""K\x02""e\x85""q\x14""Rq\x15""X\x01""\x00""\x00""\x00""gq\x16""ccollections\x0a""OrderedDict\x0a""q\x17"")Rq\x18""X\x01""\x00""\x00""\x00""zq\x19""K\x01""su."),
    P("\x80""\x03""}q\x00""(X\x01""\x00""\x00""\x00""aq\x01""]q\x02""(K\x01""G@\x04""\x00""\x00""\x00""\x00""\x00""\x00""X\x01""\x00""\x00""\x00""xq\x03""N\x88""\x89""eX\x01""\x00""\x00""\x00""bq\x04""(K\x03""J\xfc""\xff""\xff""\xff""\x8a""\x06""\x00""\x00""\x00""\x00""\x00""\x01""\x8a""\x09""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\xc0""tq\x05""X\x01""\x00""\x00""\x00""cq\x06""X\x05""\x00""\x00""\x00""\xc3""\xa9""\xe2""\x82""\xac""q\x07""X\x01""\x00""\x00""\x00""dq\x08""C\x02""\x00""\xff""q\x09""X\x01""\x00""\x00""\x00""eq\x0a""}q\x0b""K\x07""X\x05""\x00""\x00""\x00""sevenq\x0c""sX\x01""\x00""\x00""\x00""fq\x0d""cbuiltins\x0a""set\x0a""q\x0e""]q\x0f""(K\x01""K\x02""e\x85""q\x10""Rq\x11""X\x01""\x00""\x00""\x00""gq\x12""ccollections\x0a""OrderedDict\x0a""q\x13"")Rq\x14""X\x01""\x00""\x00""\x00""zq\x15""K\x01""su."),
    P("\x80""\x04""\x95""\x9e""\x00""\x00""\x00""\x00""\x00""\x00""\x00""}\x94""(\x8c""\x01""a\x94""]\x94""(K\x01""G@\x04""\x00""\x00""\x00""\x00""\x00""\x00""\x8c""\x01""x\x94""N\x88""\x89""e\x8c""\x01""b\x94""(K\x03""J\xfc""\xff""\xff""\xff""\x8a""\x06""\x00""\x00""\x00""\x00""\x00""\x01""\x8a""\x09""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\xc0""t\x94""\x8c""\x01""c\x94""\x8c""\x05""\xc3""\xa9""\xe2""\x82""\xac""\x94""\x8c""\x01""d\x94""C\x02""\x00""\xff""\x94""\x8c""\x01""e\x94""}\x94""K\x07""\x8c""\x05""seven\x94""s\x8c""\x01""f\x94""\x8f""\x94""(K\x01""K\x02""\x90""\x8c""\x01""g\x94""\x8c""\x0b""collections\x94""\x8c""\x0b""OrderedDict\x94""\x93""\x94"")R\x94""\x8c""\x01""z\x94""K\x01""su."),
    P("\x80""\x05""\x95""\x9e""\x00""\x00""\x00""\x00""\x00""\x00""\x00""}\x94""(\x8c""\x01""a\x94""]\x94""(K\x01""G@\x04""\x00""\x00""\x00""\x00""\x00""\x00""\x8c""\x01""x\x94""N\x88""\x89""e\x8c""\x01""b\x94""(K\x03""J\xfc""\xff""\xff""\xff""\x8a""\x06""\x00""\x00""\x00""\x00""\x00""\x01""\x8a""\x09""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\x00""\xc0""t\x94""\x8c""\x01""c\x94""\x8c""\x05""\xc3""\xa9""\xe2""\x82""\xac""\x94""\x8c""\x01""d\x94""C\x02""\x00""\xff""\x94""\x8c""\x01""e\x94""}\x94""K\x07""\x8c""\x05""seven\x94""s\x8c""\x01""f\x94""\x8f""\x94""(K\x01""K\x02""\x90""\x8c""\x01""g\x94""\x8c""\x0b""collections\x94""\x8c""\x0b""OrderedDict\x94""\x93""\x94"")R\x94""\x8c""\x01""z\x94""K\x01""su."),
};

/* pickle.dumps(argparse.Namespace(x=1, name='run'), protocol=p) for p = 0, 2, 4 */
static const struct {
    const char *bytes;
    size_t n;
} namespaces[] = {
    P("ccopy_reg\x0a""_reconstructor\x0a""p0\x0a""(cargparse\x0a""Namespace\x0a""p1\x0a""c__builtin__\x0a""object\x0a""p2\x0a""Ntp3\x0a""Rp4\x0a""(dp5\x0a""Vx\x0a""p6\x0a""I1\x0a""sVname\x0a""p7\x0a""Vrun\x0a""p8\x0a""sb."),
    P("\x80""\x02""cargparse\x0a""Namespace\x0a""q\x00"")\x81""q\x01""}q\x02""(X\x01""\x00""\x00""\x00""xq\x03""K\x01""X\x04""\x00""\x00""\x00""nameq\x04""X\x03""\x00""\x00""\x00""runq\x05""ub."),
    P("\x80""\x04""\x95""5\x00""\x00""\x00""\x00""\x00""\x00""\x00""\x8c""\x08""argparse\x94""\x8c""\x09""Namespace\x94""\x93""\x94"")\x81""\x94""}\x94""(\x8c""\x01""x\x94""K\x01""\x8c""\x04""name\x94""\x8c""\x03""run\x94""ub."),
};

static pk_value *run(pk_machine *pm, const char *bytes, size_t n, gt_error *e)
{
    pk_value *root = NULL;
    size_t used = 0;
    if (pk_run(pm, "test", (const unsigned char *)bytes, n, &used, &root, NULL, NULL) != GT_OK) {
        printf("# %s\n", e->msg);
        return NULL;
    }
    return used == n ? root : NULL;
}

static int is_int(const pk_value *v, pk_kind kind, int64_t i)
{
    return v && v->kind == kind && v->u.i == i;
}

static int seq_is(const pk_value *v, pk_kind kind, size_t n)
{
    return v && v->kind == kind && v->u.seq.n == n;
}

static int check_known(const pk_value *d)
{
    const pk_value *a = pk_dict_get(d, "a"), *b = pk_dict_get(d, "b"), *c = pk_dict_get(d, "c"),
                   *bytes = pk_dict_get(d, "d"), *e = pk_dict_get(d, "e"),
                   *f = pk_dict_get(d, "f"), *g = pk_dict_get(d, "g");
    int ok = seq_is(d, PK_DICT, 14) && seq_is(a, PK_LIST, 6) && seq_is(b, PK_TUPLE, 4);
    ok = ok && is_int(a->u.seq.v[0], PK_INT, 1) && a->u.seq.v[1]->kind == PK_FLOAT &&
         a->u.seq.v[1]->u.f == 2.5 && pk_is_str(a->u.seq.v[2], "x") &&
         a->u.seq.v[3]->kind == PK_NONE && is_int(a->u.seq.v[4], PK_BOOL, 1) &&
         is_int(a->u.seq.v[5], PK_BOOL, 0);
    ok = ok && is_int(b->u.seq.v[0], PK_INT, 3) && is_int(b->u.seq.v[1], PK_INT, -4) &&
         is_int(b->u.seq.v[2], PK_INT, (int64_t)1 << 40) && b->u.seq.v[3]->kind == PK_BIGINT;
    ok = ok && pk_is_str(c, "\xc3\xa9\xe2\x82\xac") && bytes && bytes->kind == PK_BYTES &&
         bytes->u.str.n == 2 && memcmp(bytes->u.str.s, "\x00\xff", 2) == 0;
    ok = ok && seq_is(e, PK_DICT, 2) && is_int(e->u.seq.v[0], PK_INT, 7) &&
         pk_is_str(e->u.seq.v[1], "seven");
    ok = ok && seq_is(f, PK_SET, 2) && is_int(f->u.seq.v[0], PK_INT, 1) &&
         is_int(f->u.seq.v[1], PK_INT, 2);
    return ok && seq_is(g, PK_DICT, 2) && is_int(pk_dict_get(g, "z"), PK_INT, 1);
}

static void test_known(void)
{
    for (size_t p = 0; p < sizeof known / sizeof known[0]; p++) {
        gt_error e = {0};
        pk_machine *pm = pk_new("t", &e);
        pk_value *root = run(pm, known[p].bytes, known[p].n, &e);
        tap_ok(root && check_known(root), "protocol %zu: every value of the known object", p);
        pk_free(pm);
    }
}

static void test_objects(void)
{
    for (size_t p = 0; p < sizeof namespaces / sizeof namespaces[0]; p++) {
        gt_error e = {0};
        pk_machine *pm = pk_new("t", &e);
        pk_value *root = run(pm, namespaces[p].bytes, namespaces[p].n, &e);
        tap_ok(root && root->kind == PK_OBJECT &&
                   pk_is_global(root->u.obj.cls, "argparse", "Namespace") &&
                   is_int(pk_dict_get(root->u.obj.state, "x"), PK_INT, 1) &&
                   pk_is_str(pk_dict_get(root->u.obj.state, "name"), "run"),
               "argparse.Namespace, %s: an opaque object with its class and state",
               p == 0 ? "protocol 0 (copyreg._reconstructor)" : "NEWOBJ and BUILD");
        pk_free(pm);
    }
    /* INST with a state dict; OBJ with an argument; a class never seen is not imported */
    static const char inst[] = "(i__main__\nThing\n(dp0\nS'k'\np1\nI5\nsb.";
    static const char obj[] = "(c__main__\nThing\nI1\no.";
    gt_error e = {0};
    pk_machine *pm = pk_new("t", &e);
    pk_value *a = run(pm, inst, sizeof inst - 1, &e);
    tap_ok(a && a->kind == PK_OBJECT && pk_is_global(a->u.obj.cls, "__main__", "Thing") &&
               is_int(pk_dict_get(a->u.obj.state, "k"), PK_INT, 5),
           "INST and BUILD: __main__.Thing kept with its state");
    pk_value *b = run(pm, obj, sizeof obj - 1, &e);
    tap_ok(b && b->kind == PK_OBJECT && seq_is(b->u.obj.args, PK_TUPLE, 1) &&
               is_int(b->u.obj.args->u.seq.v[0], PK_INT, 1),
           "OBJ: the class and its argument kept");
    pk_free(pm);
}

/* getattr(obj, name), a bound method as pickle writes it: an opaque value; a call of it,
 * or getattr of anything but an object the pickle built, refused */
static void test_bound_method(void)
{
    static const char bound[] = "\x80\x04" "c__builtin__\ngetattr\n" "c__main__\nWeightDrop\n)\x81"
                                 "\x8c\x04" "name\x86R.";
    gt_error e = {0};
    pk_machine *pm = pk_new("t", &e);
    pk_value *v = run(pm, bound, sizeof bound - 1, &e);
    tap_ok(v && v->kind == PK_OBJECT && pk_is_global(v->u.obj.cls, "__builtin__", "getattr") &&
               seq_is(v->u.obj.args, PK_TUPLE, 2),
           "getattr(WeightDrop(), 'name'): a bound method kept as an opaque value");
    pk_free(pm);
    static const char *const refused[][2] = {
        {"\x80\x04" "c__builtin__\ngetattr\n" "c__main__\nW\n)\x81" "\x8c\x01" "f\x86R)R.",
         "calls a value it built"},
        {"\x80\x04" "c__builtin__\ngetattr\n" "cos\nsystem\n" "\x8c\x01" "f\x86R.",
         "would call"},
        {"\x80\x04" "c__builtin__\ngetattr\n" "c__main__\nW\n)\x81" "\x8c\x09"
         "__class__\x86R.", "would call"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        gt_error e2 = {0};
        pk_machine *pm2 = pk_new("t", &e2);
        pk_value *root = NULL;
        size_t used;
        int rc = pk_run(pm2, "test", (const unsigned char *)refused[i][0], strlen(refused[i][0]),
                        &used, &root, NULL, NULL);
        tap_ok(rc == GT_EINPUT && strstr(e2.msg, refused[i][1]), "%s: %s", refused[i][1], e2.msg);
        pk_free(pm2);
    }
}

static void test_refused(void)
{
    static const struct {
        const char *bytes, *what;
    } calls[] = {
        {"cos\nsystem\n(S'touch x'\ntR.", "REDUCE os.system"},
        {"(S'touch x'\nios\nsystem\n.", "INST os.system"},
        {"(cposix\nsystem\nS'touch x'\no.", "OBJ posix.system"},
        {"\x80\x02" "csubprocess\nPopen\n)\x81.", "NEWOBJ subprocess.Popen"},
        {"\x80\x04\x8c\x08" "builtins\x8c\x04" "eval\x93S'1'\n\x85R.", "STACK_GLOBAL builtins.eval"},
        {"\x80\x02" "c__builtin__\ngetattr\n)R.", "getattr"},
        {"\x80\x02" "ccopyreg\n_reconstructor\ncos\nsystem\nN\x86R.", "copyreg around os.system"},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        gt_error e = {0};
        pk_machine *pm = pk_new("t", &e);
        pk_value *root = NULL;
        size_t used;
        int rc = pk_run(pm, "test", (const unsigned char *)calls[i].bytes,
                        strlen(calls[i].bytes), &used, &root, NULL, NULL);
        tap_ok(rc == GT_EINPUT && strstr(e.msg, "would call") && strstr(e.msg, "nothing was run"),
               "%s refused: %s", calls[i].what, e.msg);
        pk_free(pm);
    }
}

int main(void)
{
    test_known();
    test_objects();
    test_bound_method();
    test_refused();
    return tap_done();
}
