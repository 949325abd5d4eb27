/*
 * test_shard.c — the shard assignment of docs/method.md §13: "k/n" parsing, greedy
 * longest-first placement on the least-loaded shard, ties by key, unknown
 * costs, --defer, the hashed fallback for keys not in the map, and a digest
 * that depends on the assignment only (not on input order).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "method/shard.h"

static void test_parse(void **state)
{
	struct shard_spec s;
	char *err = NULL;
	(void)state;
	assert_int_equal(shard_parse("2/4", &s, &err), 0);
	assert_int_equal(s.k, 2);
	assert_int_equal(s.n, 4);
	assert_int_equal(shard_parse("1/1", &s, &err), 0);
	const char *bad[] = { "0/4", "5/4", "2", "2/", "/4", "a/b", "2/4x", "1/0", "-1/3", "1/99999" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err = NULL;
		assert_int_equal(shard_parse(bad[i], &s, &err), -1);
		assert_non_null(err);
		assert_non_null(strstr(err, "--shard"));
		free(err);
	}
}

static int shard_named(const struct shard_assignment *a, const char *key)
{
	for (size_t i = 0; i < a->n_items; i++)
		if (!strcmp(a->items[i].key, key))
			return a->items[i].shard;
	fail_msg("%s not in the assignment", key);
	return -1;
}

/* Costs 10, 7, 6, 5, 2 on 2 shards: 10 → 1; 7 → 2; 6 → 2 (7 < 10);
 * 5 → 1 (10 < 13); 2 → 2 (13 < 15). */
static void test_greedy(void **state)
{
	const char *keys[] = { "c/e", "a/b", "c/d", "a/a", "b/x" };
	double costs[] = { 2, 10, 6, 7, 5 };
	struct shard_assignment a;
	(void)state;
	shard_assign(keys, costs, 5, 2, NULL, &a);
	assert_int_equal(a.n_items, 5);
	assert_string_equal(a.items[0].key, "a/b"); /* longest first */
	assert_string_equal(a.items[4].key, "c/e");
	assert_int_equal(shard_named(&a, "a/b"), 1);
	assert_int_equal(shard_named(&a, "a/a"), 2);
	assert_int_equal(shard_named(&a, "c/d"), 2);
	assert_int_equal(shard_named(&a, "b/x"), 1);
	assert_int_equal(shard_named(&a, "c/e"), 2);
	assert_true(a.load_s[1] == 15 && a.load_s[2] == 15);
	assert_true(a.load_s[0] == 0);
	shard_assignment_free(&a);
}

/* Equal costs: placement follows the keys' byte order, whatever the input
 * order, and equal loads go to the lower shard.  Unknown costs count 60 s. */
static void test_ties_and_unknown(void **state)
{
	const char *k1[] = { "z/1", "m/1", "a/1", "q/big" };
	const char *k2[] = { "a/1", "q/big", "z/1", "m/1" };
	double c1[] = { -1, -1, -1, 100 };
	double c2[] = { -1, 100, -1, -1 };
	struct shard_assignment a, b;
	(void)state;
	shard_assign(k1, c1, 4, 2, NULL, &a);
	shard_assign(k2, c2, 4, 2, NULL, &b);
	assert_int_equal(shard_named(&a, "q/big"), 1);
	assert_int_equal(shard_named(&a, "a/1"), 2);
	assert_int_equal(shard_named(&a, "m/1"), 2);
	assert_int_equal(shard_named(&a, "z/1"), 1); /* 100 vs 120 */
	assert_true(a.load_s[2] == 2 * SHARD_UNKNOWN_COST_S);
	assert_string_equal(a.digest, b.digest);
	for (size_t i = 0; i < a.n_items; i++)
		assert_string_equal(a.items[i].key, b.items[i].key);
	shard_assignment_free(&a);
	shard_assignment_free(&b);
}

static void test_defer_and_digest(void **state)
{
	const char *keys[] = { "kem-1/Slow-1", "kem-1/Fast-1", "kem-2/Slow-2", "kem-2/Fast-2" };
	double costs[] = { 900, 10, 800, 20 };
	regex_t re;
	struct shard_assignment a, plain, three;
	(void)state;
	assert_int_equal(regcomp(&re, "Slow", REG_EXTENDED | REG_NOSUB), 0);
	shard_assign(keys, costs, 4, 2, &re, &a);
	assert_int_equal(shard_named(&a, "kem-1/Slow-1"), SHARD_DEFERRED);
	assert_int_equal(shard_named(&a, "kem-2/Slow-2"), SHARD_DEFERRED);
	assert_int_equal(shard_named(&a, "kem-2/Fast-2"), 1);
	assert_int_equal(shard_named(&a, "kem-1/Fast-1"), 2);
	assert_true(a.load_s[0] == 1700);
	char *text = shard_canonical_text(&a);
	assert_string_equal(text, "ngcc-perf shard assignment 1\nn 2\n"
			    "2 kem-1/Fast-1\ndeferred kem-1/Slow-1\n"
			    "1 kem-2/Fast-2\ndeferred kem-2/Slow-2\n");
	free(text);
	/* Another deferral or another n is another assignment. */
	shard_assign(keys, costs, 4, 2, NULL, &plain);
	shard_assign(keys, costs, 4, 3, &re, &three);
	assert_string_not_equal(a.digest, plain.digest);
	assert_string_not_equal(a.digest, three.digest);
	assert_int_equal(strlen(a.digest), 64);
	regfree(&re);
	shard_assignment_free(&a);
	shard_assignment_free(&plain);
	shard_assignment_free(&three);
}

/* A key not in the map: the same shard in every process, spread over all
 * shards, within 1..n. */
static void test_missing_key(void **state)
{
	const char *keys[] = { "a/1" };
	struct shard_assignment a;
	int seen[5] = { 0 };
	(void)state;
	shard_assign(keys, NULL, 1, 4, NULL, &a);
	assert_int_equal(shard_of(&a, "a/1"), 1);
	for (int i = 0; i < 64; i++) {
		char key[32];
		snprintf(key, sizeof key, "cand/label-%d", i);
		int s = shard_of(&a, key);
		assert_true(s >= 1 && s <= 4);
		assert_int_equal(shard_of(&a, key), s);
		seen[s]++;
	}
	for (int s = 1; s <= 4; s++)
		assert_true(seen[s] > 0);
	shard_assignment_free(&a);
}

static void test_duplicates_once(void **state)
{
	const char *keys[] = { "a/1", "b/1", "a/1" };
	double costs[] = { 5, 5, 5 };
	struct shard_assignment a;
	(void)state;
	shard_assign(keys, costs, 3, 1, NULL, &a);
	assert_int_equal(a.n_items, 2);
	assert_true(a.load_s[1] == 10);
	shard_assignment_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_greedy),
		cmocka_unit_test(test_ties_and_unknown),
		cmocka_unit_test(test_defer_and_digest),
		cmocka_unit_test(test_missing_key),
		cmocka_unit_test(test_duplicates_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
