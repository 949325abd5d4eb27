/*
 * test_katgen_sig.c — the signature KAT replay (src/kat/katgen_sig.c)
 * against a small fake signature scheme: the official messages
 * (docs/iccs.md §8.7) and seeds (§8.5), field order, the set-once sn_len
 * carry-over, and every failure status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kat/katgen_sig.h"

static const char seed0[] =
	"927F06B594798A4DDFAA4F03F92AAAF04E1D453F6ED1DE19B86D3AADE048A65483DF4754049B5CD3F586406CF2C64875C51EDB576DF342B5A970F40EABC15D3C";
static const char seed1[] =
	"58561187CBBF6CDC0ECFB2D25965F936BE05AA961542D0E23E4ADFA8B6D0E3FDC043ED72AC1C28F03CF831FBB6A8BC6DB9EE0475520EE8578B1970E407EE0352";
/* §8.7: the messages of Count 0 (56 bytes) and Count 1 (64 bytes). */
static const char msg0[] =
	"EE402D1730D0117B9F51BE0672592FCEC438A2945A81F5D894B869DC863CCBF57E5C8E7766D74E27E965235CD91E5E30E5583167053E1014";
static const char msg1[] =
	"6DF5638F60C9EAF3BCE1FD75D0A5393F6F39081F9144EB9FFE7C1CFF856F0D837AA3875266C7DA4EDAAE698D03BCB00ED8135C427849A0FE07257A9E32E087E6";

/*
 * The fake: pk = sk = the record's seed's first 16 bytes; the signature is
 * the message's first (m_len - 40) bytes XOR the key, so its length varies
 * (16 .. 88 bytes of a 96-byte maximum); verify recomputes it.
 */
#define PK 16
#define SK 16
#define SN 96

enum fault {
	F_NONE,
	F_VERIFY_REJECTS,
	F_SIGN_FAILS_AT_2,
	F_SIGN_LEN_ABOVE,
	F_SIGN_WRITES_PAST_SN,
	F_KEYGEN_WRITES_BEFORE_PK,
	F_NEVER_WRITE_LENS,
};
static enum fault fault;
static unsigned char key[16];
static int record_no;
static unsigned long long sn_len_seen[10];

static int fake_seed(const unsigned char *seed, unsigned long long len)
{
	assert_int_equal(len, KAT_SEED_BYTES);
	memcpy(key, seed, sizeof(key));
	record_no++;
	return 0;
}

static int fake_keygen(unsigned char *pk, unsigned long long *pk_len,
		       unsigned char *sk, unsigned long long *sk_len)
{
	memcpy(pk, key, PK);
	memcpy(sk, key, SK);
	if (fault == F_KEYGEN_WRITES_BEFORE_PK)
		pk[-1] = 0;
	if (fault != F_NEVER_WRITE_LENS) {
		*pk_len = PK;
		*sk_len = SK;
	}
	return 0;
}

static void make_sig(const unsigned char *k, const unsigned char *m,
		     unsigned long long n, unsigned char *sn)
{
	for (unsigned long long i = 0; i < n; i++)
		sn[i] = m[i] ^ k[i % 16];
}

static int fake_sign(unsigned char *sk, unsigned long long sk_len,
		     unsigned char *m, unsigned long long m_len,
		     unsigned char *sn, unsigned long long *sn_len)
{
	unsigned long long n = m_len - 40;

	assert_int_equal(sk_len, SK);
	sn_len_seen[record_no - 1] = *sn_len;
	if (fault == F_SIGN_FAILS_AT_2 && record_no == 3)
		return -5;
	make_sig(sk, m, n, sn);
	if (fault == F_SIGN_WRITES_PAST_SN)
		sn[SN] = 1;
	if (fault != F_NEVER_WRITE_LENS)
		*sn_len = fault == F_SIGN_LEN_ABOVE ? SN + 1 : n;
	return 0;
}

