/*
 * test_katgen.c — the KEM KAT replay against small fake KEMs: official seed
 * schedule (docs/iccs.md §8.5), field order and format, guard zones, length
 * checks, never-written lengths, failures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kat/katgen.h"

/* docs/iccs.md §8.5: the Seed of Count 0..9. */
static const char *const spec_seeds[10] = {
	"927F06B594798A4DDFAA4F03F92AAAF04E1D453F6ED1DE19B86D3AADE048A65483DF4754049B5CD3F586406CF2C64875C51EDB576DF342B5A970F40EABC15D3C",
	"58561187CBBF6CDC0ECFB2D25965F936BE05AA961542D0E23E4ADFA8B6D0E3FDC043ED72AC1C28F03CF831FBB6A8BC6DB9EE0475520EE8578B1970E407EE0352",
	"439838DD1F4B359C4D4BC2E19395DAF5007B3B682831FA554BFE3C8862E2987774EE95AC841FB3880239C0415B1D2AE696D4C419A250B1C215743DBC4A5E375D",
	"E39CE10AA5640FB7A302A2B9656782F34D8E34BAB14E8A1D7197A9B9ECB433AA6ADB1EC6E4368CB27BCC161336E03495E9D22F78269274A08E3862F0B3DC1959",
	"DD56E75E688D1BC085752F748B794CE294486610198BC8B10583A13321E3880FB1E737E7E1A0027B37AC336823062E139D46F6138D421C52EA7D8FD18DC870C4",
	"E06A2ABF26653E4E3738E2C59C6F7C5E16A21B27D9E236949F5BF9D31FF2276710E7F10B3B883892B20F475F4CE80DE040153475BDB3E5F281B84D5AB7FDBB13",
	"D4E38FBBD4B41B3E833413BF32EBDDA87C7DE37C88B122FAB17085EEECAA3339E949C673A623F0615A67268B346C20497311D70BD68B8063DDE88016B49A2A30",
	"D3C091E152CF5AA6890CFBB1921C50C7E2A94CA09D418B7EC06CAA3F15D94055B7C4A0FDF5AE77B5C15E5D016B2252B861C7E8EB2D6BEFB5C1C9EFDCB3E6B4D7",
	"36552B180890EEDF85AD939FBEF04C1B05A84E94E2F6304525E13B31A647E7E5A3BEA8AC6FB939A634686810721F834A7A37C86E608B3803F2A927242B101C77",
	"FC2B5EF7B166BB12528CDDE2F1E3C8FBA660C4D31F9009F5C2B63D6FAB9C692662D7AB31A0AE945168967EB9ED510156AA7E3549A122C21C8D0A431FC0BEBFA7",
};

/*
 * The fake KEM: pk = sk = the record's seed (64 bytes), ct = seed[0..31],
 * ss = seed[32..63], so every field of a record is a slice of the spec seed.
 * `fault` selects one misbehaviour.
 */
enum fault {
	F_NONE,
	F_KEYGEN_WRITES_PAST_PK,
	F_KEYGEN_WRITES_BEFORE_SK,
	F_DEC_WRITES_PAST_SS,
	F_ENC_LONG_CT_LEN,
	F_NEVER_WRITE_LENS,
	F_REQUIRE_PRESET_LENS,
	F_DEC_WRONG_AT_3,
	F_DEC_RETURNS_MINUS_1,
	F_ENC_EMPTY_CT,
};
static enum fault fault;
static int fault_count_seen;
static unsigned char cur_seed[KAT_SEED_BYTES];
static int record_no;

#define PK 64
#define SK 64
#define CT 32
#define SS 32

static int fake_seed(const unsigned char *seed, unsigned long long len)
{
	assert_int_equal(len, KAT_SEED_BYTES);
	memcpy(cur_seed, seed, KAT_SEED_BYTES);
	record_no++;
	return 0;
}

static int preset_ok(unsigned long long v, unsigned long long want)
{
	if (fault == F_REQUIRE_PRESET_LENS && v != want) {
		fault_count_seen++;
		return 0;
	}
	return 1;
}

static int fake_keygen(unsigned char *pk, unsigned long long *pk_len,
		       unsigned char *sk, unsigned long long *sk_len)
{
	if (!preset_ok(*pk_len, PK) || !preset_ok(*sk_len, SK))
		return -7;
	memcpy(pk, cur_seed, PK);
	memcpy(sk, cur_seed, SK);
	if (fault == F_KEYGEN_WRITES_PAST_PK)
		pk[PK] = 0;
	if (fault == F_KEYGEN_WRITES_BEFORE_SK)
		sk[-3] = 0;
	if (fault == F_NEVER_WRITE_LENS)
		return 0;
	/* Shorter than the getters: the next call's pre-set must undo it. */
	*pk_len = PK - 1;
	*sk_len = SK;
	if (fault != F_REQUIRE_PRESET_LENS)
		*pk_len = PK;
	return 0;
}

