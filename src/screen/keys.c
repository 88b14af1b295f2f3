/* A key to what it does (see keys.h): to what the next key is for (gt_shared.input), or to
 * its line of the key table where the screen is (keys_table.h), whose handler it runs with
 * the argument the line binds it to. */
#include "config.h"

#include <string.h>

#include "screen/keys.h"
#include "screen/keys_mouse.h"
#include "screen/keys_run.h"
#include "screen/keys_table.h"
#include "screen/help.h"
#include "screen/sessionstate.h"

/* The mouse: a click acts at once, the wheel as arrows. */
static gt_act mouse(gt_view *v, const gt_key *k)
{
    gt_key arrow;
    gt_act a = keys_mouse(v, k, &arrow);
    if (arrow.sym == K_NONE)
        return a;
    for (int i = 0; i < KEYS_WHEEL_STEPS; i++)
        keys_handle(v, &arrow);
    return ACT_REDRAW;
}

gt_act keys_handle(gt_view *v, const gt_key *k)
{
    v->ui->top_kept = 0; /* the gate panel scrolls as the keys ask from now on */
    if (v->lay.too_small) { /* the notice shows nothing another key would change: q and
                             * Ctrl-C quit (asking again while edits are not written),
                             * whatever a key before the terminal shrank had opened */
        const int ctrl_c = k->sym == K_CHAR && k->ctrl && k->cp == 'c';
        if (ctrl_c || (k->sym == K_CHAR && !k->ctrl && k->cp == 'q'))
            return keys_quit(v, ctrl_c ? KEYS_NOW : KEYS_ASK);
        return ACT_NONE;
    }
    switch (v->ui->input) { /* what the key is for */
    case INPUT_KEYS: break;
    case INPUT_HELP: return help_key(v, k); /* the arrows scroll it, others close it */
    case INPUT_ORDER: keys_begin(v); return keys_sort_pick(v, k);
    case INPUT_MARK:
    case INPUT_QUOTE: keys_begin(v); return keys_mark_pending(v, k);
    case INPUT_GOTO:
    case INPUT_SEARCH:
    case INPUT_EDIT:
    case INPUT_MATCH:
    case INPUT_UNIT:
    case INPUT_NEWLINE: return keys_prompt_key(v, k);
    }
    if (k->sym == K_ESC && v->ui->export_wanted) { /* x's frame not written; nothing else */
        keys_begin(v);
        v->ui->export_wanted = 0;
        view_say(v, 0, "the frame was not written");
        return ACT_REDRAW;
    }
    if (k->sym == K_CLICK || k->sym == K_WHEEL_UP || k->sym == K_WHEEL_DOWN)
        return mouse(v, k);
    const gt_keybind *bind = NULL;
    const gt_keyline *l = keys_line_for(v->ui->sheet, v->sheets, v->nsheets, k, &bind);
    const int asked = v->ui->quit_asked;
    keys_begin(v);
    if (l && l->run == keys_quit) /* q again after q's question */
        v->ui->quit_asked = asked;
    return l && l->run ? l->run(v, bind->arg) : ACT_NONE;
}

gt_act keys_handle_models(gt_models *ms, const gt_key *k)
{
    gt_view *v = models_view(ms);
    v->ui->top_kept = 0;
    if (k->sym == K_TAB && v->ui->input == INPUT_KEYS && !v->lay.too_small) {
        v->ui->msg[0] = 0;
        models_switch(ms, k->shift ? -1 : 1);
        return ACT_REDRAW;
    }
    gt_act a = keys_handle(v, k);
    models_sync(ms);
    if (a == ACT_SESSION) { /* W */
        char name[300];
        gt_error e = {0};
        if (sessionstate_write(ms, name, sizeof name, &e)) {
            view_say(v, 1, "the session was not written: %.200s", e.msg);
        } else {
            v->ui->written_gen = v->ui->edit_gen; /* the edits are in it */
            if (ms->own_file && strcmp(name, ms->own_file) != 0)
                view_say_kept(v, "%.100s changed since read, kept: session in ./%s",
                         ms->own_file, name);
            else
                view_say_kept(v, "session written to %s%s (gatetui --session %s opens it again)",
                         ms->own_file ? "" : "./", name, name);
        }
        a = ACT_REDRAW;
    }
    return a;
}
