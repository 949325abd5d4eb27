/*
 * test_pool.c — docs/method.md §14 R1 and R2: the seed rule (00..2e, then
 * 0x30 + k), the pool record's derived figures (per-input medians, their
 * max/min ratio, the "input-dependent timing" flag and its threshold) and
 * validate's recomputation of them, the batch size of the pool pass, and
 * the pool format's field table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "campaign/pool.h"
#include "evidence/json.h"
#include "evidence/pool_json.h"
#include "method/seeds.h"

static void test_seed_rule(void **state)
{
	unsigned char s[SEED_BYTES];
	char hex[2 * SEED_BYTES + 1];
	(void)state;
	seed_indexed(0, s);
	for (unsigned i = 0; i + 1 < SEED_BYTES; i++)
		assert_int_equal(s[i], i);
	assert_int_equal(s[SEED_BYTES - 1], 0x30); /* not the fixed seed's 0x2f */
	seed_indexed(4, s);
	for (unsigned i = 0; i + 1 < SEED_BYTES; i++)
		assert_int_equal(s[i], i);
	assert_int_equal(s[SEED_BYTES - 1], 0x34);
	seed_indexed(SEED_INDEX_MAX, s);
	assert_int_equal(s[SEED_BYTES - 1], 0xff);
	seed_indexed_hex(1, hex);
	assert_string_equal(hex, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
				 "202122232425262728292a2b2c2d2e31");
}

/* A pool record of n inputs whose batches are given (5 per input, calls
 * per batch 2), derived. */
static json_t *pool_record(size_t n, const long long batches[][5])
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:i, s:i, s:i},"
			      " s:{s:s}, s:{s:s, s:i}}",
			      "schema", "ngcc-perf/pool/1", "status", "complete", "candidate", "c",
			      "label", "L", "operation", "dec", "op_key", "dec",
			      "library_sha256", "ab", "plan", "pool_size", (int)n, "rounds", 5,
			      "calls_per_batch", 2, "seed", "mode", "per-input", "inputs", "mode",
			      "pool", "pool_size", (int)n);
	json_t *in = json_array();
	for (size_t k = 0; k < n; k++) {
		char hex[2 * SEED_BYTES + 1];
		json_t *b = json_array();
		for (int i = 0; i < 5; i++)
			json_array_append_new(b, json_integer(batches[k][i]));
		seed_indexed_hex((unsigned)k, hex);
		json_array_append_new(in, json_pack("{s:i, s:s, s:o}", "input", (int)k, "seed_hex",
						    hex, "batch_ns", b));
	}
	json_object_set_new(r, "per_input", in);
	pool_derive(r);
	return r;
}

static void test_ratio_and_flag(void **state)
{
	/* medians per call: 100/2, 140/2 -> ratio 1.4 (not flagged) */
	static const long long quiet[][5] = { { 100, 90, 5000, 100, 120 }, { 140, 140, 139, 150, 1 } };
	/* 100/2 and 151/2 -> 1.51 (flagged) */
	static const long long odd[][5] = { { 100, 100, 100, 100, 100 }, { 151, 151, 151, 151, 151 } };
	static const long long edge[][5] = { { 100, 100, 100, 100, 100 }, { 150, 150, 150, 150, 150 } };
	char *why = NULL;
	(void)state;
	json_t *r = pool_record(2, quiet);
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(r, "per_input"), 0),
						    "median_ns_per_call")) == 50);
	assert_true(json_real_value(json_object_get(r, "median_ns_per_call_min")) == 50);
	assert_true(json_real_value(json_object_get(r, "median_ns_per_call_max")) == 70);
	assert_true(fabs(json_real_value(json_object_get(r, "input_ratio")) - 1.4) < 1e-12);
	assert_true(json_real_value(json_object_get(r, "ratio_threshold")) == POOL_FLAG_RATIO);
	assert_false(json_is_true(json_object_get(r, "input_dependent")));
	assert_int_equal(pool_check(r, &why), 0);
	assert_int_equal(pool_recompute_check(r, &why), 0);
	json_decref(r);
	r = pool_record(2, odd);
	assert_true(json_is_true(json_object_get(r, "input_dependent")));
	assert_int_equal(pool_recompute_check(r, &why), 0);
	json_decref(r);
	/* exactly the threshold is not above it */
	r = pool_record(2, edge);
	assert_false(json_is_true(json_object_get(r, "input_dependent")));
	assert_false(pool_flag(1.5, 1.5));
	assert_true(pool_flag(1.5000001, 1.5));
	json_decref(r);
}

static void expect_refused(json_t *r, const char *part)
{
	char *why = NULL;
	assert_int_equal(pool_recompute_check(r, &why), -1);
	assert_non_null(why);
	if (!strstr(why, part))
		fail_msg("'%s' does not say '%s'", why, part);
	free(why);
	json_decref(r);
}

static void test_recompute_catches(void **state)
{
	static const long long b[][5] = { { 100, 100, 100, 100, 100 }, { 400, 400, 400, 400, 400 } };
	(void)state;
	json_t *r = pool_record(2, b);
	json_object_set_new(r, "input_dependent", json_false());
	expect_refused(r, "input_dependent is false");
	r = pool_record(2, b);
	json_object_set_new(r, "input_ratio", json_real(1.2));
	expect_refused(r, "input_ratio");
	r = pool_record(2, b);
	json_t *in0 = json_array_get(json_object_get(r, "per_input"), 0);
	json_array_set_new(json_object_get(in0, "batch_ns"), 1, json_integer(900));
	json_array_set_new(json_object_get(in0, "batch_ns"), 2, json_integer(900));
	json_array_set_new(json_object_get(in0, "batch_ns"), 3, json_integer(900));
	expect_refused(r, "median of its batches");
	r = pool_record(2, b);
	json_object_set_new(json_array_get(json_object_get(r, "per_input"), 1), "seed_hex",
			    json_string("00"));
	expect_refused(r, "not the seed of input 1");
	r = pool_record(2, b);
	json_object_set_new(r, "ratio_threshold", json_real(5));
	expect_refused(r, "ratio_threshold");
}

static void test_field_table(void **state)
{
	static const long long b[][5] = { { 100, 100, 100, 100, 100 } };
	char *why = NULL;
	(void)state;
	json_t *r = pool_record(1, b);
	json_object_set_new(r, "input_dependent", json_string("yes"));
	assert_int_equal(pool_check(r, &why), -1);
	free(why);
	why = NULL;
	json_decref(r);
	r = pool_record(1, b);
	json_object_set_new(json_object_get(r, "plan"), "pool_size", json_integer(65));
	assert_int_equal(pool_check(r, &why), -1);
	free(why);
	json_decref(r);
}

static void test_calls_per_batch(void **state)
{
	struct planning p;
	(void)state;
	planning_defaults(&p);
	/* a batch aims at trial_target / 100 = 10 ms */
	assert_int_equal(pool_calls_per_batch(&p, 1e-3), 10);
	assert_int_equal(pool_calls_per_batch(&p, 9e-3), 2);
	assert_int_equal(pool_calls_per_batch(&p, 0.5), 1);
	assert_int_equal(pool_calls_per_batch(&p, 1e-9), 20000); /* max_iters_per_trial */
	p.trial_target_s = 0.002;
	assert_int_equal(pool_calls_per_batch(&p, 1e-4), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_rule),
		cmocka_unit_test(test_ratio_and_flag),
		cmocka_unit_test(test_recompute_catches),
		cmocka_unit_test(test_field_table),
		cmocka_unit_test(test_calls_per_batch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
