/*
 * test_natsort.c — docs/report-format.md §4 sort orders: natural label order,
 * operation order and the byte order of profile function names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "method/natsort.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Every ordered pair of `want` compares consistently, and qsort of a
 * reversed copy gives back `want`. */
static void check_order(const char *const *want, size_t n,
			int (*cmp)(const char *, const char *),
			int (*qcmp)(const void *, const void *))
{
	const char **v = malloc(n * sizeof(*v));
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = cmp(want[i], want[j]);

			if ((i < j && c >= 0) || (i > j && c <= 0) || (i == j && c != 0))
				fail_msg("cmp(%s, %s) = %d", want[i], want[j], c);
		}
	for (i = 0; i < n; i++)
		v[i] = want[n - 1 - i];
	qsort(v, n, sizeof(*v), qcmp);
	for (i = 0; i < n; i++)
		assert_string_equal(v[i], want[i]);
	free(v);
}

static void test_mito(void **state)
{
	static const char *const want[] = {
		"Mito-1-128", "Mito-1-256", "Mito-1-512",
		"Mito-1-E-128", "Mito-1-E-256", "Mito-1-E-512",
		"Mito-2-E-128", "Mito-2-E-256", "Mito-2-E-512",
	};

	(void)state;
	check_order(want, N_OF(want), natural_cmp, natural_qsort_cmp);
}

/* Byte order would put CTL-3329-2048 first. */
static void test_ctl(void **state)
{
	static const char *const want[] = { "CTL-257-512", "CTL-769-1024", "CTL-3329-2048" };

	(void)state;
	check_order(want, N_OF(want), natural_cmp, natural_qsort_cmp);
}

/* A reference build precedes its optimized twin; prefixes come first. */
static void test_twins_and_prefixes(void **state)
{
	static const char *const want[] = {
		"NTRE-128", "NTRE-128+avx2", "NTRE-256", "NTRE-256+avx2",
		"NTRE-512", "NTRE-512+avx2",
	};
	static const char *const prefixes[] = { "", "a", "a1", "a1b", "a2", "a10", "ab" };

	(void)state;
	check_order(want, N_OF(want), natural_cmp, natural_qsort_cmp);
	check_order(prefixes, N_OF(prefixes), natural_cmp, natural_qsort_cmp);
}

static void test_numbers(void **state)
{
	/* numeric value, then the shorter spelling; ids by natural order */
	static const char *const want[] = {
		"kem-1", "kem-01", "kem-2", "kem-9", "kem-10", "kem-12", "kem-23", "kem-27",
		"kem-100", "kem-99999999999999999999999", "kem-100000000000000000000000",
	};
	static const char *const hep[] = { "hep-qc-1", "hep-qc-3", "hep-qc-5", "hep-qc-7" };
	static const char *const lwe[] = { "lwekem128", "lwekem256", "lwekem512" };

	(void)state;
	check_order(want, N_OF(want), natural_cmp, natural_qsort_cmp);
	check_order(hep, N_OF(hep), natural_cmp, natural_qsort_cmp);
	check_order(lwe, N_OF(lwe), natural_cmp, natural_qsort_cmp);
	assert_int_equal(natural_cmp("x-007", "x-007"), 0);
}

static void test_operations(void **state)
{
	static const char *const want[] = {
		"keygen", "enc", "dec", "sign", "verify", "exchange", "init_a", "init_b",
		"pass1", "pass2", "pass3", "pass9", "pass10", "pass11", "pass16",
		"derive_a", "derive_b",
		"hash_32", "hash_128", "hash_512", "hash_1024", "hash_4096",
		"hash_8192", "hash_16384", "hash_65536",
		"other", "pass", "zzz",
	};

	(void)state;
	check_order(want, N_OF(want), op_cmp, op_qsort_cmp);
}

/* §7 rows and calls per operation use byte order. */
static void test_byte_order(void **state)
{
	static const char *const fns[] = { "drng", "pseudoXOF", "pseudohash", "sm3hash" };
	static const char *const ops[] = { "dec", "enc", "keygen" };

	(void)state;
	check_order(fns, N_OF(fns), byte_cmp, byte_qsort_cmp);
	check_order(ops, N_OF(ops), byte_cmp, byte_qsort_cmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mito),
		cmocka_unit_test(test_ctl),
		cmocka_unit_test(test_twins_and_prefixes),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_operations),
		cmocka_unit_test(test_byte_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
