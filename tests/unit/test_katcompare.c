/* test_katcompare.c — reference comparison and kat.sha256 manifests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kat/katcompare.h"

#include <stdlib.h>
#include <string.h>

static char *record(int count, const char *ss)
{
	return xasprintf("Count = %d\nSeed_Len = 64\nSeed = 0%d\nPK_Len = 2\nPK = AB%02d\n"
			 "SK_Len = 1\nSK = 0%d\nCT_Len = 2\nCT = CD%02d\nSS_Len = 1\nSS = %s\n\n",
			 count, count, count, count, count, ss);
}

/* Four records; record `bad` gets `bad_ss` as its SS. */
static char *kat_text(int bad, const char *bad_ss)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 4; i++) {
		char *r = record(i, i == bad ? bad_ss : "EE");
		sb_adds(&sb, r);
		free(r);
	}
	return sb_detach(&sb);
}

static enum kat_status compare(const char *gen, const char *ref, char **detail)
{
	return kat_compare_reference(gen, strlen(gen), ref, strlen(ref), detail);
}

static void test_identical_passes(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL), *detail;
	assert_int_equal(compare(gen, gen, &detail), KAT_PASS);
	assert_null(detail);
	free(gen);
}

static void test_ss_difference_named(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL), *ref = kat_text(3, "EF"), *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "first difference at Count = 3, field SS");
	free(detail);
	free(gen);
	free(ref);
}

/* CRLF and missing trailing spaces in the reference are no difference. */
static void test_crlf_reference_passes(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	struct strbuf ref = STRBUF_INIT;
	for (const char *p = gen; *p; p++) {
		if (*p == '\n')
			sb_adds(&ref, " \r\n\r\n");
		else
			sb_addc(&ref, *p);
	}
	char *detail;
	assert_int_equal(compare(gen, ref.buf, &detail), KAT_PASS);
	assert_null(detail);
	sb_free(&ref);
	free(gen);
}

/* Blank-mode reference: `X_Len = ` matches any length, but the hex must. */
static void test_blank_len_is_wildcard(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	struct strbuf ref = STRBUF_INIT;
	char *copy = xstrdup(gen), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *eq = strstr(l, "_Len = ");
		if (eq && !str_starts_with(l, "Seed_Len"))
			eq[strlen("_Len = ")] = '\0';
		sb_adds(&ref, l);
		sb_addc(&ref, '\n');
	}
	char *detail;
	assert_int_equal(compare(gen, ref.buf, &detail), KAT_PASS);
	/* A blank PK (not a _Len line) is no wildcard. */
	char *p = strstr(ref.buf, "PK = AB01");
	assert_non_null(p);
	memcpy(p, "PK = AB02", 9);
	assert_int_equal(compare(gen, ref.buf, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "first difference at Count = 1, field PK");
	free(detail);
	free(copy);
	sb_free(&ref);
	free(gen);
}

static void test_length_value_difference(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	char *ref = xstrdup(gen);
	char *p = strstr(ref, "Count = 2");
	p = strstr(p, "CT_Len = 2");
	p[strlen("CT_Len = ")] = '3';
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "first difference at Count = 2, field CT_Len");
	free(detail);
	free(ref);
	free(gen);
}

static void test_missing_field(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	char *ref = xstrdup(gen);
	char *p = strstr(strstr(ref, "Count = 1"), "SK_Len");
	memcpy(p, "XK", 2);
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "first difference at Count = 1: reference has field XK_Len, generated SK_Len");
	free(detail);
	free(ref);
	free(gen);
}

/* A reference with more records than we generated: compare those we have,
 * and say so. */
static void test_fewer_generated_records(void **state)
{
	(void)state;
	char *ref = kat_text(-1, NULL);
	char *gen = xstrndup(ref, (size_t)(strstr(ref, "Count = 2") - ref));
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_PASS);
	assert_string_equal(detail, "compared 2 records (generated 2, reference has 4)");
	free(detail);
	/* The generated text stopped inside record 1 (a crypto failure). */
	char *cut = xstrndup(ref, (size_t)(strstr(ref, "SK_Len = 1\nSK = 01") - ref));
	assert_int_equal(compare(cut, ref, &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "Count = 1"));
	assert_non_null(strstr(detail, "only the reference has it"));
	free(detail);
	free(cut);
	free(gen);
	free(ref);
}

static void test_empty_reference(void **state)
{
	(void)state;
	char *detail;
	assert_int_equal(compare("Count = 0\n", "\r\n", &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "no \"Count =\" record"));
	free(detail);
}

