/* libFuzzer target: any bytes as a torch.save file (zip or legacy format) or as a bare
 * pickle, read in memory by the zip reader and the pickle machine; the model and the
 * vocabularies looked for in what they build, and every tensor found read to the last
 * element (the sanitizers see any read outside the input). A refusal must be one
 * non-empty line. Build: tests/fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/filekind.h"
#include "format/torchfile.h"
#include "format/torchfind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refusal(int rc, const gt_error *e)
{
    if (rc && (!e->msg[0] || strchr(e->msg, '\n')))
        abort(); /* a refusal is one non-empty line */
}

/* The model and the vocabularies in the graph; every tensor read. */
static void search(torch_file *t)
{
    gt_error e = {0};
    tf_named *named = NULL;
    size_t n = 0;
    char *where = NULL;
    int rc = tf_find_model(t->root, "fuzz", &named, &n, &where, &e);
    check_refusal(rc, &e);
    for (size_t i = 0; i < n; i++) {
        gt_tensor g;
        torch_tensor(named[i].v, named[i].name, &g);
        if (g.nelem <= (1u << 16)) {
            float *buf = malloc((g.nelem ? g.nelem : 1) * sizeof *buf);
            gt_error e2 = {0};
            if (buf && g.dtype != GT_NONFLOAT)
                check_refusal(tensor_read_f32(&g, buf, "fuzz", &e2), &e2);
            free(buf);
        }
        free(named[i].name);
    }
    free(named);
    free(where);
    char *quantized = NULL;
    int dynamic = 0;
    gt_error eq = {0};
    rc = tf_find_quantized(t->root, "fuzz", &quantized, &dynamic, &eq);
    check_refusal(rc, &eq);
    free(quantized);
    gt_vocab_found *v = NULL;
    size_t nv = 0;
    char *tokenizer = NULL;
    gt_error e3 = {0};
    rc = tf_find_vocabs(t->root, "fuzz", &v, &nv, &tokenizer, &e3);
    free(tokenizer);
    check_refusal(rc, &e3);
    for (size_t i = 0; i < nv; i++) {
        for (size_t k = 0; k < v[i].ntok; k++)
            free(v[i].tok[k]);
        free(v[i].tok);
        free(v[i].where);
    }
    free(v);
}

/* A bare pickle: storages as persistent ids get a buffer of zeros behind them. */
static unsigned char zeros[1 << 16];

static pk_value *bare_persistent(void *ctx, pk_machine *pm, pk_value *pid)
{
    (void)ctx;
    pk_storage *s = pk_bytes(pm, sizeof *s);
    pk_value *v = s ? pk_alloc(pm, PK_STORAGE) : NULL;
    if (!v)
        return NULL;
    int64_t n = 16;
    if (pid->kind == PK_TUPLE && pid->u.seq.n >= 5)
        pk_int(pid->u.seq.v[4], &n);
    if (n < 0 || n > (int64_t)sizeof zeros / 4)
        n = 16;
    *s = (pk_storage){GT_F32, 4, "float32", "0", (uint64_t)n, 0, zeros};
    v->u.storage = s;
    return v;
}

static void bare_pickle(const uint8_t *data, size_t size)
{
    gt_error e = {0};
    pk_machine *pm = pk_new("fuzz", &e);
    if (!pm)
        return;
    torch_file t = {0};
    size_t used;
    int rc = pk_run(pm, "pickle", data, size, &used, &t.root, bare_persistent, NULL);
    check_refusal(rc, &e);
    if (rc == GT_OK)
        search(&t);
    pk_free(pm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_error e = {0};
    torch_file t;
    int rc;
    if (zr_looks_like_zip(data, size)) {
        zr_archive z;
        rc = zr_open(&z, "fuzz", data, size, &e);
        if (rc == GT_OK && !filekind_is_torch_zip(&z)) {
            rc = filekind_other_zip(&z, "fuzz", &e);
            zr_close(&z);
        } else if (rc == GT_OK && (rc = torch_open_zip(&t, "fuzz", &z, &e)) == GT_OK) {
            search(&t);
            torch_close(&t);
        }
    } else if (torch_looks_legacy(data, size)) {
        if ((rc = torch_open_legacy(&t, "fuzz", data, size, &e)) == GT_OK) {
            search(&t);
            torch_close(&t);
        }
    } else {
        rc = filekind_is_safetensors(data, size) ? GT_OK : filekind_describe(data, size, "fuzz", &e);
        bare_pickle(data, size);
    }
    check_refusal(rc, &e);
    return 0;
}
