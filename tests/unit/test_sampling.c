/*
 * test_sampling.c — the per-call sampling pass's pure parts (docs/method.md
 * §14 R11): the batch rule (method/sampling.c), the bootstrap CI of the
 * median (stats/robust.c, whose resample medians are taken by selection:
 * checked against sorting), and the sample record's derived figures and
 * their recomputation (evidence/samples_json.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "evidence/samples_json.h"
#include "method/sampling.h"
#include "stats/robust.h"

static void test_batch_rule(void **state)
{
	(void)state;
	/* the least B with overhead ≤ 1 % of B calls */
	assert_int_equal(sampling_batch(25, 1000, 0), 3);       /* 25 ≤ 30, 25 > 20 */
	assert_int_equal(sampling_batch(10, 1000, 0), 1);       /* exactly 1 % */
	assert_int_equal(sampling_batch(10.5, 1000, 0), 2);
	assert_int_equal(sampling_batch(20, 2e6, 0), 1);        /* a 2 ms call */
	assert_int_equal(sampling_batch(30, 50, 0), 60);        /* a 50 ns call */
	/* unknown figures, per-call brackets and the cap */
	assert_int_equal(sampling_batch(0, 1000, 0), 1);
	assert_int_equal(sampling_batch(25, 0, 0), 1);
	assert_int_equal(sampling_batch(25, 50, 1), 1);
	assert_int_equal(sampling_batch(1e6, 0.001, 0), SAMPLING_MAX_BATCH);
	/* the batch it gives keeps the overhead under 1 % */
	for (double call = 3; call < 1e7; call *= 1.7) {
		long b = sampling_batch(23.7, call, 0);
		assert_true(23.7 <= SAMPLING_OVERHEAD_SHARE * b * call * (1 + 1e-12));
		assert_true(b == 1 || 23.7 > SAMPLING_OVERHEAD_SHARE * (b - 1) * call);
	}
}

static void test_sampled_operations(void **state)
{
	(void)state;
	assert_true(sampling_wanted(1e-6, 1e-6));
	assert_true(sampling_wanted(0.0099, 0.011));
	assert_false(sampling_wanted(0.010, 0.010));   /* "under 10 ms" */
	assert_false(sampling_wanted(2.5, 2.4));
	assert_false(sampling_wanted(0, 0));           /* not calibrated, no mean */
	/* a cold call slowed by the host does not decide alone */
	assert_true(sampling_wanted(0.012, 0.0006));
	assert_true(sampling_wanted(0, 0.0006));
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The CI as §7.2 states it, with sorting: the reference for robust.c. */
static void reference_ci(const double *v, size_t n, uint64_t seed, double *lo, double *hi)
{
	double *med = malloc(ROBUST_BOOTSTRAP_RESAMPLES * sizeof *med), *rs = malloc(n * sizeof *rs);
	uint64_t st = seed;
	for (size_t r = 0; r < ROBUST_BOOTSTRAP_RESAMPLES; r++) {
		for (size_t i = 0; i < n; i++)
			rs[i] = v[splitmix64_next(&st) % n];
		qsort(rs, n, sizeof *rs, dcmp);
		med[r] = n % 2 ? rs[n / 2] : (rs[n / 2 - 1] + rs[n / 2]) / 2;
	}
	qsort(med, ROBUST_BOOTSTRAP_RESAMPLES, sizeof *med, dcmp);
	*lo = robust_percentile_sorted(med, ROBUST_BOOTSTRAP_RESAMPLES, 0.025);
	*hi = robust_percentile_sorted(med, ROBUST_BOOTSTRAP_RESAMPLES, 0.975);
	free(med);
	free(rs);
}

static void test_bootstrap_matches_sorting(void **state)
{
	(void)state;
	uint64_t g = 42;
	double v[64];
	for (size_t n = 1; n <= 64; n += (n < 8 ? 1 : 7)) {
		/* many ties (values 0..4) and distinct values alike */
		for (size_t i = 0; i < n; i++)
			v[i] = n % 2 ? (double)(splitmix64_next(&g) % 5) :
				       (double)(splitmix64_next(&g) % 100000) / 7;
		struct robust_stats s;
		double lo, hi;
		robust_compute(v, n, 1000 + n, &s);
		reference_ci(v, n, 1000 + n, &lo, &hi);
		assert_true(s.ci95_low == lo);
		assert_true(s.ci95_high == hi);
	}
}

static void test_bootstrap_deterministic(void **state)
{
	(void)state;
	double v[200];
	uint64_t g = 7;
	for (size_t i = 0; i < 200; i++)
		v[i] = 1e-4 + (double)(splitmix64_next(&g) % 1000) * 1e-8;
	uint64_t seed = robust_bootstrap_seed("examplekem", "ExampleKEM-128", "enc");
	struct robust_stats a, b, c;
	robust_compute(v, 200, seed, &a);
	robust_compute(v, 200, seed, &b);
	assert_true(a.ci95_low == b.ci95_low && a.ci95_high == b.ci95_high);
	assert_true(a.ci95_low <= a.median && a.median <= a.ci95_high);
	/* another operation's name draws other resamples */
	robust_compute(v, 200, robust_bootstrap_seed("examplekem", "ExampleKEM-128", "dec"), &c);
	assert_true(c.ci95_low != a.ci95_low || c.ci95_high != a.ci95_high);
}

/* A complete sample record of n samples, derived. */
static json_t *record(size_t n)
{
	json_t *ns = json_array(), *cy = json_array();
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(ns, json_integer(2000 + (json_int_t)((i * 37) % 101)));
		json_array_append_new(cy, json_integer(5000 + (json_int_t)i));
	}
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:I}, s:s, s:{}, s:s,"
			      " s:{s:f}, s:I, s:I, s:f, s:o, s:o}",
			      "schema", "ngcc-perf/samples/1", "status", "complete",
			      "candidate", "examplekem", "label", "ExampleKEM-128",
			      "operation", "enc", "op_key", "enc", "plan", "samples", (json_int_t)n,
			      "library_sha256", "00", "process", "timing_record",
			      "records/examplekem/ExampleKEM-128__enc.json",
			      "counter", "overhead_ns_median", 20.0,
			      "batch", (json_int_t)4, "brackets_per_sample", (json_int_t)1,
			      "overhead_subtracted_ns", 20.0, "batch_ns", ns, "batch_cycles", cy);
	samples_derive(r);
	return r;
}

