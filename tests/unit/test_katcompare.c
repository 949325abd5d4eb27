/* test_katcompare.c — reference comparison and kat.sha256 manifests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kat/katcompare.h"
#include "kat/katlog.h"

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
	return kat_compare_reference(gen, strlen(gen), ref, strlen(ref), 0, detail);
}

/* The same for a replay cut short on purpose (a timeout recheck). */
static enum kat_status compare_cut(const char *gen, const char *ref, char **detail)
{
	return kat_compare_reference(gen, strlen(gen), ref, strlen(ref), 1, detail);
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
	assert_string_equal(detail, "first difference at Count = 3, field SS (reference line 47, generated line 47): expected EF, got EE (from byte 2; lengths 2 and 2)");
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
	assert_string_equal(detail, "first difference at Count = 1, field PK (reference line 16, generated line 17): expected AB02, got AB01 (from byte 4; lengths 4 and 4)");
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
	assert_string_equal(detail, "first difference at Count = 2, field CT_Len (reference line 32, generated line 32): expected 3, got 2 (from byte 1; lengths 1 and 1)");
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
	assert_string_equal(detail, "first difference at Count = 1: reference has field XK_Len (line 18), generated SK_Len (line 18)");
	free(detail);
	free(ref);
	free(gen);
}

/* A reference with more records than a recheck generated: compare those
 * we have, and say so. */
static void test_fewer_generated_records(void **state)
{
	(void)state;
	char *ref = kat_text(-1, NULL);
	char *gen = xstrndup(ref, (size_t)(strstr(ref, "Count = 2") - ref));
	char *detail;
	assert_int_equal(compare_cut(gen, ref, &detail), KAT_PASS);
	assert_string_equal(detail, "compared 2 records (generated 2, reference has 4)");
	free(detail);
	/* The generated text stopped inside record 1 (a crypto failure). */
	char *cut = xstrndup(ref, (size_t)(strstr(ref, "SK_Len = 1\nSK = 01") - ref));
	assert_int_equal(compare_cut(cut, ref, &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "Count = 1"));
	assert_non_null(strstr(detail, "only the reference has it"));
	free(detail);
	free(cut);
	free(gen);
	free(ref);
}

/* Issue 27 item 8: a long value is shown around its first difference,
 * shortened, with the line numbers of both texts. */
static void test_long_value_excerpt(void **state)
{
	(void)state;
	const char *ref = "Count = 0\nPK = 00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF\n";
	const char *gen = "\n\nCount = 0\nPK = 00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEE00\n";
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "first difference at Count = 0, field PK (reference line 2, "
			    "generated line 4): expected …CCDDEEFF, got …CCDDEE00 (from byte 63; "
			    "lengths 64 and 64)");
	assert_false(kat_detail_blames_reference(detail));
	free(detail);
	const char *gen2 = "Count = 0\nPK = FF112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF\n";
	assert_int_equal(compare(gen2, ref, &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "expected 00112233445566778899AABB…, got FF112233445566778899AABB…"));
	free(detail);
}

/* Issue 27 item 3: a reference cut short is the reference's fault (no
 * fallback rebuild); a value that differs is not. */
static void test_reference_blamed(void **state)
{
	(void)state;
	char *full = kat_text(-1, NULL), *detail;
	char *two = xstrndup(full, (size_t)(strstr(full, "Count = 2") - full));
	assert_int_equal(compare(full, two, &detail), KAT_MISMATCH);
	assert_true(kat_detail_blames_reference(detail));
	free(detail);
	/* cut inside the last record */
	char *mid = xstrndup(full, (size_t)(strstr(full, "Count = 3") - full) + 30);
	assert_int_equal(compare(full, mid, &detail), KAT_MISMATCH);
	assert_true(kat_detail_blames_reference(detail));
	free(detail);
	assert_int_equal(compare("Count = 0\n", "\r\n", &detail), KAT_MISMATCH);
	assert_true(kat_detail_blames_reference(detail));
	free(detail);
	char *ref = kat_text(3, "EF");
	assert_int_equal(compare(full, ref, &detail), KAT_MISMATCH);
	assert_false(kat_detail_blames_reference(detail));
	free(detail);
	free(ref);
	free(mid);
	free(two);
	free(full);
}

/* A full replay against a reference with an extra (junk) record at the
 * end: refused, saying how many records the official driver does not
 * write. */
static void test_extra_reference_record(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	char *junk = record(4, "EE");
	char *ref = xasprintf("%s%s", gen, junk);
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_string_equal(detail, "the reference has 5 record(s), the replay made 4: the "
			    "reference file has 1 record(s) the official driver does not write");
	free(detail);
	free(ref);
	free(junk);
	free(gen);
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

/* Finding 4 of issue 16: a reference cut cleanly after 1 of 4 records is
 * a MISMATCH, not a PASS over the one record it has. */
static void test_cut_reference_fails(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL), *ref = record(0, "EE"), *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_MISMATCH);
	assert_non_null(strstr(detail, "the reference has 1 record(s), the replay made 4"));
	free(detail);
	free(ref);
	free(gen);
}

/* Finding 5: KAT text quoted in a detail is escaped and bounded. */
static void test_detail_escapes_candidate_text(void **state)
{
	(void)state;
	struct strbuf g = STRBUF_INIT, r = STRBUF_INIT;
	sb_adds(&g, "Count = 0\nX\x1b[2J");
	for (int i = 0; i < 4 << 20; i++)
		sb_addc(&g, 'k');
	sb_adds(&g, " = 1\n");
	sb_adds(&r, "Count = 0\nY = 1\n");
	char *detail;
	assert_int_equal(kat_compare_reference(g.buf, g.len, r.buf, r.len, 0, &detail), KAT_MISMATCH);
	assert_null(strchr(detail, 0x1b));
	assert_non_null(strstr(detail, "X\\x1b[2J"));
	assert_true(strlen(detail) < 400);
	free(detail);
	sb_free(&g);
	sb_free(&r);
}

