/* Telling model files from other files by their first bytes, and saying what a file that
 * is not a model looks like and what to do (a text, a zip of something else, Keras HDF5,
 * ONNX, TorchScript, a compressed file, ...). */
#ifndef GATETUI_ENGINE_FILEKIND_H
#define GATETUI_ENGINE_FILEKIND_H

#include <stddef.h>

#include "format/zipread.h"
#include "gatetui/error.h"

/* 1 when the file starts like safetensors: a header length, then JSON. */
int filekind_is_safetensors(const unsigned char *b, size_t n);
/* 1 when the zip archive is what torch.save writes (data.pkl, not TorchScript's code/). */
int filekind_is_torch_zip(const zr_archive *z);
/* The refusal of a zip archive that is not a torch.save file. */
int filekind_is_npz(const zr_archive *z);
int filekind_other_zip(const zr_archive *z, const char *path, gt_error *e);
/* The refusal of a file of neither format, saying what it looks like. */
int filekind_describe(const unsigned char *b, size_t n, const char *path, gt_error *e);

#endif
