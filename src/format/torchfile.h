/* A file torch.save wrote, read without Python (doc/model-files.md): the zip format of
 * PyTorch 1.6 and later (data.pkl and one stored entry per storage) and the legacy format
 * (_use_new_zipfile_serialization=False: pickles followed by the storages' bytes). The
 * pickle becomes a graph of values (pickle.h) whose tensors point into the file as read. */
#ifndef GATETUI_ENGINE_TORCHFILE_H
#define GATETUI_ENGINE_TORCHFILE_H

#include <stddef.h>

#include "format/pickle.h"
#include "format/zipread.h"
#include "gatetui/error.h"
#include "format/tensor.h"

typedef struct torch_file {
    const char *path;
    int legacy;
    pk_machine *pm;
    pk_value *root;        /* what torch.save was given */
    zr_archive zip;
    char *prefix;          /* the archive's folder, "archive/" */
    pk_value **storage;    /* every storage the pickle made */
    size_t nstorage, storage_cap;
} torch_file;

/* The length of the pickle of PyTorch's magic number that starts the legacy format, or 0
 * when base does not start with one. */
size_t torch_looks_legacy(const unsigned char *base, size_t size);

/* Reads the torch.save file at base[0..size) (zip: zr_open'ed in z by the caller, who
 * passes it over). On failure t is left closed. */
int torch_open_zip(torch_file *t, const char *path, zr_archive *z, gt_error *e);
int torch_open_legacy(torch_file *t, const char *path, const unsigned char *base, size_t size,
                      gt_error *e);
void torch_close(torch_file *t);

/* The tensor v (PK_TENSOR) named name, pointing into the file. */
void torch_tensor(const pk_value *v, char *name, gt_tensor *out);

#endif
