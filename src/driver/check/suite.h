/*
 * suite.h — the check program's suites and the per-type table behind
 * them.  One check_type per candidate type (KEM, signatures, key exchange;
 * a type adds a table entry with its own round trip, tampering and
 * constant-time steps):
 *
 *   functional  random-seed round trips with every call checked: return
 *               codes, returned lengths within the getters, canaries
 *               around every buffer, inputs left unmodified, determinism,
 *               tampered inputs rejected, unaligned buffers.  Also what
 *               the AddressSanitizer build runs.
 *   memcheck    the same, a few rounds, under valgrind memcheck, with every
 *               input read-only during its call.
 *   consttime   under valgrind memcheck with the secret key and the DRNG
 *               output (marked in the library by the wrapper
 *               src/runtime/ctwrap.c) undefined and the public outputs
 *               declassified: memcheck's findings are the secret-dependent
 *               branches and memory indices.
 */
#ifndef NGCC_CHECK_SUITE_H
#define NGCC_CHECK_SUITE_H

#include "driver/check/tally.h"
#include "driver/loader.h"

#define CHECK_SEED_LEN 48

enum check_suite { SUITE_FUNCTIONAL, SUITE_MEMCHECK, SUITE_CONSTTIME };

struct check_run {
	struct candidate_lib *lib;
	enum check_suite suite;
	long rounds, first_round;
	long rounds_done;
	double budget_s;           /* stop starting rounds after this; <= 0: none */
	double started;            /* monotonic seconds */
	int budget_reached;
	unsigned char base_seed[CHECK_SEED_LEN];
	int protect_inputs;        /* inputs read-only during calls */
	struct tally tally;
};

struct check_type {
	int type;                  /* NGCC_TYPE_* */
	const char *name;          /* "kem" */
	/* Run r->suite; 0, or -1 when the rounds could not even start
	 * (allocation), with the cause on stderr. */
	int (*run)(struct check_run *r);
};

extern const struct check_type check_type_kem;
extern const struct check_type check_type_sig;
extern const struct check_type check_type_kex;

/* Instantiate the DRNG for round: the base seed with its last 8 bytes
 * XORed with the round number (big-endian), so round 0 uses the timing
 * seed and any round can be replayed alone.  The seed's hex in out (97
 * bytes) when out is not NULL.  0 or -1. */
int check_seed_round(struct check_run *r, long round, char *out_hex);
/* Monotonic seconds (r->started and the budget). */
double check_now(void);
/* 1 while rounds remain and the budget allows another one. */
int check_next_round(struct check_run *r, long done);
/* The suite's round function (consttime for SUITE_CONSTTIME, else
 * functional) on (arg, first_round + i) for i = 0, 1, … while
 * check_next_round() allows, counting rounds_done. */
void check_each_round(struct check_run *r, void (*functional)(void *arg, long round),
		      void (*consttime)(void *arg, long round), void *arg);

#endif