static int fake_verify(unsigned char *pk, unsigned long long pk_len,
		       unsigned char *sn, unsigned long long sn_len,
		       unsigned char *m, unsigned long long m_len)
{
	unsigned char want[SN];

	assert_int_equal(pk_len, PK);
	if (fault == F_VERIFY_REJECTS)
		return -1;
	if (fault == F_NEVER_WRITE_LENS)
		return sn_len == SN ? 0 : -1;
	make_sig(pk, m, m_len - 40, want);
	return sn_len == m_len - 40 && !memcmp(sn, want, sn_len) ? 0 : -1;
}

static const struct sig_api fake_api = {
	.pk_bytes = PK, .sk_bytes = SK, .sn_bytes = SN,
	.seed = fake_seed, .keygen = fake_keygen,
	.sign = fake_sign, .verify = fake_verify,
};

static enum kat_status run(enum fault f, int records, struct strbuf *text,
			   char **detail)
{
	fault = f;
	record_no = 0;
	memset(sn_len_seen, 0, sizeof(sn_len_seen));
	return katgen_sig(&fake_api, records, text, detail);
}

static void hex(const unsigned char *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02X", p[i]);
}

/* Record `count` as the official driver writes it for the fake. */
static void expected_record(struct strbuf *sb, int count, const char *seed_hex,
			    const unsigned char *m, int m_len)
{
	unsigned char k[16], sn[SN];
	char khex[33], mhex[2 * KAT_SIG_MSG_BUFFER + 1], snhex[2 * SN + 1];

	for (int i = 0; i < 16; i++)
		sscanf(seed_hex + 2 * i, "%2hhx", &k[i]);
	make_sig(k, m, (unsigned long long)m_len - 40, sn);
	hex(k, 16, khex);
	hex(m, (size_t)m_len, mhex);
	hex(sn, (size_t)m_len - 40, snhex);
	sb_addf(sb, "Count = %d\nSeed_Len = 64\nSeed = %s\n", count, seed_hex);
	sb_addf(sb, "PK_Len = 16\nPK = %s\nSK_Len = 16\nSK = %s\n", khex, khex);
	sb_addf(sb, "M_Len = %d\nM = %s\n", m_len, mhex);
	sb_addf(sb, "Sn_Len = %d\nSn = %s\n\n", m_len - 40, snhex);
}

static void test_spec_messages(void **state)
{
	unsigned char m[KAT_SIG_MSG_BUFFER];
	char h[2 * KAT_SIG_MSG_BUFFER + 1];
	(void)state;

	assert_int_equal(katgen_sig_message(0, m), 56);
	hex(m, 56, h);
	assert_string_equal(h, msg0);
	assert_int_equal(katgen_sig_message(1, m), 64);
	hex(m, 64, h);
	assert_string_equal(h, msg1);
	assert_int_equal(katgen_sig_message(9, m), 128);
	assert_int_equal(katgen_sig_message(10, m), 0);
}

static void test_first_records_exact(void **state)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	unsigned char m[KAT_SIG_MSG_BUFFER];
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_NONE, 2, &text, &detail), KAT_PASS);
	assert_null(detail);
	katgen_sig_message(0, m);
	expected_record(&want, 0, seed0, m, 56);
	katgen_sig_message(1, m);
	expected_record(&want, 1, seed1, m, 64);
	assert_string_equal(text.buf, want.buf);
	assert_non_null(strstr(text.buf, msg0));
	sb_free(&text);
	sb_free(&want);
}

/* Ten records, message lengths 56..128, the last record ends the text. */
static void test_ten_records(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_NONE, 0, &text, NULL), KAT_PASS);
	assert_int_equal(record_no, 10);
	assert_non_null(strstr(text.buf, "\nCount = 9\n"));
	assert_non_null(strstr(text.buf, "\nM_Len = 128\n"));
	assert_non_null(strstr(text.buf, "\nSn_Len = 88\n"));
	assert_int_equal(text.buf[text.len - 1], '\n');
	assert_int_equal(text.buf[text.len - 2], '\n');
	assert_int_equal(run(F_NONE, 11, &text, NULL), KAT_PASS);
	assert_int_equal(record_no, 10);
	sb_free(&text);
}

