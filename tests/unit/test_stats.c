/*
 * test_stats.c — docs/method.md §7.1 statistics and §7.2 dispersion (stats.c) and
 * robust statistics (robust.c), against values worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "stats/robust.h"
#include "stats/stats.h"

#define assert_double_equal(a, b, eps) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_); \
	} while (0)
#define assert_rel(a, b) assert_double_equal((a), (b), fabs((double)(b)) * 1e-12)

/* Five trials of 100 calls at 10, 11, 9, 10, 12 µs per call, 2.1 cycles/ns. */
static const struct trial five[] = {
	{ 100, 1000000, 2100000, 1 },
	{ 100, 1100000, 2310000, 1 },
	{ 100, 900000, 1890000, 1 },
	{ 100, 1000000, 2100000, 1 },
	{ 100, 1200000, 2520000, 1 },
};

static void test_seed_compatible(void **state)
{
	struct timing_stats st;

	(void)state;
	stats_compute(five, 5, &st);
	assert_int_equal(st.measurements, 500);
	assert_true(st.guide_100_measurements_met);
	assert_rel(st.mean_seconds, 5.2e-3 / 500);
	assert_true(st.has_mean_cycles);
	assert_rel(st.mean_cycles, 10920000.0 / 500);
	assert_rel(st.operations_per_second, 500 / 5.2e-3);
	assert_rel(st.median_trial_seconds, 10e-6);
	assert_rel(st.min_trial_seconds, 9e-6);
	assert_rel(st.max_trial_seconds, 12e-6);
	assert_rel(st.median_trial_cycles, 21000);
}

/*
 * Trial means 10, 11, 9, 10, 12 µs: mean 10.4, squared deviations sum 5.2,
 * sample variance 1.3, SD √1.3, CV √1.3/10.4, spread (12 − 9)/10.
 */
static void test_dispersion(void **state)
{
	struct timing_stats st;

	(void)state;
	stats_compute(five, 5, &st);
	assert_double_equal(st.sd_trial_seconds, sqrt(1.3) * 1e-6, 1e-18);
	assert_double_equal(st.cv_trial_seconds, sqrt(1.3) / 10.4, 1e-12);
	assert_double_equal(st.spread_trial_seconds, 0.3, 1e-12);
	assert_double_equal(st.sd_trial_cycles, sqrt(1.3) * 2100, 1e-8);
	assert_double_equal(st.cv_trial_cycles, sqrt(1.3) / 10.4, 1e-12);
	assert_double_equal(st.spread_trial_cycles, 0.3, 1e-12);
	assert_true(st.noisy);
}

/* CV 2 % is not noisy, just above is. */
static void test_noisy_threshold(void **state)
{
	/* trial means 1 ± d around 1 ms: SD = d·√(2/1) for two trials */
	struct trial t[2] = { { 1, 0, 0, 0 }, { 1, 0, 0, 0 } };
	struct timing_stats st;

	(void)state;
	t[0].ns = 1000000 - 14000;
	t[1].ns = 1000000 + 14000;   /* CV = 14000·√2 / 1e6 = 1.98 % */
	stats_compute(t, 2, &st);
	assert_false(st.noisy);
	t[0].ns = 1000000 - 14200;
	t[1].ns = 1000000 + 14200;   /* 2.008 % */
	stats_compute(t, 2, &st);
	assert_true(st.noisy);
}

static void test_even_median_and_one_trial(void **state)
{
	struct trial t[4] = {
		{ 10, 40, 400, 1 }, { 10, 10, 100, 1 }, { 10, 30, 300, 1 }, { 10, 20, 200, 1 },
	};
	struct timing_stats st;

	(void)state;
	stats_compute(t, 4, &st);
	assert_rel(st.median_trial_seconds, 2.5e-9);   /* (2 + 3) / 2 ns */
	assert_rel(st.median_trial_cycles, 25);
	assert_int_equal(st.measurements, 40);
	assert_false(st.guide_100_measurements_met);

	stats_compute(t, 1, &st);
	assert_true(st.sd_trial_seconds == 0 && st.cv_trial_seconds == 0);
	assert_true(st.spread_trial_seconds == 0 && st.cv_trial_cycles == 0);
	assert_false(st.noisy);
	assert_rel(st.median_trial_seconds, 4e-9);
}

