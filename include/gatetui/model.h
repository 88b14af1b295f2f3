/* A character-level LSTM, GRU or plain RNN read from a model file (safetensors or
 * torch.save) with PyTorch's nn.LSTM / nn.GRU / nn.RNN (or stacked nn.LSTMCell /
 * nn.GRUCell / nn.RNNCell) state_dict names, and its vocabulary. */
#ifndef GATETUI_MODEL_H
#define GATETUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/cell.h"
#include "gatetui/error.h"

struct gt_modelfile;

/* The code point shown for a token no character maps to ("<pad>", "<unk>"). */
#define GT_NOCHAR_CP 0xFFFDu

/* Layer k of H_k units: its weights, G blocks of H_k rows each (gatetui/cell.h). Each layer
 * has its own width (stacked cells of different sizes); arrays over every layer's units
 * (a run's h and c, the trace's states) hold layer k's at [off_k, off_k + H_k) of
 * gt_model.hidden_total, and its gates at G off_k. */
typedef struct gt_layer {
    int hidden;          /* H_k */
    int in_dim;          /* D_k: the input width, H_(k-1) above layer 0 */
    size_t off;          /* off_k: H_0 + ... + H_(k-1) */
    const float *w_ih;   /* (G*H, D_k) */
    const float *w_hh;   /* (G*H, H) */
    const float *w_hr;   /* (P, H): the projection of nn.LSTM(proj_size=P), or NULL. It is
                            already folded into w_hh, the next layer's w_ih and the readout
                            (doc/model-files.md): the state computed is c and m = o * tanh c,
                            and h = w_hr m is what the file's next layer reads */
    const float *b_ih;   /* (G*H), zeros when the model has no biases */
    const float *b_hh;   /* (G*H), zeros when the model has no biases */
} gt_layer;

typedef struct gt_model {
    const gt_celltype *cell; /* what the cell is, its steps (gatetui/cell.h) */
    int gates;           /* G: 4 for an LSTM, 3 for a GRU, 1 for an RNN */
    int layers;          /* L */
    int hidden_max;      /* the largest H_k: room for any one layer's units */
    int hidden_total;    /* H_0 + ... + H_(L-1): arrays over every layer's units */
    int proj;            /* P: an LSTM's projection width (nn.LSTM(proj_size)), 0 for none */
    int vocab;           /* V */
    int input_dim;       /* D_0: V for one-hot input, the embedding width otherwise */
    int has_bias, has_embedding, has_readout;
    int gru_reset_before; /* 1: Cho et al. (reset before W_hn); 0: PyTorch (after) */
    int rnn_relu;        /* RNN: 1 for h = relu(a), 0 for tanh(a) */
    int nonlin_assumed;  /* RNN: 1 when the file does not say which (--nonlinearity) */
    gt_layer *layer;     /* [L] */
    const unsigned char *ablated; /* [hidden_total]: 1 where a unit is ablated, its c and h
                            held at 0 after every step (gatetui/intervene.h: iv_apply sets
                            it), or NULL for none; its rows of the step's derivative are 0
                            (gatetui/stepjac.h) */
    const float *emb;    /* (V, D_0) or NULL */
    const float *x_table; /* (V, G*H_0): layer 0's W_ih x_v + b_ih for each token v */
    const float *out_w;  /* (V, H_(L-1)) or NULL */
    const float *out_b;  /* (V) or NULL */
    uint32_t *vocab_cp;  /* [V]: the code point of each token (GT_NOCHAR_CP for a token
                            longer than one character, which no character maps to) */
    int vocab_special;   /* how many tokens are such */
    const char *vocab_where; /* where the vocabulary came from ("metadata vocab", ...) */
    int vocab_bytes;     /* 1: tokens are bytes 0..255 (no vocabulary given) */
    int vocab_beside;    /* 1: the vocabulary came from a file found beside the model */
    char *vocab_beside_path; /* that file's path (owned), or NULL */
    char vocab_beside_sha[65]; /* its SHA-256 when it was read (gatetui/sha256.h) */
    uint32_t *lookup_cp; /* [lookup_n] sorted code points, and their tokens */
    uint16_t *lookup_tok;
    int lookup_n;        /* V less the tokens no character maps to */
    uint16_t lookup_ascii[128]; /* token + 1 of each ASCII character in lookup_cp (0: none,
                            or not set: looked up in lookup_cp) */
    /* A word model (doc/model-files.md, "Word models"): its tokens are
     * words, the text is split on white space. vocab_cp is then GT_NOCHAR_CP for every
     * token and lookup_n 0: no character is a token. */
    int words;
    char **vocab_word;   /* [V] each token's text, NUL-terminated (word models) */
    uint32_t *vocab_len; /* [V] its length in bytes */
    uint16_t *word_sorted; /* [V] the tokens in the byte order of their texts */
    int tok_eos, tok_unk; /* the tokens "<eos>" and "<unk>", -1 when the vocabulary has none */
    long long params;    /* every element of the model's tensors */
    char left_out[200];  /* what of the file the model leaves out (an int8-quantized
                            readout), said on standard error; "" for nothing */
    char kind_text[48];  /* private: model_kind's text for a projected LSTM */
    char *path;
    char *prefix;        /* the prefix of layer 0's recurrent tensors */
    char *embedding_name; /* the embedding's tensor name, or NULL */
    char *readout_name;  /* the readout weight's tensor name, or NULL */
    struct gt_modelfile *file; /* private: the file, read into memory (format/modelfile.h) */
    unsigned char *recurrent; /* private: [file->ntensor], 1 for the layers' tensors */
    void **owned;        /* buffers to free */
    size_t nowned;
} gt_model;