/* sn_len is set once: Count 0's sign sees the getter, every later count
 * what the previous sign returned. */
static void test_sn_len_carries_over(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_NONE, 10, &text, NULL), KAT_PASS);
	assert_int_equal(sn_len_seen[0], SN);
	for (int i = 1; i < 10; i++)
		assert_int_equal(sn_len_seen[i], 56 + 8 * (i - 1) - 40);
	sb_free(&text);
}

/* A scheme that never writes its lengths prints the getter values. */
static void test_never_written_lengths(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_NEVER_WRITE_LENS, 10, &text, NULL), KAT_PASS);
	assert_non_null(strstr(text.buf, "\nPK_Len = 16\n"));
	assert_non_null(strstr(text.buf, "\nSn_Len = 96\n"));
	assert_null(strstr(text.buf, "\nSn_Len = 16\n"));
	sb_free(&text);
}

static void expect_failure(enum fault f, enum kat_status want, const char *const *parts)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;

	assert_int_equal(run(f, 10, &text, &detail), want);
	assert_non_null(detail);
	for (; *parts; parts++)
		if (!strstr(detail, *parts))
			fail_msg("detail \"%s\" lacks \"%s\"", detail, *parts);
	free(detail);
	sb_free(&text);
}

static void test_verify_rejecting_is_cryptofail(void **state)
{
	const char *parts[] = { "Count 0: sig_verify returned -1", "16-byte", NULL };
	(void)state;
	expect_failure(F_VERIFY_REJECTS, KAT_CRYPTOFAIL, parts);
}

static void test_sign_error_is_cryptofail(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_SIGN_FAILS_AT_2, 10, &text, &detail), KAT_CRYPTOFAIL);
	assert_string_equal(detail, "Count 2: sig_sign returned -5");
	/* The failing record's text stops after its message. */
	const char *rec2 = strstr(text.buf, "\nCount = 2\n");
	assert_non_null(rec2);
	assert_non_null(strstr(rec2, "\nM_Len = 72\nM = "));
	assert_null(strstr(rec2, "Sn_Len"));
	assert_int_equal(text.buf[text.len - 1], '\n');
	assert_int_not_equal(text.buf[text.len - 2], '\n');
	free(detail);
	sb_free(&text);
}

static void test_sn_len_above_getter_is_overflow(void **state)
{
	const char *parts[] = { "Count 0", "sig_sign", "sn length 97", "96", NULL };
	(void)state;
	expect_failure(F_SIGN_LEN_ABOVE, KAT_OVERFLOW, parts);
}

static void test_guard_zones(void **state)
{
	const char *past[] = { "Count 0", "sig_sign", "after", "sn", NULL };
	const char *before[] = { "Count 0", "sig_keygen", "before", "pk", NULL };
	(void)state;
	expect_failure(F_SIGN_WRITES_PAST_SN, KAT_OVERFLOW, past);
	expect_failure(F_KEYGEN_WRITES_BEFORE_PK, KAT_OVERFLOW, before);
}

static void test_absurd_getter(void **state)
{
	struct sig_api api = fake_api;
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	api.sn_bytes = 1ULL << 40;
	assert_int_equal(katgen_sig(&api, 1, &text, &detail), KAT_CRYPTOFAIL);
	assert_non_null(strstr(detail, "sig_get_sn_len_bytes()"));
	assert_int_equal(text.len, 0);
	free(detail);
	sb_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_messages),
		cmocka_unit_test(test_first_records_exact),
		cmocka_unit_test(test_ten_records),
		cmocka_unit_test(test_sn_len_carries_over),
		cmocka_unit_test(test_never_written_lengths),
		cmocka_unit_test(test_verify_rejecting_is_cryptofail),
		cmocka_unit_test(test_sign_error_is_cryptofail),
		cmocka_unit_test(test_sn_len_above_getter_is_overflow),
		cmocka_unit_test(test_guard_zones),
		cmocka_unit_test(test_absurd_getter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
