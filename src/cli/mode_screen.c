/* The screen (doc/screen.md): the mode without an option. */
#include "config.h"

#include <stddef.h>

#include "cli/cli.h"
#include "term/ui.h"

static int screen_run(const cli *c, gt_session *s, gt_error *e)
{
    return cli_screen_run(c, s, ui_main, e);
}

static const cli_option model_opts[] = {
    {"layer", 1, cli_set_count, offsetof(cli, layer), 0},
    {"vocab-from", 1, cli_set_text, offsetof(cli, mopt.vocab_from), 0},
    {"vocab", 1, cli_set_text, offsetof(cli, mopt.vocab_file), 0},
    {"tokens", 1, cli_set_tokens, 0, 0},
    {"embedding", 1, cli_set_text, offsetof(cli, mopt.embedding), 0},
    {"gru-reset", 1, cli_set_reset, 0, 0},
    {"nonlinearity", 1, cli_set_nonlinearity, 0, 0},
    {0}};

const cli_mode cli_mode_screen = {
    .name = "screen",
    .flags = MODE_SCREEN | MODE_EDITS,
    .run = screen_run,
    .opts = model_opts,
    .usage = "[--layer N] [--vocab FILE | --vocab-from TEXT] [--tokens chars|words] "
             "[--embedding NAME] [--gru-reset before|after] [--nonlinearity tanh|relu] "
             "[--edit S:C ...] [--edits FILE] MODEL [MODEL ...] TEXT",
    .help = "  --layer N           the layer shown or reported (default 0; --dump: all)\n"
            "  --vocab FILE        the vocabulary from FILE: a JSON list, object, {\"itos\"} or\n"
            "                      {\"stoi\"}, one token per line, or the characters in index\n"
            "                      order\n"
            "  --vocab-from TEXT   the vocabulary as sorted(set(TEXT)) (right only for a\n"
            "                      model trained so)\n"
            "  --tokens WHAT       a step is a character ('chars') or a word ('words': the\n"
            "                      text split on white space, <eos> after each line); the\n"
            "                      default: words when the vocabulary holds words\n"
            "  --embedding NAME    the embedding tensor, when several could be\n"
            "  --gru-reset WHERE   GRU reset gate 'after' W_hn (PyTorch) or 'before' (Cho)\n"
            "  --nonlinearity F    a plain RNN's h = tanh(a) (default) or relu(a), when the\n"
            "                      file does not say\n",
};
