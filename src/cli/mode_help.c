/* --help: the usage and every row's lines of the table (cli.h), in its order. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"

static int help_now(const cli_mode *const *modes)
{
    fputs("gatetui: watch the gates of a character-level (or word-level) LSTM, GRU or\n"
          "plain RNN, step by step.\n\n",
          stdout);
    cli_usage(stdout, modes);
    fputs("\nMODEL is what torch.save wrote (a state_dict, a checkpoint holding one, or a\n"
          "whole module), read without running it, or a safetensors file: PyTorch nn.LSTM /\n"
          "nn.GRU / nn.RNN (or stacked nn.LSTMCell / nn.GRUCell) state_dict names under\n"
          "any prefix, an optional embedding and readout, and the vocabulary the file\n"
          "keeps. TEXT is UTF-8; characters outside the vocabulary are skipped. A word\n"
          "model (its vocabulary holds words: a Dictionary, a list, vocab.txt beside it)\n"
          "reads TEXT a word at a time as word_language_model's data.py splits it, a word\n"
          "outside the vocabulary as <unk>. Several\n"
          "MODELs (their vocabularies holding the same tokens, in any order) are\n"
          "compared on TEXT: the screen shows one at a time (Tab switches), the tables\n"
          "put one column per model, --json prints {\"models\": [...], \"names\":\n"
          "[...]}.\n\n"
          "Options:\n",
          stdout);
    for (int i = 0; modes[i]; i++)
        if (modes[i]->help)
            fputs(modes[i]->help, stdout);
    fputs("\nSteps count from 0 over the in-vocabulary characters (a word model's tokens).\n"
          "GATETUI_KERNEL=SET runs\n"
          "the kernel set SET (avx512, avx2 or c) instead of the best. Exit status:\n"
          "0 success, 2 bad usage or input, 1 anything else.\n",
          stdout);
    return GT_OK;
}

const cli_mode cli_mode_help = {
    .name = "help",
    .option = "help",
    .now = help_now,
    .usage = "--help",
    .help = "  --help, --version\n",
};
