/*
 * test_profwrap.c — the link-time wrappers (src/runtime/profwrap.c, docs/method.md
 * §10.2) with fake __real_* functions and a fake clock that advances one
 * tick per read, so every accounted figure is exact: outermost-call
 * accounting, the (fn, in_bits, out_bits) keys, forwarding when off,
 * overflow of the 8192-slot table, reset, and the no-op calibration.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/profwrap.h"

static uint64_t now;
static uint64_t fake_clock(void)
{
	return ++now;
}

/* The wrappers (compiled with every NGCC_PROF_WRAP_* define). */
int __wrap_pseudohash(int, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_pseudoXOF(unsigned long long, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_sm3hash(int, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_get_random_number(void *, unsigned char *, unsigned long long);

/* The "real" functions: each spends a known number of ticks; pseudoXOF
 * calls sm3hash through its wrapper, as a nested helper would. */
static int real_calls;
int __real_pseudohash(int d, const unsigned char *m, unsigned long long n, unsigned char *o);
int __real_pseudohash(int d, const unsigned char *m, unsigned long long n, unsigned char *o)
{
	(void)d; (void)m; (void)n; (void)o;
	real_calls++;
	now += 100;
	return 7;
}

int __real_sm3hash(int d, const unsigned char *m, unsigned long long n, unsigned char *o);
int __real_sm3hash(int d, const unsigned char *m, unsigned long long n, unsigned char *o)
{
	(void)d; (void)m; (void)n; (void)o;
	real_calls++;
	now += 50;
	return 0;
}

int __real_pseudoXOF(unsigned long long d, const unsigned char *m, unsigned long long n,
		     unsigned char *o);
int __real_pseudoXOF(unsigned long long d, const unsigned char *m, unsigned long long n,
		     unsigned char *o)
{
	(void)d;
	real_calls++;
	now += 100;
	return __wrap_sm3hash(256, m, n, o);
}

int __real_get_random_number(void *ctx, unsigned char *o, unsigned long long bits);
int __real_get_random_number(void *ctx, unsigned char *o, unsigned long long bits)
{
	(void)ctx; (void)o; (void)bits;
	real_calls++;
	now += 20;
	return 0;
}

static struct ngcc_prof_entry entries[NGCC_PROF_SLOTS];

static const struct ngcc_prof_entry *find(uint64_t n, unsigned fn, uint64_t in, uint64_t out)
{
	for (uint64_t i = 0; i < n; i++)
		if (entries[i].fn == fn && entries[i].in_bits == in && entries[i].out_bits == out)
			return &entries[i];
	return NULL;
}

static int setup(void **state)
{
	(void)state;
	ngcc_prof_set_clock(fake_clock);
	ngcc_prof_disable();
	ngcc_prof_reset();
	real_calls = 0;
	return 0;
}

static void test_off_only_forwards(void **state)
{
	(void)state;
	unsigned char buf[64] = { 0 };
	uint64_t ov = 99;
	assert_int_equal(__wrap_pseudohash(512, buf, 24, buf), 7);
	assert_int_equal(real_calls, 1);
	assert_int_equal(ngcc_prof_read(entries, NGCC_PROF_SLOTS, &ov), 0);
	assert_int_equal(ov, 0);
}

static void test_keys_and_ticks(void **state)
{
	(void)state;
	unsigned char buf[64] = { 0 };
	uint64_t ov;
	ngcc_prof_enable();
	assert_int_equal(__wrap_pseudohash(512, buf, 24, buf), 7);   /* return value kept */
	__wrap_pseudohash(512, buf, 24, buf);
	__wrap_pseudohash(768, buf, 24, buf);
	__wrap_get_random_number(NULL, buf, 256);
	ngcc_prof_disable();
	__wrap_pseudohash(512, buf, 24, buf);                          /* not counted */
	uint64_t n = ngcc_prof_read(entries, NGCC_PROF_SLOTS, &ov);
	assert_int_equal(n, 3);
	const struct ngcc_prof_entry *e = find(n, NGCC_PROF_PSEUDOHASH, 24, 512);
	assert_non_null(e);
	assert_int_equal(e->calls, 2);
	assert_int_equal(e->ticks, 2 * 101);   /* 100 inside + one clock read */
	e = find(n, NGCC_PROF_PSEUDOHASH, 24, 768);
	assert_non_null(e);
	assert_int_equal(e->calls, 1);
	e = find(n, NGCC_PROF_DRNG, 0, 256);
	assert_non_null(e);
	assert_int_equal(e->calls, 1);
	assert_int_equal(e->ticks, 21);
	assert_int_equal(ov, 0);
}

static void test_nested_counts_toward_outer(void **state)
{
	(void)state;
	unsigned char buf[64] = { 0 };
	ngcc_prof_enable();
	__wrap_pseudoXOF(1024, buf, 264, buf);
	ngcc_prof_disable();
	uint64_t n = ngcc_prof_read(entries, NGCC_PROF_SLOTS, NULL);
	assert_int_equal(real_calls, 2);    /* sm3hash really ran ... */
	assert_int_equal(n, 1);             /* ... but only pseudoXOF is counted */
	const struct ngcc_prof_entry *e = find(n, NGCC_PROF_PSEUDOXOF, 264, 1024);
	assert_non_null(e);
	assert_int_equal(e->calls, 1);
	assert_int_equal(e->ticks, 100 + 50 + 1);
	/* After the nested call the depth is back to 0: sm3hash alone counts. */
	ngcc_prof_enable();
	__wrap_sm3hash(256, buf, 8, buf);
	ngcc_prof_disable();
	n = ngcc_prof_read(entries, NGCC_PROF_SLOTS, NULL);
	assert_int_equal(n, 2);
	assert_non_null(find(n, NGCC_PROF_SM3HASH, 8, 256));
}

static void test_overflow_and_reset(void **state)
{
	(void)state;
	unsigned char buf[8] = { 0 };
	uint64_t ov;
	ngcc_prof_enable();
	for (unsigned long long i = 0; i < NGCC_PROF_SLOTS + 5; i++)
		__wrap_pseudohash(512, buf, i, buf);   /* 8197 distinct shapes */
	__wrap_pseudohash(512, buf, 0, buf);           /* an existing shape still counts */
	ngcc_prof_disable();
	uint64_t n = ngcc_prof_read(entries, NGCC_PROF_SLOTS, &ov);
	assert_int_equal(n, NGCC_PROF_SLOTS);
	assert_int_equal(ov, 5);
	const struct ngcc_prof_entry *e = find(n, NGCC_PROF_PSEUDOHASH, 0, 512);
	assert_non_null(e);
	assert_int_equal(e->calls, 2);
	ngcc_prof_reset();
	assert_int_equal(ngcc_prof_read(entries, NGCC_PROF_SLOTS, &ov), 0);
	assert_int_equal(ov, 0);
}

static void test_noop_calibration(void **state)
{
	(void)state;
	uint64_t outer = 0;
	/* Each wrapped no-op reads the clock twice (1 tick inside); the batch
	 * adds one read around it. */
	assert_int_equal(ngcc_prof_noop_batch(10, &outer), 10);
	assert_int_equal(outer, 2 * 10 + 1);
	assert_int_equal(ngcc_prof_bare_batch(10), 1);
	/* The no-op never shows in the table, and accounting is off again. */
	assert_int_equal(ngcc_prof_read(entries, NGCC_PROF_SLOTS, NULL), 0);
	unsigned char buf[4] = { 0 };
	__wrap_sm3hash(256, buf, 8, buf);
	assert_int_equal(ngcc_prof_read(entries, NGCC_PROF_SLOTS, NULL), 0);
	assert_int_equal(ngcc_prof_abi(), NGCC_PROF_ABI);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_off_only_forwards, setup),
		cmocka_unit_test_setup(test_keys_and_ticks, setup),
		cmocka_unit_test_setup(test_nested_counts_toward_outer, setup),
		cmocka_unit_test_setup(test_overflow_and_reset, setup),
		cmocka_unit_test_setup(test_noop_calibration, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
