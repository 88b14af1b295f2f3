/* The name a file is shown by among others (pathname.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gatetui/pathname.h"

/* path's last d parts (folders and the base name, as written), or the whole path when it
 * has no more. */
static const char *tail(const char *path, int d)
{
    const char *p = path + strlen(path);
    while (p > path && p[-1] == '/') /* a folder's trailing slash is part of its name */
        p--;
    for (int i = 0; i < d; i++) {
        while (p > path && p[-1] != '/')
            p--;
        if (i + 1 < d)
            while (p > path && p[-1] == '/')
                p--;
        if (p == path)
            return path;
    }
    return p;
}

/* 1 when path[k]'s last d parts end no path other than those equal to it. */
static int tells_apart(const char *const *path, int n, int k, int d)
{
    const char *mine = tail(path[k], d);
    for (int j = 0; j < n; j++)
        if (j != k && strcmp(path[j], path[k]) != 0 && strcmp(tail(path[j], d), mine) == 0)
            return 0;
    return 1;
}

void path_name_among(char *out, size_t cap, const char *const *path, int n, int k)
{
    int d = 1;
    /* two different paths differ in their last d parts once d reaches the longer's count */
    while (!tells_apart(path, n, k, d))
        d++;
    int same = 0;
    for (int j = 0; j < n; j++)
        same |= j != k && strcmp(path[j], path[k]) == 0;
    if (same)
        snprintf(out, cap, "%s #%d", tail(path[k], d), k + 1);
    else
        snprintf(out, cap, "%s", tail(path[k], d));
}
