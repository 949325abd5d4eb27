/*
 * profwrap.c — link-time wrappers around the ICCS hash helpers and the
 * DRNG, and their controls (docs/method.md §10.2; profwrap.h).  Compiled by
 * `ngcc-perf profile` into build/<ID>/instrumented/lib<label>.so only, with
 * -DNGCC_PROF_WRAP_<SYMBOL> for each symbol wrapped with -Wl,--wrap.
 *
 * The clock is the profile driver's counter_read_raw(), handed over with
 * ngcc_prof_set_clock() so the ticks come from the timing driver's counter
 * (docs/method.md §6); until then CLOCK_MONOTONIC_RAW nanoseconds are used.
 *
 * The DRNG context is passed through as void *: the wrapper never looks at
 * it, so it works with our drng.h and with a package's own.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* CLOCK_MONOTONIC_RAW under -std=c11 */
#endif
#include "profwrap.h"

#include <string.h>
#include <time.h>

static _Thread_local unsigned prof_depth;
static volatile int prof_on;
static ngcc_prof_clock_fn prof_clock;

static struct ngcc_prof_entry prof_table[NGCC_PROF_SLOTS];
static unsigned char prof_used[NGCC_PROF_SLOTS];
static uint64_t prof_in_use, prof_overflow;

/* The no-op used for the overhead calibration has its own accumulator, so
 * it never shows in the table. */
#define PROF_FN_NOOP 255u
static uint64_t noop_ticks;

static uint64_t monotonic_raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t prof_now(void)
{
	return prof_clock ? prof_clock() : monotonic_raw_ns();
}

static uint64_t slot_hash(unsigned fn, uint64_t in_bits, uint64_t out_bits)
{
	uint64_t h = 0x9e3779b97f4a7c15ull * (fn + 1);
	h ^= in_bits + 0xbf58476d1ce4e5b9ull + (h << 6) + (h >> 2);
	h ^= out_bits + 0x94d049bb133111ebull + (h << 6) + (h >> 2);
	h ^= h >> 31;
	return h;
}

/* Find or claim the slot of (fn, in, out); NULL when the table is full. */
static struct ngcc_prof_entry *prof_slot(unsigned fn, uint64_t in_bits, uint64_t out_bits)
{
	uint64_t i = slot_hash(fn, in_bits, out_bits) % NGCC_PROF_SLOTS;
	for (unsigned probe = 0; probe < NGCC_PROF_SLOTS; probe++) {
		struct ngcc_prof_entry *e = &prof_table[i];
		if (!prof_used[i]) {
			prof_used[i] = 1;
			prof_in_use++;
			e->fn = fn;
			e->in_bits = in_bits;
			e->out_bits = out_bits;
			return e;
		}
		if (e->fn == fn && e->in_bits == in_bits && e->out_bits == out_bits)
			return e;
		i = (i + 1) % NGCC_PROF_SLOTS;
	}
	return NULL;
}

static void prof_account(unsigned fn, uint64_t in_bits, uint64_t out_bits, uint64_t ticks)
{
	if (fn == PROF_FN_NOOP) {
		noop_ticks += ticks;
		return;
	}
	struct ngcc_prof_entry *e = prof_slot(fn, in_bits, out_bits);
	if (!e) {
		prof_overflow++;
		return;
	}
	e->calls++;
	e->ticks += ticks;
}

/*
 * Every wrapper has the same shape: forward only when accounting is off or
 * we are inside another wrapped call; otherwise bracket the real call.
 */
#define PROF_WRAP_BODY(fn_id, in_bits, out_bits, call)                        \
	do {                                                                  \
		if (!prof_on || prof_depth)                                   \
			return call;                                          \
		prof_depth++;                                                 \
		uint64_t t0_ = prof_now();                                    \
		int rc_ = call;                                               \
		uint64_t t1_ = prof_now();                                    \
		prof_depth--;                                                 \
		prof_account(fn_id, in_bits, out_bits, t1_ - t0_);            \
		return rc_;                                                   \
	} while (0)

#ifdef NGCC_PROF_WRAP_PSEUDOHASH
int __real_pseudohash(int digest_len_bits, const unsigned char *msg,
		      unsigned long long msg_len_bits, unsigned char *digest);
int __wrap_pseudohash(int digest_len_bits, const unsigned char *msg,
		      unsigned long long msg_len_bits, unsigned char *digest);