static void test_cycles_null(void **state)
{
	struct trial t[3] = { five[0], five[1], five[2] };
	struct timing_stats st;

	(void)state;
	t[1].cycles = 0;                 /* a zero count makes the mean null */
	stats_compute(t, 3, &st);
	assert_false(st.has_mean_cycles);
	t[1] = five[1];
	t[2].has_cycles = 0;             /* so does a trial without a counter */
	stats_compute(t, 3, &st);
	assert_false(st.has_mean_cycles);
	assert_rel(st.mean_seconds, 3.0e-3 / 300);
}

static void test_guide_100(void **state)
{
	struct trial t[1] = { { 99, 990, 0, 0 } };
	struct timing_stats st;

	(void)state;
	stats_compute(t, 1, &st);
	assert_false(st.guide_100_measurements_met);
	t[0].calls = 100;
	stats_compute(t, 1, &st);
	assert_true(st.guide_100_measurements_met);
}

static void test_stats_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_true(stats_median(odd, 3) == 3);
	assert_true(stats_median(even, 4) == 2.5);
	assert_true(odd[0] == 5 && even[0] == 4);   /* inputs untouched */
}

static void test_stats_sort(void **state)
{
	double v[] = { 2.5, -1, 7, 0, 2.5 };

	(void)state;
	stats_sort(v, 5);
	assert_true(v[0] == -1 && v[1] == 0 && v[2] == 2.5 && v[3] == 2.5 && v[4] == 7);
	stats_sort(v, 0);
}

static void test_percentile(void **state)
{
	double s[] = { 1, 2, 3, 4, 5 };

	(void)state;
	assert_rel(robust_percentile_sorted(s, 5, 0.25), 2);
	assert_rel(robust_percentile_sorted(s, 5, 0.01), 1.04);
	assert_rel(robust_percentile_sorted(s, 5, 0.99), 4.96);
	assert_rel(robust_percentile_sorted(s, 5, 0), 1);
	assert_rel(robust_percentile_sorted(s, 5, 1), 5);
	assert_rel(robust_percentile_sorted(s, 1, 0.95), 1);
}

/* 1…100 in a scrambled order. */
static void hundred(double *v)
{
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = (double)((i * 37) % 100 + 1);
}

static void test_robust_hundred(void **state)
{
	struct robust_stats r;
	double v[101];

	(void)state;
	hundred(v);
	robust_compute(v, 100, 1, &r);
	assert_int_equal(r.n, 100);
	assert_rel(r.median, 50.5);
	assert_rel(r.iqm, 50.5);          /* positions 25…74 hold 26…75 */
	assert_rel(r.p1, 1.99);
	assert_rel(r.p5, 5.95);
	assert_rel(r.p25, 25.75);
	assert_rel(r.p75, 75.25);
	assert_rel(r.p95, 95.05);
	assert_rel(r.p99, 99.01);
	assert_rel(r.mad, 25);            /* deviations 0.5, 0.5, 1.5, … */
	assert_int_equal(r.outliers, 0);
	assert_true(r.ci95_low <= r.median && r.median <= r.ci95_high);
	assert_true(r.ci95_low > 40 && r.ci95_high < 61);

	/* one far value: 0.6745·(1e6 − 51)/25 is far above 3.5 */
	v[100] = 1e6;
	robust_compute(v, 101, 1, &r);
	assert_rel(r.median, 51);
	assert_int_equal(r.outliers, 1);
}

