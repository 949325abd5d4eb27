/*
 * profwrap.h — the profiling wrappers linked into an instrumented library
 * (docs/method.md §10.1–§10.2) and the controls the profile driver resolves with
 * dlsym.  Only build/<ID>/instrumented/lib<label>.so contains them; the
 * timed library never does.
 *
 * `ngcc-perf profile` relinks the instance with -Wl,--wrap=<symbol> for each
 * of pseudohash, pseudoXOF, sm3hash and get_random_number that the
 * candidate's objects reference, and compiles profwrap.c with
 * -DNGCC_PROF_WRAP_<SYMBOL> for exactly those (a wrapper whose __real_
 * symbol is never defined would not link under -z defs).
 *
 * Accounting is outermost-call only: a per-thread depth counter makes a
 * wrapped call made inside another one count toward the outer call.  The
 * table is 8192 open-addressed slots keyed by (fn, in_bits, out_bits); a
 * call that finds no slot goes to overflow_calls.
 */
#ifndef NGCC_PROFWRAP_H
#define NGCC_PROFWRAP_H

#include <stdint.h>

#define NGCC_PROF_SLOTS 8192
#define NGCC_PROF_ABI 1

/* fn ids; their names are what the profile record uses. */
enum ngcc_prof_fn {
	NGCC_PROF_PSEUDOHASH = 0,
	NGCC_PROF_PSEUDOXOF = 1,
	NGCC_PROF_SM3HASH = 2,
	NGCC_PROF_DRNG = 3,        /* get_random_number */
	NGCC_PROF_N_FN = 4,
};

struct ngcc_prof_entry {
	uint32_t fn;               /* enum ngcc_prof_fn */
	uint64_t in_bits, out_bits;
	uint64_t calls, ticks;
};

typedef uint64_t (*ngcc_prof_clock_fn)(void);

/* The controls, exported by the instrumented library (version script). */
typedef int (*ngcc_prof_abi_fn)(void);
typedef void (*ngcc_prof_set_clock_fn)(ngcc_prof_clock_fn clock);
typedef void (*ngcc_prof_void_fn)(void);
/* Copies up to max entries, returns how many are in use; *overflow gets
 * overflow_calls. */
typedef uint64_t (*ngcc_prof_read_fn)(struct ngcc_prof_entry *out, uint64_t max,
				      uint64_t *overflow);
/* Overhead calibration (R12): n calls to a no-op through the same wrapper
 * path with accounting on; returns the ticks the wrapper accounted inside
 * its brackets (*outer: ticks around the whole batch).  bare: the same
 * batch calling the unwrapped no-op. */
typedef uint64_t (*ngcc_prof_noop_batch_fn)(uint64_t n, uint64_t *outer);
typedef uint64_t (*ngcc_prof_bare_batch_fn)(uint64_t n);

#define NGCC_PROF_SYMBOLS \
	X(ngcc_prof_abi) X(ngcc_prof_set_clock) X(ngcc_prof_enable) \
	X(ngcc_prof_disable) X(ngcc_prof_reset) X(ngcc_prof_read) \
	X(ngcc_prof_noop_batch) X(ngcc_prof_bare_batch)

int ngcc_prof_abi(void);
void ngcc_prof_set_clock(ngcc_prof_clock_fn clock);
void ngcc_prof_enable(void);
void ngcc_prof_disable(void);
void ngcc_prof_reset(void);
uint64_t ngcc_prof_read(struct ngcc_prof_entry *out, uint64_t max, uint64_t *overflow);
uint64_t ngcc_prof_noop_batch(uint64_t n, uint64_t *outer);
uint64_t ngcc_prof_bare_batch(uint64_t n);

#endif
