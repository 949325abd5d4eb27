/*
 * test_variant.c — model/variant.h: the implementation variants of issue
 * #29 as pages name them.  A file stem's suffix gives the variant and the
 * base label (`NTRE-128+avx512` → optimized-avx512 of `NTRE-128`), an
 * unknown or bare suffix is part of a reference label, the instance-cell
 * tag and the "versions measured" words follow the contract, and page
 * order puts the reference first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "method/cpuext.h"
#include "model/variant.h"

static void expect(const char *stem, const char *name, const char *label, const char *shown)
{
	char *l = NULL;
	const struct ds_variant *v = ds_variant_of_stem(stem, &l);
	assert_non_null(v);
	assert_string_equal(v->name, name);
	assert_string_equal(l, label);
	char *d = ds_variant_display(l, v);
	assert_string_equal(d, shown);
	free(d);
	free(l);
}

static void test_stems(void **state)
{
	(void)state;
	expect("NTRE-128", "reference", "NTRE-128", "NTRE-128");
	expect("NTRE-128+avx2", "optimized-avx2", "NTRE-128", "NTRE-128 (AVX2)");
	expect("NTRE-128+avx512", "optimized-avx512", "NTRE-128", "NTRE-128 (AVX-512)");
	expect("NTRE-128+neon", "optimized-neon", "NTRE-128", "NTRE-128 (NEON)");
	expect("NTRE-128+portable", "optimized-portable", "NTRE-128", "NTRE-128 (portable)");
	expect("NTRE-128+additional", "additional", "NTRE-128", "NTRE-128 (additional)");
	/* not a variant suffix: the whole stem is a reference label */
	expect("NTRE-128+sse4", "reference", "NTRE-128+sse4", "NTRE-128+sse4");
	expect("NTRE-128+AVX2", "reference", "NTRE-128+AVX2", "NTRE-128+AVX2");
	expect("+avx2", "reference", "+avx2", "+avx2");
	/* only the last suffix counts */
	expect("X+neon+avx2", "optimized-avx2", "X+neon", "X+neon (AVX2)");
}

static void test_names_and_order(void **state)
{
	(void)state;
	static const char *const want[] = { "reference", "optimized-avx2", "optimized-avx512",
		"optimized-neon", "optimized-portable", "additional" };
	static const char *const versions[] = { "reference", "optimized (AVX2)",
		"optimized (AVX-512)", "optimized (NEON)", "optimized (portable)", "additional" };
	assert_int_equal(n_ds_variants, 6);
	assert_ptr_equal(DS_REFERENCE, ds_variant_find("reference"));
	assert_null(DS_REFERENCE->tag);
	for (size_t i = 0; i < n_ds_variants; i++) {
		const struct ds_variant *v = ds_variant_find(want[i]);
		assert_non_null(v);
		assert_int_equal(ds_variant_rank(v), (int)i);
		assert_string_equal(v->version, versions[i]);
	}
	assert_null(ds_variant_find("iccs-baseline"));
	assert_null(ds_variant_find("optimized"));
	assert_null(ds_variant_find(NULL));
}

/* The pages' table (model/variant.c) and the method's (method/cpuext.c,
 * which discovery, build and the CPU check use) name the same variants
 * with the same stem suffixes and extension names: one changed without
 * the other fails here. */
static void test_agrees_with_method(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_ds_variants; i++) {
		const struct ds_variant *v = &ds_variants[i];
		assert_true(variant_known(v->name));
		const char *tag = variant_tag(v->name);
		if (!tag) {
			assert_string_equal(v->suffix, "");
			assert_null(v->tag);
			continue;
		}
		char suffix[64];
		snprintf(suffix, sizeof suffix, "+%s", tag);
		assert_string_equal(v->suffix, suffix);
		if (strncmp(v->name, "optimized-", 10))
			continue;
		assert_string_equal(v->tag, cpu_ext_display(variant_implied_ext(v->name)));
	}
	/* every variant the method knows but our own baseline has a row */
	static const char *const names[] = { "reference", "optimized-avx2", "optimized-avx512",
					     "optimized-neon", "optimized-portable", "additional" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		assert_true(variant_known(names[i]));
		assert_non_null(ds_variant_find(names[i]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stems),
		cmocka_unit_test(test_names_and_order),
		cmocka_unit_test(test_agrees_with_method),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