/* Modified Z: 0.6745·|x − 51|/MAD against 3.5, at the boundary. */
static void test_outlier_boundary(void **state)
{
	/* median 10, deviations 0,1,1,1,1,… → MAD 1: limit |x − 10| > 5.189 */
	double v[] = { 9, 9, 10, 11, 11, 15.18, 4.8 };
	struct robust_stats r;

	(void)state;
	robust_compute(v, 7, 7, &r);
	assert_rel(r.median, 10);
	assert_rel(r.mad, 1);
	assert_int_equal(r.outliers, 1);   /* 4.8 (5.2 away), not 15.18 */
}

static void test_iqm_positions(void **state)
{
	double v[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 1000 };
	struct robust_stats r;

	(void)state;
	robust_compute(v, 10, 1, &r);   /* positions 2…7 */
	assert_rel(r.iqm, 4.5);
	robust_compute(v, 3, 1, &r);    /* positions 0…2 */
	assert_rel(r.iqm, 1);
}

static void test_constant_and_single(void **state)
{
	double v[5] = { 3, 3, 3, 3, 3 };
	struct robust_stats r;

	(void)state;
	robust_compute(v, 5, 42, &r);
	assert_true(r.median == 3 && r.ci95_low == 3 && r.ci95_high == 3);
	assert_true(r.mad == 0 && r.outliers == 0);
	robust_compute(v, 1, 42, &r);
	assert_true(r.median == 3 && r.iqm == 3 && r.p1 == 3 && r.p99 == 3);
}

/* Reference outputs of splitmix64 from state 0. */
static void test_splitmix64(void **state)
{
	uint64_t s = 0;

	(void)state;
	assert_true(splitmix64_next(&s) == 0xe220a8397b1dcdafULL);
	assert_true(splitmix64_next(&s) == 0x6e789e6aa1b965f4ULL);
	assert_true(splitmix64_next(&s) == 0x06c45d188009454fULL);
}

/* sha256("kem-12/CTL-257-512/dec") = 54b60e84f32facd0… */
static void test_bootstrap_seed_and_determinism(void **state)
{
	uint64_t seed = robust_bootstrap_seed("kem-12", "CTL-257-512", "dec");
	struct robust_stats a, b, c;
	double v[100];

	(void)state;
	assert_true(seed == 0x54b60e84f32facd0ULL);
	hundred(v);
	robust_compute(v, 100, seed, &a);
	robust_compute(v, 100, seed, &b);
	robust_compute(v, 100, seed + 1, &c);
	assert_true(a.bootstrap_seed == seed);
	assert_true(a.ci95_low == b.ci95_low && a.ci95_high == b.ci95_high);
	/* values from an independent implementation of the documented rule */
	assert_rel(a.ci95_low, 40.5);
	assert_rel(a.ci95_high, 60.01249999999993);
	/* another seed draws other resamples (same data, other CI bounds) */
	assert_true(a.ci95_low != c.ci95_low || a.ci95_high != c.ci95_high);
}

static void test_throughput(void **state)
{
	struct trial t[2] = { { 1000, 500000000, 0, 0 }, { 1000, 500000000, 0, 0 } };

	double mbs = 0;

	(void)state;
	/* 1024 B · 2000 calls / 1 s / 1e6 */
	assert_int_equal(stats_throughput_mb_per_s(t, 2, 1024, &mbs), 0);
	assert_rel(mbs, 2.048);
	/* no trials: no time, no throughput */
	assert_int_equal(stats_throughput_mb_per_s(t, 0, 1024, &mbs), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_compatible),
		cmocka_unit_test(test_dispersion),
		cmocka_unit_test(test_noisy_threshold),
		cmocka_unit_test(test_even_median_and_one_trial),
		cmocka_unit_test(test_cycles_null),
		cmocka_unit_test(test_guide_100),
		cmocka_unit_test(test_stats_median),
		cmocka_unit_test(test_stats_sort),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_robust_hundred),
		cmocka_unit_test(test_outlier_boundary),
		cmocka_unit_test(test_iqm_positions),
		cmocka_unit_test(test_constant_and_single),
		cmocka_unit_test(test_splitmix64),
		cmocka_unit_test(test_bootstrap_seed_and_determinism),
		cmocka_unit_test(test_throughput),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