enum { GT_TOKENS_CHARS = 1, GT_TOKENS_WORDS = 2 };

typedef struct gt_model_options {
    const char *vocab_from;  /* build the vocabulary from this file's characters */
    const char *vocab_file;  /* the vocabulary from this file (JSON forms or characters) */
    const char *embedding;   /* the embedding's tensor name, when several fit */
    int tokens;              /* --tokens: 0 as the vocabulary says, GT_TOKENS_CHARS, GT_TOKENS_WORDS */
    int gru_reset;           /* -1: from the file (default after), 0: after, 1: before */
    int nonlinearity;        /* RNN: -1 from the file (default tanh), 0: tanh, 1: relu */
} gt_model_options;

void model_options_init(gt_model_options *o);

/* Layer k's width H_k. */
static inline int model_width(const gt_model *m, int k)
{
    return m->layer[k].hidden;
}

/* Who has layer k's units, in messages: "the model" when its layers are all as wide, else
 * "layer K" (in buf, of at least 24 bytes). */
const char *model_units_of(const gt_model *m, int k, char *buf, size_t n);

/* The layers' widths for messages and headers: "512" when they are all as wide, else
 * "16, 24, 12" (in buf). */
const char *model_widths(const gt_model *m, char *buf, size_t n);
/* 1 when the layers are not all as wide. */
int model_widths_differ(const gt_model *m);

/* Reads and checks path. On failure nothing is left allocated and e says what. */
int model_load(gt_model *m, const char *path, const gt_model_options *opt, gt_error *e);
void model_free(gt_model *m);
/* 1 when m's file on disk is no longer the file it was read from (rewritten, replaced or
 * removed since: m is still the model as read), 0 when it is; a stat, no reading. */
int model_file_changed(const gt_model *m);

/* The token of code point cp, or -1 when it is not in the vocabulary (always -1 for a word
 * model). */
int model_token(const gt_model *m, uint32_t cp);
/* A word model's token spelled w[0..len), or -1 when it is not in the vocabulary. */
int model_word_token(const gt_model *m, const char *w, size_t len);
/* The token whose text is s: a word model's word, another model's one character (s its
 * UTF-8); -1 when s is no token of the vocabulary. */
int model_token_named(const gt_model *m, const char *s);
/* Token tok's text, as model_token_named reads it: a word model's word, or the character
 * as UTF-8 into buf (at least 8 bytes; "" for a token no character maps to). */
const char *model_token_text(const gt_model *m, int tok, char *buf);
/* How many of a word model's tokens begin with p[0..len) (0 for a character model); they
 * are m->word_sorted[*first ..], in the byte order of their texts. */
int model_word_prefix(const gt_model *m, const char *p, size_t len, int *first);

/* What one step reads, in messages and headings: "token" for a word model, "character"
 * otherwise; and the short form of tables ("token", "char"). */
static inline const char *model_step_noun(const gt_model *m)
{
    return m->words ? "token" : "character";
}
static inline const char *model_step_abbr(const gt_model *m)
{
    return m->words ? "token" : "char";
}

const char *model_arch_name(const gt_model *m);
/* The cell as the header names it: "LSTM", "LSTM (proj P)", "GRU", "RNN (tanh)",
 * "RNN (relu)", or with ", assumed: --nonlinearity" when neither the file nor the option
 * said which. */
const char *model_kind(const gt_model *m);
/* The letter of gate block b: "i","f","g","o", "r","z","n" or "a" (RNN). */
const char *model_gate_name(const gt_model *m, int b);
/* The carry gate's block: f for an LSTM, z for a GRU; -1 for an RNN (none). */
int model_carry_gate(const gt_model *m);
/* The blocks of the gates proper, the sigmoids (i, f, o or r, z: the carry gate second; not
 * the candidate g or n), into blocks[0..n); returns n (3, 2, or 0 for an RNN). */
int model_sigmoid_gates(const gt_model *m, int *blocks);

#endif
