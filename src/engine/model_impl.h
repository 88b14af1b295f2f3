/* Inside model loading: what model.c (the layers), model_io.c (the embedding and the
 * readout) and vocab.c (the vocabulary) share. */
#ifndef GATETUI_ENGINE_MODEL_IMPL_H
#define GATETUI_ENGINE_MODEL_IMPL_H

#include "format/modelfile.h"
#include "gatetui/model.h"

/* Keeps p to free with the model; NULL when p is NULL or the list cannot grow. */
void *model_own(gt_model *m, void *p);
/* t's values as float32, in place or converted; NaN and infinities refused. */
int model_weights(gt_model *m, const gt_tensor *t, const float **out, gt_error *e);
const float *model_zeros(gt_model *m, size_t n);
int model_bad_shape(const gt_model *m, const gt_tensor *t, const char *want, gt_error *e);
int model_is_recurrent(const gt_model *m, const gt_tensor *t);
int model_is_2d(const gt_tensor *t, uint64_t rows, uint64_t cols);
/* Orders pointers to tensors by their first element, then dtype, shape and strides: 0 for
 * two names of one view (a tied readout, fastai's encoder_dp.emb beside its encoder). */
int model_view_cmp(const void *a, const void *b);
/* a (rows, P) times a projection hr (P, H), summed in float64, as float32 and owned by m:
 * weights that read h = hr m made into weights that read m (doc/model-files.md); NULL when
 * out of memory. */
const float *model_fold_projection(gt_model *m, const float *a, size_t rows, const float *hr);

/* The embedding (or one-hot input) and the readout, once the layers are known. */
int model_load_io(gt_model *m, const gt_model_options *opt, gt_error *e);
/* After the vocabulary: a model without a readout but a tensor named as one (fc, decoder,
 * ...) that reads the top layer's cells for a count of tokens within a tenth of the
 * model's (at least one either way) is refused, naming both, rather than read as a model
 * without a readout (a readout of 61 rows beside 62 tokens); a head of a few classes
 * stays a model without a readout. */
int model_check_readout(const gt_model *m, gt_error *e);
/* Layer 0's input part for every token (m->x_table), when it is not too large. */
int model_input_table(gt_model *m, gt_error *e);
/* The same in double, layer 0's W_ih x_v + b_ih, each sum over j in order: token v's row
 * into out[0..GH), or every token's into tab (V x GH) with et the embedding transposed (D x
 * V, model_emb_t; NULL for a model without one, or when out of memory: a token at a time). */
void model_input_row64(const gt_model *m, size_t v, double *out, size_t GH);
void model_input_rows64(const gt_model *m, const float *et, double *tab, size_t GH);
/* The float32 table's dot products W_ih[r] x_v, in double before the bias, of the four
 * tokens from v0 (v0 + 4 <= V) at once: each in eight partial sums over j (j mod 8), then
 * combined ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)), then the remainder in order. */
void model_input_dots(const gt_model *m, const float *et, size_t r, size_t v0, double *out);
/* The embedding transposed, D x V (malloc'd), or NULL without one. */
float *model_emb_t(const gt_model *m);
/* A word model's vocabulary v (vocabword.c): its texts kept, its look-up made; refuses a
 * token listed twice. */
int vocab_set_words(gt_model *m, const gt_vocab_found *v, gt_error *e);
/* The vocabulary: --vocab-from, the file's, or bytes. */
int model_load_vocab(gt_model *m, const gt_model_options *opt, gt_error *e);

/* The most weights a projected LSTM's folding may make (model.c, model_io.c): a small
 * hostile file cannot ask for a huge allocation. */
#define MAX_FOLDED_WEIGHTS (1ull << 26)

#endif