static int fake_enc(unsigned char *pk, unsigned long long pk_len,
		    unsigned char *ss, unsigned long long *ss_len,
		    unsigned char *ct, unsigned long long *ct_len)
{
	if (!preset_ok(*ss_len, SS) || !preset_ok(*ct_len, CT))
		return -7;
	memcpy(ct, pk, CT);
	memcpy(ss, pk + CT, SS);
	if (fault == F_NEVER_WRITE_LENS)
		return 0;
	assert_true(pk_len <= PK);
	*ss_len = SS;
	*ct_len = CT;
	if (fault == F_ENC_LONG_CT_LEN)
		*ct_len = CT + 1;
	if (fault == F_ENC_EMPTY_CT)
		*ct_len = 0;
	return 0;
}

static int fake_dec(unsigned char *sk, unsigned long long sk_len,
		    unsigned char *ct, unsigned long long ct_len,
		    unsigned char *ss, unsigned long long *ss_len)
{
	(void)ct;
	(void)ct_len;
	if (!preset_ok(*ss_len, SS))
		return -7;
	assert_int_equal(sk_len, SK);
	memcpy(ss, sk + CT, SS);
	if (fault == F_DEC_WRONG_AT_3 && record_no == 4)
		ss[SS - 1] ^= 1;
	if (fault == F_DEC_WRITES_PAST_SS)
		ss[SS + 63] = 1;
	if (fault == F_DEC_RETURNS_MINUS_1)
		return -1;
	if (fault != F_NEVER_WRITE_LENS)
		*ss_len = SS;
	return 0;
}

static const struct kem_api fake_api = {
	.pk_bytes = PK, .sk_bytes = SK, .ct_bytes = CT, .ss_bytes = SS,
	.seed = fake_seed, .keygen = fake_keygen,
	.enc = fake_enc, .dec = fake_dec,
};

static enum kat_status run(enum fault f, int records, struct strbuf *text,
			   char **detail)
{
	fault = f;
	fault_count_seen = 0;
	record_no = 0;
	return katgen_kem(&fake_api, records, text, detail);
}

/* The expected text of one record, built from the spec seed's hex. */
static void expected_record(struct strbuf *sb, int count)
{
	const char *s = spec_seeds[count];

	sb_addf(sb, "Count = %d\nSeed_Len = 64\nSeed = %s\n", count, s);
	sb_addf(sb, "PK_Len = 64\nPK = %s\n", s);
	sb_addf(sb, "SK_Len = 64\nSK = %s\n", s);
	sb_addf(sb, "CT_Len = 32\nCT = %.64s\n", s);
	sb_addf(sb, "SS_Len = 32\nSS = %s\n\n", s + 64);
}

static void test_full_text_matches_spec_seeds(void **state)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	char *detail = (char *)"unset";
	(void)state;

	assert_int_equal(run(F_NONE, 10, &text, &detail), KAT_PASS);
	assert_null(detail);
	for (int i = 0; i < 10; i++)
		expected_record(&want, i);
	assert_string_equal(text.buf, want.buf);
	sb_free(&text);
	sb_free(&want);
}

static void test_default_record_count(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_NONE, 0, &text, NULL), KAT_PASS);
	assert_int_equal(record_no, KAT_DEFAULT_RECORDS);
	assert_non_null(strstr(text.buf, "\nCount = 9\n"));
	assert_null(strstr(text.buf, "Count = 10"));
	sb_free(&text);
}

static void test_seed_for_count(void **state)
{
	unsigned char seed[KAT_SEED_BYTES];
	char hex[2 * KAT_SEED_BYTES + 1];
	(void)state;

	for (int i = 0; i < 10; i++) {
		katgen_seed_for_count(i, seed);
		for (int j = 0; j < KAT_SEED_BYTES; j++)
			snprintf(hex + 2 * j, 3, "%02X", seed[j]);
		assert_string_equal(hex, spec_seeds[i]);
	}
}

static void test_never_written_lengths(void **state)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_NEVER_WRITE_LENS, 10, &text, NULL), KAT_PASS);
	for (int i = 0; i < 10; i++)
		expected_record(&want, i);
	assert_string_equal(text.buf, want.buf);
	sb_free(&text);
	sb_free(&want);
}