int __wrap_pseudohash(int digest_len_bits, const unsigned char *msg,
		      unsigned long long msg_len_bits, unsigned char *digest)
{
	PROF_WRAP_BODY(NGCC_PROF_PSEUDOHASH, msg_len_bits, (uint64_t)digest_len_bits,
		       __real_pseudohash(digest_len_bits, msg, msg_len_bits, digest));
}
#endif

#ifdef NGCC_PROF_WRAP_PSEUDOXOF
int __real_pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg,
		     unsigned long long msg_len_bits, unsigned char *output);
int __wrap_pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg,
		     unsigned long long msg_len_bits, unsigned char *output);
int __wrap_pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg,
		     unsigned long long msg_len_bits, unsigned char *output)
{
	PROF_WRAP_BODY(NGCC_PROF_PSEUDOXOF, msg_len_bits, output_len_bits,
		       __real_pseudoXOF(output_len_bits, msg, msg_len_bits, output));
}
#endif

#ifdef NGCC_PROF_WRAP_SM3HASH
int __real_sm3hash(int digest_len_bits, const unsigned char *msg,
		   unsigned long long msg_len_bits, unsigned char *digest);
int __wrap_sm3hash(int digest_len_bits, const unsigned char *msg,
		   unsigned long long msg_len_bits, unsigned char *digest);
int __wrap_sm3hash(int digest_len_bits, const unsigned char *msg,
		   unsigned long long msg_len_bits, unsigned char *digest)
{
	PROF_WRAP_BODY(NGCC_PROF_SM3HASH, msg_len_bits, (uint64_t)digest_len_bits,
		       __real_sm3hash(digest_len_bits, msg, msg_len_bits, digest));
}
#endif

#ifdef NGCC_PROF_WRAP_GET_RANDOM_NUMBER
int __real_get_random_number(void *drng, unsigned char *random_number,
			     unsigned long long random_number_len_bits);
int __wrap_get_random_number(void *drng, unsigned char *random_number,
			     unsigned long long random_number_len_bits);
int __wrap_get_random_number(void *drng, unsigned char *random_number,
			     unsigned long long random_number_len_bits)
{
	PROF_WRAP_BODY(NGCC_PROF_DRNG, 0, random_number_len_bits,
		       __real_get_random_number(drng, random_number, random_number_len_bits));
}
#endif

/* ---- overhead calibration (R12) ---------------------------------------- */

/* noinline and an asm barrier: the call must really happen. */
__attribute__((noinline)) static int prof_noop(void)
{
	__asm__ volatile("" ::: "memory");
	return 0;
}

__attribute__((noinline)) static int prof_noop_wrapped(void)
{
	PROF_WRAP_BODY(PROF_FN_NOOP, 0, 0, prof_noop());
}

uint64_t ngcc_prof_noop_batch(uint64_t n, uint64_t *outer)
{
	int was_on = prof_on;
	noop_ticks = 0;
	prof_on = 1;
	uint64_t t0 = prof_now();
	for (uint64_t i = 0; i < n; i++)
		prof_noop_wrapped();
	uint64_t t1 = prof_now();
	prof_on = was_on;
	*outer = t1 - t0;
	return noop_ticks;
}

uint64_t ngcc_prof_bare_batch(uint64_t n)
{
	uint64_t t0 = prof_now();
	for (uint64_t i = 0; i < n; i++)
		prof_noop();
	return prof_now() - t0;
}

/* ---- controls ------------------------------------------------------------ */

int ngcc_prof_abi(void)
{
	return NGCC_PROF_ABI;
}

void ngcc_prof_set_clock(ngcc_prof_clock_fn clock)
{
	prof_clock = clock;
}

void ngcc_prof_enable(void)
{
	prof_on = 1;
}

void ngcc_prof_disable(void)
{
	prof_on = 0;
}

void ngcc_prof_reset(void)
{
	memset(prof_table, 0, sizeof prof_table);
	memset(prof_used, 0, sizeof prof_used);
	prof_in_use = 0;
	prof_overflow = 0;
	noop_ticks = 0;
}

uint64_t ngcc_prof_read(struct ngcc_prof_entry *out, uint64_t max, uint64_t *overflow)
{
	uint64_t k = 0;
	for (uint64_t i = 0; i < NGCC_PROF_SLOTS && k < max; i++)
		if (prof_used[i])
			out[k++] = prof_table[i];
	if (overflow)
		*overflow = prof_overflow;
	return prof_in_use;
}
