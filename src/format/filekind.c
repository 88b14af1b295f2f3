/* What a file that is not a model looks like (filekind.h), from its first bytes or its
 * zip entries, and what to do about it (doc/model-files.md lists the messages). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "format/filekind.h"
#include "gatetui/utf8.h"

#define WHAT_MODELS "gatetui reads safetensors files and what torch.save wrote"

int filekind_is_safetensors(const unsigned char *b, size_t n)
{
    if (n < 9)
        return 0;
    uint64_t len = 0;
    for (int i = 7; i >= 0; i--)
        len = len << 8 | b[i];
    /* the JSON header follows the length: '{', or anything JSON when the length fits */
    return b[8] == '{' || (len <= n - 8 && strchr("[ \t\r\n\"", b[8]) && b[8]);
}

static int has_entry(const zr_archive *z, const char *suffix)
{
    size_t ns = strlen(suffix);
    for (size_t i = 0; i < z->n; i++) {
        const char *name = z->entry[i].name;
        size_t n = strlen(name);
        if (n >= ns && strcmp(name + n - ns, suffix) == 0)
            return 1;
    }
    return 0;
}

static int has_folder(const zr_archive *z, const char *part)
{
    for (size_t i = 0; i < z->n; i++)
        if (strstr(z->entry[i].name, part))
            return 1;
    return 0;
}

static int is_torchscript(const zr_archive *z)
{
    return has_entry(z, "/constants.pkl") || has_folder(z, "/code/");
}

/* torch.save's archive, or torch.jit.save's, whose data.pkl holds the module's
 * parameters and attributes the same way (doc/model-files.md, "Where the model is"). */
int filekind_is_torch_zip(const zr_archive *z)
{
    return has_entry(z, "/data.pkl");
}

/* np.savez's archive: .npy entries (doc/model-files.md, "min-char-rnn and NumPy
 * archives"). */
int filekind_is_npz(const zr_archive *z)
{
    return has_entry(z, ".npy");
}

int filekind_other_zip(const zr_archive *z, const char *path, gt_error *e)
{
    if (is_torchscript(z))
        return gt_fail(e, GT_EINPUT,
                       "%s: a TorchScript archive (torch.jit.save) without data.pkl, of a "
                       "PyTorch before 1.4: in Python, torch.save(torch.jit.load(\"%s\")"
                       ".state_dict(), \"model.pt\") gives one gatetui reads",
                       path, path);
    if (has_entry(z, "model.weights.h5") || has_entry(z, "config.json"))
        return gt_fail(e, GT_EINPUT,
                       "%s: a Keras archive (.keras), not a PyTorch model: convert it to ONNX "
                       "(tf2onnx) and that with gatetui-export",
                       path);
    if (has_entry(z, ".npy"))
        return gt_fail(e, GT_EINPUT,
                       "%s: a NumPy archive (.npz), not a model: %s (save the state_dict with "
                       "torch.save)",
                       path, WHAT_MODELS);
    char list[200] = "";
    for (size_t i = 0, k = 0; i < z->n && i < 3; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%.50s", i ? ", " : "",
                              z->entry[i].name);
    return gt_fail(e, GT_EINPUT,
                   "%s: a zip archive of %zu entries (%s%s) without data.pkl: not a torch.save "
                   "file; %s",
                   path, z->n, list, z->n > 3 ? ", ..." : "", WHAT_MODELS);
}

/* Mostly printable UTF-8 with no NUL in its first 4 KiB. */
static int looks_like_text(const unsigned char *b, size_t n)
{
    size_t len = n < 4096 ? n : 4096, bad = 0, chars = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int k = utf8_decode(b + i, len - i, &cp);
        if (cp == UTF8_INVALID && len - i < 4 && len < n)
            break; /* a character cut at the end of the sample */
        if (cp == 0)
            return 0;
        if (cp == UTF8_INVALID || (cp < 0x20 && cp != '\n' && cp != '\r' && cp != '\t' &&
                                   cp != '\f') || cp == 0x7f)
            bad++;
        chars++;
        i += (size_t)k;
    }
    return chars > 0 && bad * 50 <= chars;
}

/* ONNX's ModelProto: ir_version (field 1) first, then one of its other fields. */
static int looks_like_onnx(const unsigned char *b, size_t n)
{
    static const unsigned char next[] = {0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42};
    return n > 16 && b[0] == 0x08 && b[1] >= 1 && b[1] <= 30 && memchr(next, b[2], sizeof next);
}

static const struct {
    size_t at;
    const char *magic;
    size_t len;
    const char *what;
} magics[] = {
    {0, "\x89HDF\r\n\x1a\n", 8,
     "a Keras or HDF5 file (.h5), not a PyTorch model: convert it to ONNX (tf2onnx) and that "
     "with gatetui-export"},
    {512, "\x89HDF\r\n\x1a\n", 8,
     "a Keras or HDF5 file (.h5), not a PyTorch model: convert it to ONNX (tf2onnx) and that "
     "with gatetui-export"},
    {0, "\x1f\x8b", 2, "a gzip-compressed file: decompress it first (gunzip)"},
    {0, "BZh", 3, "a bzip2-compressed file: decompress it first (bunzip2)"},
    {0, "\xfd" "7zXZ\0", 6, "an xz-compressed file: decompress it first (unxz)"},
    {0, "\x28\xb5\x2f\xfd", 4, "a zstd-compressed file: decompress it first (unzstd)"},
    {0, "\x93NUMPY", 6, "a NumPy array (.npy), not a model: " WHAT_MODELS},
    {0, "GGUF", 4, "a GGUF file (llama.cpp), not a character-level LSTM or GRU"},
    {257, "ustar", 5,
     "a tar archive: unpack it, or, if torch.save wrote it (PyTorch before 0.4), load it and "
     "save it again with a recent PyTorch"},
};

int filekind_describe(const unsigned char *b, size_t n, const char *path, gt_error *e)
{
    if (n == 0)
        return gt_fail(e, GT_EINPUT, "%s: an empty file (0 bytes), too short to be a model",
                       path);
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (n >= magics[i].at + magics[i].len &&
            memcmp(b + magics[i].at, magics[i].magic, magics[i].len) == 0)
            return gt_fail(e, GT_EINPUT, "%s: %s", path, magics[i].what);
    if (n >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5)
        return gt_fail(e, GT_EINPUT,
                       "%s: a Python pickle, but not one torch.save wrote: save the model with "
                       "torch.save(model.state_dict(), FILE)",
                       path);
    if (looks_like_onnx(b, n))
        return gt_fail(e, GT_EINPUT,
                       "%s: looks like an ONNX model: convert it with gatetui-export (ONNX LSTM "
                       "and GRU models)",
                       path);
    if (looks_like_text(b, n))
        return gt_fail(e, GT_EINPUT,
                       "%s: a text file, not a model (the model comes first: gatetui MODEL "
                       "TEXT); %s",
                       path, WHAT_MODELS);
    if (n < 8)
        return gt_fail(e, GT_EINPUT, "%s: a file of %zu bytes is too short to be a model", path,
                       n);
    return gt_fail(e, GT_EINPUT,
                   "%s: not a model file: neither safetensors (8 bytes of header length, then "
                   "JSON) nor torch.save (a zip archive or PyTorch's legacy pickle); it starts "
                   "%02x %02x %02x %02x %02x %02x %02x %02x",
                   path, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
}
