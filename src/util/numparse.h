/*
 * numparse.h — whole numbers from the command line and from files we did
 * not write, parsed strictly: only decimal digits (a '-' first when the
 * range allows negatives), no blanks, no '+', no trailing text, and a
 * value in [min, max] checked before it is narrowed to an int, so that
 * 4294967298 is refused instead of wrapping to 2.  Every numeric option of
 * the commands goes through here (docs/security.md).
 */
#ifndef NGCC_UTIL_NUMPARSE_H
#define NGCC_UTIL_NUMPARSE_H

/* 0 and *out, or -1 (errno EINVAL: not a whole number; ERANGE: outside
 * [min, max]); *out is untouched on failure. */
int parse_whole(const char *s, long long min, long long max, long long *out);
/* The same into an int (min and max must lie in int's range). */
int parse_whole_int(const char *s, int min, int max, int *out);

#endif
