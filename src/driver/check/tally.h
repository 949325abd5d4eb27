/*
 * tally.h — what the check program found: how many times each test was
 * checked and failed, per operation, and the distinct findings.  A
 * finding is keyed by (test, operation, key); repeats only count, and the
 * first occurrence keeps its round and call, which is what a minimal
 * reproduction needs (`--first-round R --rounds 1`).
 */
#ifndef NGCC_CHECK_TALLY_H
#define NGCC_CHECK_TALLY_H

#include <jansson.h>

/* (test, operation) pairs: about nine tests on each of a key exchange's
 * up to 20 steps (16 passes). */
#define TALLY_MAX_TESTS 192
#define TALLY_MAX_FINDINGS 64

struct tally_test {
	const char *name, *op;     /* static strings */
	const char *note;          /* why it was not run, or NULL */
	long checks, failures;
};

struct tally_finding {
	const char *test, *op;
	char *key;                 /* what makes two failures the same */
	char *what;                /* the first occurrence, in words */
	char *call;                /* the call it happened in */
	long round, count;
};

struct tally {
	struct tally_test tests[TALLY_MAX_TESTS];
	int ntests;
	struct tally_finding finds[TALLY_MAX_FINDINGS];
	int nfinds;
	long dropped;              /* distinct findings beyond the table */
};

/* A test that applies but is not run (e.g. overlapping buffers, which the
 * API does not allow): listed with 0 checks and the reason. */
void tally_not_applicable(struct tally *t, const char *test, const char *op, const char *why);
/* One check of test on op passed. */
void tally_pass(struct tally *t, const char *test, const char *op);
/* One check failed: counted, and a finding added or counted. */
void tally_fail(struct tally *t, const char *test, const char *op, const char *key,
		long round, const char *call, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Failures so far (all tests). */
long tally_failures(const struct tally *t);

/* {"tests": [{test, operation, checks, failures, note}], "findings": [{test,
 * operation, what, call, round, occurrences}], "findings_dropped": n} */
json_t *tally_json(const struct tally *t);
void tally_free(struct tally *t);

#endif
