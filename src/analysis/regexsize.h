/* What a regular expression costs to compile (see regexsize.c). */
#ifndef GATETUI_REGEXSIZE_H
#define GATETUI_REGEXSIZE_H

/* The largest expanded size compiled: about 34 MB and 0.07 s for the worst form of it. */
#define REGEX_SIZE_MAX 2000

/* The number of atoms of the POSIX extended regular expression re once its bounded
 * repetitions are written out as copies (nested ones multiply). */
double regex_expanded_size(const char *re);

#endif
