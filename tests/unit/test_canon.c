/* test_canon.c — canonical KAT form and digest (docs/iccs.md §5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kat/katcompare.h"

#include <stdlib.h>
#include <string.h>

/* The same two records, as a submitter's editor might have mangled them:
 * CRLF, a trailing tab, trailing spaces, doubled empty lines, no final LF. */
static const char messy[] =
	"Count = 0\r\n"
	"Seed_Len = 64 \r\n"
	"Seed = AB\t\r\n"
	"\r\n"
	"PK_Len = 2\r\n"
	"PK = 0102  \r\n"
	"\r\n\r\n"
	"Count = 1\n"
	"PK_Len = 2\n"
	"PK = 0304";

static const char canonical[] =
	"Count = 0\nSeed_Len = 64\nSeed = AB\nPK_Len = 2\nPK = 0102\n"
	"Count = 1\nPK_Len = 2\nPK = 0304\n";

static char *canon(const char *text, const char *mode_str)
{
	struct kat_mode mode;
	assert_int_equal(kat_mode_parse(mode_str, &mode), 0);
	struct strbuf sb = STRBUF_INIT;
	kat_canonical(text, strlen(text), &mode, &sb);
	return sb_detach(&sb);
}

static void test_strict_form(void **state)
{
	(void)state;
	char *c = canon(messy, "strict");
	assert_string_equal(c, canonical);
	free(c);
}

static void test_strict_digest(void **state)
{
	(void)state;
	struct kat_mode mode = { 0, 0 };
	char hex[65];
	kat_canonical_digest(messy, strlen(messy), &mode, hex);
	/* printf '<canonical>' | sha256sum */
	assert_string_equal(hex, "af578be13593bf4277be2ae097bae76bca95a639722b8ec5c140b0a4cfc8ea7a");
}

static void test_nolen_and_first_record(void **state)
{
	(void)state;
	char *c = canon(messy, "nolen:1");
	assert_string_equal(c, "Count = 0\nSeed = AB\nPK = 0102\n");
	free(c);
	struct kat_mode mode;
	assert_int_equal(kat_mode_parse("nolen:1", &mode), 0);
	char hex[65];
	kat_canonical_digest(messy, strlen(messy), &mode, hex);
	assert_string_equal(hex, "6eb4e97d578853619dfa12ac7b4dc595d708de5b41e9ce5d1bfa97be3e4a2a42");
	assert_int_equal(kat_mode_parse("strict:1", &mode), 0);
	kat_canonical_digest(messy, strlen(messy), &mode, hex);
	assert_string_equal(hex, "eaccbcad5d69881e2955c0000df66e6714fa6f413536bb92eababf5c717d965e");
}

/* nolen drops every *_Len key, blank or not, but keeps Pass_Num and keys
 * that merely contain "_Len". */
static void test_nolen_keys(void **state)
{
	(void)state;
	char *c = canon("Count = 0\nM_Len = 56\nMsg_Len = 8\nDst_Len =\n"
			"Pass_Num = 2\nX_Length = 3\nPKa_Len   = 5\nNoEquals_Len\n",
			"nolen");
	assert_string_equal(c, "Count = 0\nPass_Num = 2\nX_Length = 3\nNoEquals_Len\n");
	free(c);
}

/* A blank `_Len` line keeps its key after trailing-space stripping. */
static void test_blank_len_line(void **state)
{
	(void)state;
	char *c = canon("SS_Len = \nSS = \n", "strict");
	assert_string_equal(c, "SS_Len =\nSS =\n");
	free(c);
}

static void test_mode_parse(void **state)
{
	(void)state;
	struct kat_mode m;
	assert_int_equal(kat_mode_parse("strict", &m), 0);
	assert_int_equal(m.nolen, 0);
	assert_int_equal(m.records, 0);
	assert_int_equal(kat_mode_parse("nolen:3", &m), 0);
	assert_int_equal(m.nolen, 1);
	assert_int_equal(m.records, 3);
	char *s = kat_mode_format(&m);
	assert_string_equal(s, "nolen:3");
	free(s);
	assert_int_equal(kat_mode_parse("nolen:", &m), -1);
	assert_int_equal(kat_mode_parse("nolen:0", &m), -1);
	assert_int_equal(kat_mode_parse("nolen:3x", &m), -1);
	assert_int_equal(kat_mode_parse("strictly", &m), -1);
	assert_int_equal(kat_mode_parse("", &m), -1);
	/* A failed parse leaves the mode alone. */
	assert_int_equal(m.nolen, 1);
	assert_int_equal(m.records, 3);
}

static void test_count_records(void **state)
{
	(void)state;
	assert_int_equal(kat_count_records(messy, strlen(messy)), 2);
	assert_int_equal(kat_count_records("", 0), 0);
	assert_int_equal(kat_count_records("Counter = 1\n", 12), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict_form),
		cmocka_unit_test(test_strict_digest),
		cmocka_unit_test(test_nolen_and_first_record),
		cmocka_unit_test(test_nolen_keys),
		cmocka_unit_test(test_blank_len_line),
		cmocka_unit_test(test_mode_parse),
		cmocka_unit_test(test_count_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
