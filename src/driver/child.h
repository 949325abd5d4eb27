/*
 * child.h — what every child program that runs candidate code does the
 * same way: read its numeric and hex option values (and write its seed
 * as hex), pin itself to the benchmark CPU, keep its result descriptor
 * out of the candidate's way, and write its one JSON result there.  Only
 * libc and jansson (the check programs link this file and loader.c
 * alone, mk/check.mk).
 */
#ifndef NGCC_CHILD_H
#define NGCC_CHILD_H

#include <jansson.h>
#include <stddef.h>

/* Decimal >= min, within long; -1 otherwise. */
int child_parse_long(const char *s, long min, long *out);
/* Hex string to at most max bytes (*len of them); -1 when odd, empty, too
 * long or not hex. */
int child_parse_hex(const char *hex, unsigned char *out, size_t max, size_t *len);
/* n bytes as lowercase hex into out (2 n + 1 bytes with the NUL). */
void child_hex(const unsigned char *b, size_t n, char *out);

/* Pin to cpu; a failure is reported on stderr as "<prog>: ...". */
void child_pin_cpu(const char *prog, int cpu);
/* Move the result pipe (SPAWN_RESULT_FD) to a close-on-exec descriptor
 * >= 64: a library that writes to fd 3, or closes it, must not corrupt or
 * lose our result.  Returns the descriptor to write to, or -1 when fd 3
 * was not open. */
int child_hide_result_fd(void);
/* Write j (compact, keys in order, doubles with 17 digits) and a newline
 * to fd; fd < 0 is reported on stderr as not written. */
void child_write_result(const char *prog, int fd, const json_t *j);

#endif