/* keygen leaves pk_len = 63 behind; every later call must still see the
 * getter values in its out-params. */
static void test_lengths_preset_before_each_call(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_REQUIRE_PRESET_LENS, 3, &text, &detail), KAT_PASS);
	assert_int_equal(fault_count_seen, 0);
	assert_non_null(strstr(text.buf, "PK_Len = 63\nPK = "));
	sb_free(&text);
}

static void test_empty_field_has_trailing_space(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_ENC_EMPTY_CT, 1, &text, NULL), KAT_PASS);
	assert_non_null(strstr(text.buf, "\nCT_Len = 0\nCT = \nSS_Len = 32\n"));
	sb_free(&text);
}

static void expect_failure(enum fault f, enum kat_status want,
			   const char *const *parts)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;

	assert_int_equal(run(f, 10, &text, &detail), want);
	assert_non_null(detail);
	for (; *parts; parts++) {
		if (!strstr(detail, *parts))
			fail_msg("detail \"%s\" lacks \"%s\"", detail, *parts);
	}
	free(detail);
	sb_free(&text);
}

static void test_guard_after_pk(void **state)
{
	const char *parts[] = { "Count 0", "kem_keygen", "after", "pk", NULL };
	(void)state;
	expect_failure(F_KEYGEN_WRITES_PAST_PK, KAT_OVERFLOW, parts);
}

static void test_guard_before_sk(void **state)
{
	const char *parts[] = { "Count 0", "kem_keygen", "before", "sk", NULL };
	(void)state;
	expect_failure(F_KEYGEN_WRITES_BEFORE_SK, KAT_OVERFLOW, parts);
}

static void test_guard_far_after_dec_ss(void **state)
{
	const char *parts[] = { "Count 0", "kem_dec", "after", "ss (dec)", NULL };
	(void)state;
	expect_failure(F_DEC_WRITES_PAST_SS, KAT_OVERFLOW, parts);
}

static void test_long_returned_length(void **state)
{
	const char *parts[] = { "Count 0", "kem_enc", "ct", "33", "32", NULL };
	(void)state;
	expect_failure(F_ENC_LONG_CT_LEN, KAT_OVERFLOW, parts);
}

static void test_dec_returns_error(void **state)
{
	const char *parts[] = { "Count 0: kem_dec returned -1", NULL };
	(void)state;
	expect_failure(F_DEC_RETURNS_MINUS_1, KAT_CRYPTOFAIL, parts);
}

/* Records 0..2 complete; record 3 stops after SS with no empty line. */
static void test_dec_mismatch_keeps_partial_text(void **state)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_DEC_WRONG_AT_3, 10, &text, &detail), KAT_CRYPTOFAIL);
	assert_non_null(detail);
	assert_non_null(strstr(detail, "Count 3"));
	assert_non_null(strstr(detail, "differs"));
	for (int i = 0; i < 4; i++)
		expected_record(&want, i);
	want.buf[--want.len] = '\0';
	assert_string_equal(text.buf, want.buf);
	free(detail);
	sb_free(&text);
	sb_free(&want);
}

static void test_status_names(void **state)
{
	(void)state;
	for (int s = KAT_PASS; s <= KAT_BUILDFAIL; s++)
		assert_int_equal(kat_status_parse(kat_status_name(s)), s);
	assert_string_equal(kat_status_name(KAT_OVERFLOW), "OVERFLOW");
	assert_string_equal(kat_status_name(KAT_CRYPTOFAIL), "CRYPTOFAIL");
	assert_int_equal(kat_status_parse("PASS"), KAT_PASS);
	assert_int_equal(kat_status_parse("BUILDFAIL"), KAT_BUILDFAIL);
	assert_int_equal(kat_status_parse("NOLOG"), -1);
	assert_int_equal(kat_status_parse(""), -1);
	assert_int_equal(kat_status_parse(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_text_matches_spec_seeds),
		cmocka_unit_test(test_default_record_count),
		cmocka_unit_test(test_seed_for_count),
		cmocka_unit_test(test_never_written_lengths),
		cmocka_unit_test(test_lengths_preset_before_each_call),
		cmocka_unit_test(test_empty_field_has_trailing_space),
		cmocka_unit_test(test_guard_after_pk),
		cmocka_unit_test(test_guard_before_sk),
		cmocka_unit_test(test_guard_far_after_dec_ss),
		cmocka_unit_test(test_long_returned_length),
		cmocka_unit_test(test_dec_returns_error),
		cmocka_unit_test(test_dec_mismatch_keeps_partial_text),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
