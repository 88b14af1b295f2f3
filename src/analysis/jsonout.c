/* The JSON outputs written one way (see jsonout.h). */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "analysis/jsonout.h"
#include "gatetui/fileio.h"

json_t *jsonout_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *jsonout_interval(const gt_interval *ci)
{
    if (!ci->has)
        return json_null();
    return json_pack("[o, o]", jsonout_num(ci->lo), jsonout_num(ci->hi));
}

int jsonout_write(FILE *f, json_t *root, int indent, int digits)
{
    if (!root)
        return -1;
    int bad = json_dumpf(root, f, JSON_INDENT(indent) | JSON_REAL_PRECISION(digits)) != 0;
    json_decref(root);
    bad |= fputc('\n', f) == EOF;
    return bad || fflush(f) || ferror(f) ? -1 : 0;
}

int jsonout_print(FILE *f, json_t *root, int indent, int digits, const char *what, gt_error *e)
{
    if (!root)
        return gt_fail(e, GT_EFAIL, "out of memory for %s", what);
    errno = 0;
    return jsonout_write(f, root, indent, digits) ? file_write_failed(what, errno, e) : GT_OK;
}
