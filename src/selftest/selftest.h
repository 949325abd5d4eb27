/*
 * selftest.h — `ngcc-perf selftest`: checks the clean-room ICCS runtime
 * (src/runtime/{sm3,drng,auxfunc}.c) against docs/iccs.md §8 and, where it
 * can express the same computation, against OpenSSL's SM3 and HMAC.
 */
#ifndef NGCC_SELFTEST_H
#define NGCC_SELFTEST_H

#include <stdio.h>

struct selftest {
	FILE *out;          /* one line per check: "ok   name" / "FAIL name: ..." */
	unsigned passed, failed, skipped;
};

/* Run every check, printing to st->out and counting into st. */
void selftest_run(struct selftest *st);
/* `selftest`: every check, then "selftest: N passed, M failed[, K
 * skipped]" on out.  EXIT_OK, or EXIT_FAILED when a check failed. */
int selftest_command(FILE *out);

#endif
