/* What a regular expression costs to compile (doc/measures.md, "A hypothesis as a regular
 * expression"): the C library builds a bounded repetition {m,n} as n copies of what it
 * repeats ({m,} as m + 1), so nested repetitions multiply, and its work and memory grow
 * with the square of the copies (a{1,2000}: 34 MB; a{1,10000}: 790 MB;
 * ((a{1,100}){1,100}){1,100}: 1.8 GB). The size counted here is the number of atoms
 * after that expansion. */
#include "config.h"

#include <stddef.h>

#include "analysis/regexsize.h"

#define DEPTH_MAX 256

/* The end of the bracket expression that starts at re[i] == '['. */
static size_t bracket_end(const char *re, size_t i)
{
    i++;
    if (re[i] == '^')
        i++;
    if (re[i] == ']')
        i++;
    while (re[i] && re[i] != ']') {
        if (re[i] == '[' && (re[i + 1] == ':' || re[i + 1] == '=' || re[i + 1] == '.')) {
            char kind = re[i + 1];
            i += 2;
            while (re[i] && !(re[i] == kind && re[i + 1] == ']'))
                i++;
            if (re[i])
                i += 2;
            continue;
        }
        i++;
    }
    return re[i] ? i + 1 : i;
}

/* Reads "{m}", "{m,}" or "{m,n}" at re[i]; returns the copies it makes (0: not a bound)
 * and the index after it in *end. */
static double copies(const char *re, size_t i, size_t *end)
{
    double m = 0, n = -1;
    size_t j = i + 1;
    if (re[j] < '0' || re[j] > '9')
        return 0;
    while (re[j] >= '0' && re[j] <= '9')
        m = m * 10 + (re[j++] - '0');
    if (re[j] == ',') {
        j++;
        if (re[j] >= '0' && re[j] <= '9') {
            n = 0;
            while (re[j] >= '0' && re[j] <= '9')
                n = n * 10 + (re[j++] - '0');
        }
    } else {
        n = m;
    }
    if (re[j] != '}')
        return 0;
    *end = j + 1;
    double c = n < 0 ? m + 1 : n;
    return c < 1 ? 1 : c;
}

double regex_expanded_size(const char *re)
{
    double outer[DEPTH_MAX];
    int depth = 0;
    double sum = 0, last = 0;
    size_t i = 0;
    while (re[i]) {
        char ch = re[i];
        size_t next = i + 1;
        double c;
        if (ch == '(' && depth < DEPTH_MAX) {
            outer[depth++] = sum;
            sum = last = 0;
        } else if (ch == ')' && depth > 0) {
            last = sum;
            sum = outer[--depth] + last;
        } else if (ch == '{' && (c = copies(re, i, &next)) > 0) {
            sum += last * (c - 1);
            last *= c;
        } else if (ch == '*' || ch == '+' || ch == '?' || ch == '|') {
            sum += 1;
        } else {
            if (ch == '\\' && re[i + 1])
                next = i + 2;
            else if (ch == '[')
                next = bracket_end(re, i);
            sum += 1;
            last = 1;
        }
        i = next;
    }
    while (depth > 0)
        sum = outer[--depth] + sum;
    return sum;
}
