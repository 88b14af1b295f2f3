/* A NumPy archive (np.savez) read as a model file: its float arrays as tensors named as
 * np.savez was given them, a list of strings under a vocabulary's name as a vocabulary
 * (npzfile.c, doc/model-files.md). */
#ifndef GATETUI_FORMAT_NPZFILE_H
#define GATETUI_FORMAT_NPZFILE_H

#include "format/modelfile.h"
#include "format/zipread.h"
#include "gatetui/error.h"

/* Reads the .npy entries of z (the file as read, f->copy) into f's tensors and
 * vocabularies; f is closed by the caller on failure. */
int npz_read(gt_modelfile *f, const zr_archive *z, gt_error *e);

/* Refuses an archive whose arrays have neither min-char-rnn's names (once minchar_names
 * has named them) nor a state_dict's recurrent weights, naming them. */
int npz_check_model(const gt_modelfile *f, gt_error *e);

#endif
