/* --fixed-points CHAR: a layer's fixed points under a held character (a word model's: a held
 * token, --fixed-points WORD) (doc/usage.md). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/dynamics.h"
#include "gatetui/utf8.h"

#define FIXED_STEPS 5000

/* CHAR: one character, or \n, \t, \r or \\ for it; its UTF-8 into ch[8], its code point. */
static int parse_char(const char *arg, char ch[8], uint32_t *cp, gt_error *e)
{
    static const char esc[] = "n\nt\tr\r\\\\";
    const size_t n = strlen(arg);
    if (n == 2 && arg[0] == '\\')
        for (const char *p = esc; *p; p += 2)
            if (arg[1] == p[0]) {
                ch[0] = p[1];
                ch[1] = 0;
                *cp = (unsigned char)p[1];
                return GT_OK;
            }
    int len = n ? utf8_decode((const unsigned char *)arg, n, cp) : 0;
    if (!n || (size_t)len != n || *cp == UTF8_INVALID || n >= 8)
        return gt_fail(e, GT_EINPUT, "--fixed-points wants one character (or \\n, \\t, \\r, "
                       "\\\\), not \"%s\"", arg);
    memcpy(ch, arg, n + 1);
    return GT_OK;
}

static int fixed_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                      gt_error *e)
{
    const gt_model *m = &im->mi;
    cli_say_interventions(im);
    char ch[8];
    uint32_t cp;
    /* a word model's token by its word; a character model's character */
    int rc = m->words ? GT_OK : parse_char(c->mode_arg, ch, &cp, e);
    if (rc)
        return rc;
    const int tok = m->words ? model_word_token(m, c->mode_arg, strlen(c->mode_arg))
                             : model_token(m, cp);
    if (tok < 0)
        return gt_fail(e, GT_EINPUT, "--fixed-points \"%s\": not in the model's vocabulary",
                       c->mode_arg);
    const char *held = m->words ? m->vocab_word[tok] : ch;
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    size_t N = c->find.steps < 0 ? FIXED_STEPS : (size_t)c->find.steps;
    if (N > t->steps)
        N = t->steps;
    const gt_fixed_options o = {N, (size_t)c->starts, (size_t)c->hold,
                                c->env.threads < 0 ? 0 : c->env.threads};
    gt_fixed x;
    rc = fixed_compute(&x, m, layer, (uint16_t)tok, t->tok, &o, e);
    if (rc)
        return rc;
    rc = c->json ? fixed_print_json(out, &x, held, e) : fixed_print_text(out, &x, held, e);
    fixed_free(&x);
    return rc;
}

static const cli_option fixed_opts[] = {
    {"starts", 1, cli_set_count, offsetof(cli, starts), 1},
    {"hold", 1, cli_set_count, offsetof(cli, hold), 0},
    {0}};

const cli_mode cli_mode_fixed = {
    .name = "fixed points",
    .option = "fixed-points",
    .arg = 1,
    .each = fixed_each,
    .opts = fixed_opts,
    .usage = "--fixed-points CHAR [--starts N] [--hold K] [--steps N] [--layer N] [--json] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --fixed-points CHAR the layer's fixed points under CHAR held (\\n: newline)\n"
            "  --starts N          fixed-points: the Newton starts, taken evenly from the\n"
            "                      text's run (default 64); its --steps N: the steps run\n"
            "                      (default 5000)\n"
            "  --hold K            fixed-points: CHAR read K times from each start before\n"
            "                      Newton (default 100)\n",
};