static const char manifest[] =
	"# kat.sha256\n"
	"AF578BE13593BF4277BE2AE097BAE76BCA95A639722B8EC5C140B0A4CFC8EA7A strict Foo-128/KAT_KEM_FOO_128.txt\n"
	"6eb4e97d578853619dfa12ac7b4dc595d708de5b41e9ce5d1bfa97be3e4a2a42 nolen:1 KAT_KEM_BAR.txt\n"
	"eaccbcad5d69881e2955c0000df66e6714fa6f413536bb92eababf5c717d965e strict:1 Baz 1/KAT KEM BAZ.txt\n"
	"\n";

static void test_manifest_exact(void **state)
{
	(void)state;
	struct kat_manifest_entry e;
	char *err;
	assert_int_equal(kat_manifest_find(manifest, "Foo-128", "KAT_KEM_FOO_128.txt", &e, &err), 1);
	assert_string_equal(e.digest, "af578be13593bf4277be2ae097bae76bca95a639722b8ec5c140b0a4cfc8ea7a");
	assert_int_equal(e.mode.nolen, 0);
	assert_int_equal(e.mode.records, 0);
	assert_string_equal(e.file, "Foo-128/KAT_KEM_FOO_128.txt");
	kat_manifest_entry_free(&e);
}

static void test_manifest_bare_and_label_only(void **state)
{
	(void)state;
	struct kat_manifest_entry e;
	char *err;
	assert_int_equal(kat_manifest_find(manifest, "Bar-1", "KAT_KEM_BAR.txt", &e, &err), 1);
	assert_int_equal(e.mode.nolen, 1);
	assert_int_equal(e.mode.records, 1);
	kat_manifest_entry_free(&e);
	/* ALGORITHM_INSTANCE unknown: the only entry under the label, whose
	 * path contains spaces. */
	assert_int_equal(kat_manifest_find(manifest, "Baz 1", NULL, &e, &err), 1);
	assert_string_equal(e.file, "Baz 1/KAT KEM BAZ.txt");
	kat_manifest_entry_free(&e);
	assert_int_equal(kat_manifest_find(manifest, "Qux", "KAT_KEM_QUX.txt", &e, &err), 0);
}

static void test_manifest_malformed(void **state)
{
	(void)state;
	struct kat_manifest_entry e;
	char *err;
	assert_int_equal(kat_manifest_find("abc strict X/Y.txt\n", "X", "Y.txt", &e, &err), -1);
	assert_string_equal(err, "line 1: expected \"<sha256-hex> <strict|nolen>[:N] <label>/<file>\"");
	free(err);
	assert_int_equal(kat_manifest_find(
		"af578be13593bf4277be2ae097bae76bca95a639722b8ec5c140b0a4cfc8ea7a loose X/Y.txt\n",
		"X", "Y.txt", &e, &err), -1);
	free(err);
}

static void test_digest_compare(void **state)
{
	(void)state;
	static const char text[] =
		"Count = 0\r\nSeed_Len = 64\nSeed = AB\nPK_Len = 2\nPK = 0102\n\n"
		"Count = 1\nPK_Len = 2\nPK = 0304\n\n";
	struct kat_manifest_entry e;
	char *err, *detail;
	assert_int_equal(kat_manifest_find(manifest, "Foo-128", "KAT_KEM_FOO_128.txt", &e, &err), 1);
	assert_int_equal(kat_compare_digest(text, strlen(text), &e, &detail), KAT_PASS);
	assert_null(detail);
	e.digest[0] = '0';
	assert_int_equal(kat_compare_digest(text, strlen(text), &e, &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "differs from the manifest's 0f578"));
	assert_non_null(strstr(detail, "(strict, Foo-128/KAT_KEM_FOO_128.txt)"));
	free(detail);
	kat_manifest_entry_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_passes),
		cmocka_unit_test(test_ss_difference_named),
		cmocka_unit_test(test_crlf_reference_passes),
		cmocka_unit_test(test_blank_len_is_wildcard),
		cmocka_unit_test(test_length_value_difference),
		cmocka_unit_test(test_missing_field),
		cmocka_unit_test(test_fewer_generated_records),
		cmocka_unit_test(test_empty_reference),
		cmocka_unit_test(test_manifest_exact),
		cmocka_unit_test(test_manifest_bare_and_label_only),
		cmocka_unit_test(test_manifest_malformed),
		cmocka_unit_test(test_digest_compare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