static void expect_refused(json_t *r, const char *words)
{
	char *why = NULL;
	assert_int_equal(samples_recompute_check(r, &why), -1);
	assert_non_null(why);
	if (!strstr(why, words))
		fail_msg("\"%s\" lacks \"%s\"", why, words);
	free(why);
	json_decref(r);
}

static void test_record_derived(void **state)
{
	(void)state;
	json_t *r = record(101);
	char *why = NULL;
	assert_int_equal(samples_check(r, &why), 0);
	assert_int_equal(samples_recompute_check(r, &why), 0);
	const json_t *rb = json_object_get(r, "robust");
	/* per call: (ns − 20) / 4 / 1e9; the samples are 2000…2100 ns */
	assert_int_equal(json_integer_value(json_object_get(rb, "n")), 101);
	assert_true(fabs(json_real_value(json_object_get(rb, "median_s")) - (2050 - 20) / 4e9) < 1e-18);
	assert_true(fabs(json_real_value(json_object_get(r, "overhead_share")) - 20.0 / 2050) < 1e-15);
	size_t n;
	double *v = samples_per_call_seconds(r, &n);
	assert_int_equal(n, 101);
	free(v);
	json_decref(r);
}

static void test_record_tampered(void **state)
{
	(void)state;
	json_t *r = record(101);
	json_array_set_new(json_object_get(r, "batch_ns"), 3, json_integer(9000));
	expect_refused(r, "of batch_ns");

	r = record(101);
	json_array_remove(json_object_get(r, "batch_ns"), 100);
	json_array_remove(json_object_get(r, "batch_cycles"), 100);
	samples_derive(r);      /* even with matching figures: fewer than planned */
	expect_refused(r, "batch_ns has 100 sample(s), the plan 101");

	r = record(101);
	json_object_set_new(r, "overhead_subtracted_ns", json_real(0));
	samples_derive(r);
	expect_refused(r, "overhead_subtracted_ns is not 1");

	r = record(101);
	json_object_set_new(json_object_get(r, "robust"), "median_s", json_real(1e-3));
	expect_refused(r, "robust.median_s");

	r = record(101);
	json_array_set_new(json_object_get(r, "batch_ns"), 0, json_string("2000"));
	expect_refused(r, "whole nanoseconds");

	/* the field table: a batch of 0 calls, a foreign schema */
	char *why = NULL;
	r = record(11);
	json_object_set_new(r, "batch", json_integer(0));
	assert_int_equal(samples_check(r, &why), -1);
	free(why);
	why = NULL;
	json_object_set_new(r, "schema", json_string("ngcc-perf/memory/1"));
	assert_int_equal(samples_check(r, &why), -1);
	free(why);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_rule),
		cmocka_unit_test(test_sampled_operations),
		cmocka_unit_test(test_bootstrap_matches_sorting),
		cmocka_unit_test(test_bootstrap_deterministic),
		cmocka_unit_test(test_record_derived),
		cmocka_unit_test(test_record_tampered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
