/* libFuzzer target: any bytes as a model file, then a short text through it.
 * Build: make fuzz (clang, -fsanitize=fuzzer,address,undefined). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/dev/shm/gatetui-fuzz-%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    gt_model m;
    gt_error e = {0};
    if (model_load(&m, path, NULL, &e) == GT_OK) {
        /* a loaded model must run: every token once, and the readout */
        gt_text t;
        static const char text[] = "In the beginning \xe2\x82\xac\n abc";
        if (text_from_memory(&t, "fuzz", text, sizeof text - 1, &m, &e) == GT_OK) {
            gt_run r;
            if (run_init(&r, &m, &e) == GT_OK) {
                for (size_t s = 0; s < t.steps; s++)
                    run_step(&r, t.tok[s]);
                if (m.has_readout) {
                    float *p = malloc((size_t)m.vocab * sizeof *p);
                    if (p)
                        run_probs(&r, p);
                    free(p);
                }
                run_free(&r);
            }
            text_free(&t);
        }
        model_free(&m);
    } else if (!e.msg[0] || strchr(e.msg, '\n')) {
        abort(); /* a refusal is one non-empty line */
    }
    return 0;
}
