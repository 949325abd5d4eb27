/*
 * call.h — one candidate call in the check program, whatever the type:
 * its context published (watch.h), its inputs snapshotted and, in the
 * memcheck suite, read-only while it runs, and afterwards the checks
 * every call gets: returned lengths within the getters, the canaries
 * around every buffer, inputs unmodified.  The type suites (kem.c, sig.c,
 * kex.c) name the buffers and make the call between call_enter() and
 * call_end().
 */
#ifndef NGCC_CHECK_CALL_H
#define NGCC_CHECK_CALL_H

#include "driver/check/gbuf.h"
#include "driver/check/suite.h"
#include "driver/check/watch.h"

#define T_ROUNDTRIP "round trip"
#define T_LENGTHS "returned lengths"
#define T_CANARIES "canaries"
#define T_INPUTS "inputs unmodified"
#define T_UNALIGNED "unaligned buffers"
/* Rounds 0 … UNALIGNED_ROUNDS - 1 also run off alignment (every type). */
#define UNALIGNED_ROUNDS 16
#define T_OVERLAP "overlapping buffers"
#define T_CONSTTIME "constant-time run"

#define CALL_MAX_IN 3
#define CALL_MAX_OUT 3

struct call {
	struct watch_call w;       /* w.call: the call in words, for findings */
	struct gbuf *in[CALL_MAX_IN];   /* inputs: protected, compared afterwards */
	unsigned char *snap[CALL_MAX_IN];
	int nin;
	struct gbuf *out[CALL_MAX_OUT];  /* whose returned length is checked */
	unsigned long long out_min[CALL_MAX_OUT];   /* the shortest length that passes */
	int nout;
	struct gbuf *all[WATCH_MAX_BUFS];   /* inputs and outputs, for the guards */
	int nall;
	int rc;
	int nonneg_ok;             /* every rc >= 0 is a success (KEX), not only 0 */
};

/* A call of op in round, for test. */
void call_begin(struct call *c, long round, const char *test, const char *op);
/* b is read by the call (its len is what the call is given). */
void call_input(struct call *c, struct gbuf *b);
/* b is written by the call: cleared, len preset to its capacity; a
 * returned length of 1..cap passes. */
void call_output(struct call *c, struct gbuf *b);
/* The same with len preset to preset and min..cap passing (KEX: keys and
 * states may be empty, messages are preset to 0). */
void call_output_as(struct call *c, struct gbuf *b, unsigned long long preset,
		    unsigned long long min);
/* b is read and updated by the call (a KEX party's state): neither cleared
 * nor compared afterwards, its len is what the call is given; with
 * len_returned the call returns its length (in/out), 0..cap passing. */
void call_inout(struct call *c, struct gbuf *b, int len_returned);
/* Snapshot and protect the inputs, publish the context; just before the call. */
void call_enter(const struct check_run *r, struct call *c);
/* Just after the call, which returned rc: unprotect, declassify what the
 * harness reads (rc, lengths), then, outside the constant-time suite,
 * check lengths (when rc is 0), canaries and inputs.  Returns rc. */
int call_end(struct check_run *r, struct call *c, int rc);
/* rc 0 (any rc >= 0 with nonneg_ok) counts as a pass of test; otherwise a
 * finding "<api>_<op> returned rc on honest input" (api: "kem", "sig",
 * "kex").  1 or 0. */
int call_ok(struct check_run *r, const struct call *c, const char *test, const char *api);

/* Same length and bytes. */
int same_bytes(const struct gbuf *a, const struct gbuf *b);

/* The bit a tampering test flips in a len-byte buffer in round r: the
 * first byte in round 0, the last in round 1, then spread over the buffer. */
void flip_position(long round, unsigned long long len, unsigned long long *byte, int *bit);

/* An output of the unaligned run (x) and the aligned run's (y). */
struct out_pair {
	const char *op;
	struct gbuf *x, *y;
};

/* 1 when some pair differs. */
int outputs_differ(const struct out_pair *p, int n);
/* The unaligned-buffers verdict per pair: the same bytes pass; a pair with
 * reproducible[i] 0 (the candidate does not reproduce it from the seed
 * even aligned) is skipped; any other difference is a finding, in a call
 * described as "<api>_<op> with every buffer <off> byte(s) off alignment". */
void unaligned_verdicts(struct check_run *r, long round, const char *api, size_t off,
			const struct out_pair *p, const int *reproducible, int n);

#endif
