/*
 * test_counter.c — the cycle counter (docs/method.md §6): whichever counter this
 * host gives must tick forward, have a positive calibrated rate and a
 * positive bracket overhead; the forced fallback must be named and say
 * why it was used.  A phase's rate handed to a process ("NAME=HZ") is
 * parsed strictly and taken only for the counter of that name.  No timing
 * thresholds: only signs and ordering.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "host/counter.h"

static void spin_ns(uint64_t ns)
{
	uint64_t t0 = clock_raw_ns();

	while (clock_raw_ns() - t0 < ns)
		;
}

/* Reference ticks, or (AArch64, pinned clock) cntvct_el0 ticks converted
 * to core cycles. */
static int is_reference_tick_counter(const struct counter *c)
{
	return c->kind == COUNTER_TSC || c->kind == COUNTER_CNTVCT || c->kind == COUNTER_PINNED;
}

static void test_forced_fallback_named_and_explained(void **state)
{
	struct counter c;

	(void)state;
	assert_int_equal(counter_open(&c, 1), 0);
	assert_non_null(c.why_fallback);
	assert_non_null(strstr(c.why_fallback, "forced"));
	assert_int_equal(c.fd, -1);
#if defined(__x86_64__)
	assert_int_equal(c.kind, COUNTER_TSC);
	assert_string_equal(c.name, "tsc-fenced");
#elif defined(__aarch64__)
	/* pinned-clock-cycles where this host's clock is pinned */
	assert_true(c.kind == COUNTER_CNTVCT || c.kind == COUNTER_PINNED);
	assert_string_equal(c.name, c.kind == COUNTER_CNTVCT ? "cntvct" : "pinned-clock-cycles");
#else
	assert_int_equal(c.kind, COUNTER_NONE);
	assert_string_equal(c.name, "none");
#endif
	if (is_reference_tick_counter(&c))
		assert_true(c.hz > 0);
	/* converted ticks step by pinned clock / cntfrq_el0 cycles */
	assert_true(c.kind == COUNTER_PINNED ? c.resolution > 0 : c.resolution == 1);
	counter_close(&c);
	assert_int_equal(c.kind, COUNTER_NONE);
}

/* Whatever counter_open picks without forcing is either perf (no reason)
 * or a fallback with a reason. */
static void test_default_open_is_consistent(void **state)
{
	struct counter c;

	(void)state;
	assert_int_equal(counter_open(&c, 0), 0);
	if (c.kind == COUNTER_PERF) {
		assert_null(c.why_fallback);
		assert_string_equal(c.name, "perf-user-cycles");
		assert_true(c.fd >= 0);
		assert_true(c.hz > 0);
	} else {
		assert_non_null(c.why_fallback);
		assert_true(strlen(c.why_fallback) > 0);
		assert_non_null(strstr(c.why_fallback, "perf_event_open"));
	}
	counter_close(&c);
}

/* A longer busy bracket counts more ticks than a shorter one. */
static void test_bracket_grows_with_work(void **state)
{
	struct counter c;
	uint64_t st, short_ticks, long_ticks;

	(void)state;
	counter_open(&c, 0);
	if (c.kind == COUNTER_NONE) {
		counter_close(&c);
		skip();
	}
	counter_start(&c, &st);
	spin_ns(100000);
	short_ticks = counter_stop(&c, &st);
	counter_start(&c, &st);
	spin_ns(20000000);
	long_ticks = counter_stop(&c, &st);
	assert_true(short_ticks > 0);
	assert_true(long_ticks > short_ticks);
	counter_close(&c);
}