/* Finding 5: the KAT log's RESULT line, fields and output blocks carry
 * candidate text escaped, one line each, bounded. */
static void test_katlog_escapes(void **state)
{
	(void)state;
	struct strbuf big = STRBUF_INIT, log = STRBUF_INIT;
	sb_adds(&big, "\x1b]0;owned\x07\r");
	for (int i = 0; i < 4 << 20; i++)
		sb_addc(&big, 'A');
	char *line = katlog_result_line("kem-1", "L", "MISMATCH", big.buf);
	assert_null(strchr(line, 0x1b));
	assert_null(strchr(line, '\r'));
	assert_true(strlen(line) < 2 * KATLOG_VALUE_MAX);
	assert_non_null(strstr(line, "MISMATCH \\x1b]0;owned\\x07\\x0d"));
	free(line);
	katlog_field(&log, "compiler", big.buf);
	katlog_tail(&log, "candidate stdout", big.buf, 4096);
	assert_null(memchr(log.buf, 0x1b, log.len));
	assert_null(memchr(log.buf, '\r', log.len));
	assert_true(log.len < 4 * KATLOG_VALUE_MAX);
	sb_free(&log);
	sb_free(&big);
}

#define D64 "af578be13593bf4277be2ae097bae76bca95a639722b8ec5c140b0a4cfc8ea7a"

/* Finding 6 and 14: the whole manifest is checked before use. */
static void test_manifest_text_checks(void **state)
{
	(void)state;
	char *err;
	int n;
	static const char nul[] = D64 " strict A/K.txt\n\0" D64 " strict B/K.txt\n";
	assert_int_equal(kat_manifest_check_text(nul, sizeof nul - 1, NULL, &n, &err), -1);
	assert_string_equal(err, "line 2: a NUL byte; kat.sha256 is a text file");
	free(err);
	static const char dup[] = D64 " strict A/K.txt\n" D64 " nolen A/K.txt\n";
	assert_int_equal(kat_manifest_check_text(dup, strlen(dup), NULL, &n, &err), -1);
	assert_non_null(strstr(err, "line 2: 'A/K.txt' is listed again"));
	assert_non_null(strstr(err, "first on line 1"));
	free(err);
	static const char same[] = D64 " strict A/K.txt\n# c\n" D64 " strict A/K.txt\n";
	assert_int_equal(kat_manifest_check_text(same, strlen(same), NULL, &n, &err), 0);
	assert_int_equal(n, 2);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, D64 " strict A/");
	for (int i = 0; i < 1 << 20; i++)
		sb_addc(&sb, 'k');
	sb_addc(&sb, '\n');
	assert_int_equal(kat_manifest_check_text(sb.buf, sb.len, NULL, &n, &err), -1);
	assert_non_null(strstr(err, "longer than 255 bytes"));
	assert_true(strlen(err) < 400);
	free(err);
	struct kat_manifest_entry e;
	assert_int_equal(kat_manifest_find(sb.buf, "A", NULL, &e, &err), -1);
	free(err);
	sb_free(&sb);
	static const char esc[] = D64 " strict A/K\x1b[2J.txt\n";
	assert_int_equal(kat_manifest_check_text(esc, strlen(esc), NULL, &n, &err), -1);
	assert_non_null(strstr(err, "control characters"));
	assert_null(strchr(err, 0x1b));
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

/* A UTF-8 byte-order mark before a reference's first line is ignored,
 * in the comparison, the record count and the canonical digest; and in
 * kat.sha256 (docs/security.md). */
static void test_byte_order_mark_ignored(void **state)
{
	(void)state;
	char *gen = kat_text(-1, NULL);
	char *ref = xasprintf("\xEF\xBB\xBF%s", gen);
	char *detail;
	assert_int_equal(compare(gen, ref, &detail), KAT_PASS);
	assert_null(detail);
	assert_int_equal(kat_count_records(ref, strlen(ref)), 4);
	struct kat_mode mode = { 0 };
	char a[65], b[65];
	kat_canonical_digest(gen, strlen(gen), &mode, a);
	kat_canonical_digest(ref, strlen(ref), &mode, b);
	assert_string_equal(a, b);
	free(ref);
	free(gen);
	static const char man[] = "\xEF\xBB\xBF" D64 " strict A/K.txt\n";
	char *err;
	int n;
	assert_int_equal(kat_manifest_check_text(man, strlen(man), NULL, &n, &err), 0);
	assert_int_equal(n, 1);
	struct kat_manifest_entry e;
	assert_int_equal(kat_manifest_find(man, "A", "K.txt", &e, &err), 1);
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
		cmocka_unit_test(test_long_value_excerpt),
		cmocka_unit_test(test_reference_blamed),
		cmocka_unit_test(test_manifest_exact),
		cmocka_unit_test(test_manifest_bare_and_label_only),
		cmocka_unit_test(test_manifest_malformed),
		cmocka_unit_test(test_digest_compare),
		cmocka_unit_test(test_cut_reference_fails),
		cmocka_unit_test(test_katlog_escapes),
		cmocka_unit_test(test_detail_escapes_candidate_text),
		cmocka_unit_test(test_manifest_text_checks),
		cmocka_unit_test(test_extra_reference_record),
		cmocka_unit_test(test_byte_order_mark_ignored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
