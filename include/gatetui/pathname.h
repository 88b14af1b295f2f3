/* The name a file is shown by among others (doc/usage.md, "Several models"): the models of a
 * session in the report's table, the figures' legends, captions and CSV, the screen's
 * header. */
#ifndef GATETUI_PATHNAME_H
#define GATETUI_PATHNAME_H
#include <stddef.h>

/* The name of path[k] among the n paths, into out (cap bytes, cut to fit): its base name
 * when no other path's base name is the same; otherwise its shortest trailing part (whole
 * folders and the base name) that no other path ends with (run1/model.pt beside
 * run2/model.pt), the whole path at most; and when another path is the same as path[k],
 * that part followed by " #K", K its place counted from 1. With n = 1, the base name. The
 * names of the n paths are all different. */
void path_name_among(char *out, size_t cap, const char *const *path, int n, int k);

#endif