static void test_rate_parse(void **state)
{
	static const char *const bad[] = {
		"", "=2e9", "tsc-fenced", "tsc-fenced=", "tsc-fenced=0", "tsc-fenced=-2e9",
		"tsc-fenced=abc", "tsc-fenced=2e9x", "tsc-fenced= 2e9", "tsc-fenced=nan",
		"tsc-fenced=inf", "tsc-fenced=1e14", "none=2e9", "bogus=2e9",
		"a-name-far-longer-than-any-counter-name=2e9",
	};
	struct counter_rate r;

	(void)state;
	assert_int_equal(counter_rate_parse("tsc-fenced=2100000000.25", &r), 0);
	assert_string_equal(r.name, "tsc-fenced");
	assert_true(r.hz == 2100000000.25);
	assert_int_equal(counter_rate_parse("perf-user-cycles=3e9", &r), 0);
	assert_string_equal(r.name, "perf-user-cycles");
	assert_true(r.hz == 3e9);
	assert_int_equal(counter_rate_parse("cntvct=24000000", &r), 0);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (counter_rate_parse(bad[i], &r) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
}

/* What the phase formats parses back to the very same rate. */
static void test_rate_round_trip(void **state)
{
	struct counter c;
	struct counter_rate r;
	char buf[64];

	(void)state;
	counter_open(&c, 1);
	if (c.kind == COUNTER_NONE) {
		assert_int_equal(counter_rate_format(&c, buf, sizeof buf), -1);
		counter_close(&c);
		skip();
	}
	assert_string_equal(c.hz_source, COUNTER_HZ_PROCESS);
	assert_int_equal(counter_rate_format(&c, buf, sizeof buf), 0);
	assert_int_equal(counter_rate_format(&c, buf, 8), -1);
	assert_int_equal(counter_rate_parse(buf, &r), 0);
	assert_string_equal(r.name, c.name);
	assert_true(r.hz == c.hz);
	counter_close(&c);
}

/* The name of this host's fallback counter into r; the test is skipped on
 * a host without one. */
static void fallback_name_or_skip(struct counter_rate *r)
{
	struct counter c;

	counter_open(&c, 1);
	int none = c.kind == COUNTER_NONE;
	snprintf(r->name, sizeof r->name, "%s", c.name);
	counter_close(&c);
	if (none)
		skip();
}

/* The rate given for the counter the process opens is taken as is. */
static void test_given_rate_same_name_taken(void **state)
{
	struct counter c;
	struct counter_rate r;

	(void)state;
	fallback_name_or_skip(&r);
	r.hz = 1234567890.125;
	assert_int_equal(counter_open_given(&c, 1, &r), 0);
	assert_string_equal(c.name, r.name);
	assert_true(c.hz == 1234567890.125);
	assert_string_equal(c.hz_source, COUNTER_HZ_PHASE);
	assert_non_null(strstr(c.why_fallback, "forced"));
	counter_close(&c);
}

/* A perf rate given (an absurd 7 Hz, so that taking it would show): a perf
 * counter takes it, a fallback (always, when forced) does not and
 * calibrates its own.  The source says which happened. */
static void test_given_perf_rate(void **state)
{
	struct counter_rate r = { "perf-user-cycles", 7 };

	(void)state;
	for (int force = 1; force >= 0; force--) {
		struct counter c;

		assert_int_equal(counter_open_given(&c, force, &r), 0);
		if (c.kind == COUNTER_PERF) {
			assert_false(force);
			assert_true(c.hz == 7);
			assert_string_equal(c.hz_source, COUNTER_HZ_PHASE);
		} else if (c.kind == COUNTER_NONE) {
			assert_null(c.hz_source);
		} else {
			assert_string_not_equal(c.name, "perf-user-cycles");
			assert_true(c.hz > 7);
			assert_string_equal(c.hz_source, COUNTER_HZ_PROCESS);
		}
		counter_close(&c);
	}
}

/* The profile's tick rate: given when the ticks are the named counter's. */
static void test_raw_hz_given(void **state)
{
	struct counter_rate r = { "perf-user-cycles", 7 };
	const char *source = NULL;

	(void)state;
	assert_true(counter_raw_hz(&r, &source) > 7);
	assert_string_equal(source, COUNTER_HZ_PROCESS);
	assert_true(counter_raw_hz(NULL, &source) > 0);
	assert_string_equal(source, COUNTER_HZ_PROCESS);
	fallback_name_or_skip(&r);
	/* The raw reads are cntvct_el0 ticks even where the timing counter
	 * converts them (pinned-clock-cycles): that counter's rate is given. */
	if (!strcmp(r.name, "pinned-clock-cycles"))
		snprintf(r.name, sizeof r.name, "cntvct");
	assert_true(counter_raw_hz(&r, &source) == 7);
	assert_string_equal(source, COUNTER_HZ_PHASE);
}

static void test_raw_read_monotonic(void **state)
{
	uint64_t prev = counter_read_raw(), cur;
	int i;

	(void)state;
	assert_non_null(counter_raw_source());
	for (i = 0; i < 10000; i++) {
		cur = counter_read_raw();
		assert_true(cur >= prev);
		prev = cur;
	}
	spin_ns(1000000);
	assert_true(counter_read_raw() > prev);
}

static void test_clock_raw_monotonic(void **state)
{
	uint64_t a, b;

	(void)state;
	a = clock_raw_ns();
	spin_ns(1000);
	b = clock_raw_ns();
	assert_true(b > a);
}

static void test_overhead_positive(void **state)
{
	struct counter c;
	double ticks, ns;

	(void)state;
	counter_open(&c, 0);
	counter_overhead(&c, 31, &ticks, &ns);
	if (c.kind == COUNTER_NONE)
		assert_true(ticks == 0);
	else
		assert_true(ticks > 0);
	assert_true(ns >= 0);
	counter_close(&c);
	/* n below 1 is treated as 1, not as a crash */
	counter_open(&c, 1);
	counter_overhead(&c, 0, &ticks, &ns);
	assert_true(ticks >= 0);
	counter_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forced_fallback_named_and_explained),
		cmocka_unit_test(test_default_open_is_consistent),
		cmocka_unit_test(test_bracket_grows_with_work),
		cmocka_unit_test(test_raw_read_monotonic),
		cmocka_unit_test(test_clock_raw_monotonic),
		cmocka_unit_test(test_overhead_positive),
		cmocka_unit_test(test_rate_parse),
		cmocka_unit_test(test_rate_round_trip),
		cmocka_unit_test(test_given_rate_same_name_taken),
		cmocka_unit_test(test_given_perf_rate),
		cmocka_unit_test(test_raw_hz_given),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
