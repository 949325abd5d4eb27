/*
 * test_katgen_kex.c — the key-exchange KAT replay (src/kat/katgen_kex.c)
 * against a small fake key exchange: field order and names, Pass_Num, the
 * in/out state lengths that are never reset, ma/mb, passes past 3 by
 * name, and every failure status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kat/katgen_kex.h"

static const char seed0[] =
	"927F06B594798A4DDFAA4F03F92AAAF04E1D453F6ED1DE19B86D3AADE048A65483DF4754049B5CD3F586406CF2C64875C51EDB576DF342B5A970F40EABC15D3C";

/*
 * The fake: pka, ska, pkb, skb are the four 16-byte quarters of the
 * record's seed; A's initial state is empty, B's is 2 bytes.  Pass k sends
 * m_k = m_{k-1} with every byte + 1 (m1 = ska), keeps it in the sender's
 * state, and returns 1 at pass `finish`.  Each party's secret is the first
 * 16 bytes of the last message it sent XOR the last it received.
 */
#define PKL 16
#define SKL 16
#define STL 24
#define MSGL 16
#define SSL 16

enum fault {
	F_NONE,
	F_DERIVE_B_DIFFERS,
	F_DERIVE_B_SHORTER,
	F_NEVER_FINISHES,
	F_FINISHES_EARLY,
	F_PASS2_WRITES_PAST_M2,
	F_PASS1_LONG_M1,
	F_INIT_A_POSITIVE,
	F_INIT_B_NEGATIVE,
	F_PASS3_NEGATIVE,
};
static enum fault fault;
static int finish = 2;           /* the pass that returns 1 */
static unsigned char seed[64];
static int record_no;
/* Observed in-values, per record. */
static unsigned long long init_a_sta_in[10], pass1_sta_in[10], derive_a_sta[10];
static int derive_b_got_null_ma, derive_a_got_null_mb;

static int fake_seed(const unsigned char *s, unsigned long long len)
{
	assert_int_equal(len, 64);
	memcpy(seed, s, 64);
	record_no++;
	return 0;
}

static int fake_init_a(unsigned char *pk, unsigned long long *pk_len,
		       unsigned char *sk, unsigned long long *sk_len,
		       unsigned char *st, unsigned long long *st_len)
{
	(void)st;
	init_a_sta_in[record_no - 1] = *st_len;
	memcpy(pk, seed, PKL);
	memcpy(sk, seed + 16, SKL);
	*pk_len = PKL;
	*sk_len = SKL;
	*st_len = 0;
	return fault == F_INIT_A_POSITIVE ? 7 : 0;
}

static int fake_init_b(unsigned char *pk, unsigned long long *pk_len,
		       unsigned char *sk, unsigned long long *sk_len,
		       unsigned char *st, unsigned long long *st_len)
{
	memcpy(pk, seed + 32, PKL);
	memcpy(sk, seed + 48, SKL);
	st[0] = 0xB0;
	st[1] = 0x0B;
	*pk_len = PKL;
	*sk_len = SKL;
	*st_len = 2;
	return fault == F_INIT_B_NEGATIVE ? -9 : 0;
}

/* state = last sent (16) || last received (16 or 0); returns the pass code. */
static int step(int k, unsigned char *m_in, unsigned long long m_in_len,
		unsigned char *st, unsigned long long *st_len,
		unsigned char *m_out, unsigned long long *m_out_len)
{
	for (int i = 0; i < MSGL; i++)
		m_out[i] = (unsigned char)(m_in[i] + 1);
	*m_out_len = MSGL;
	memcpy(st, m_out, MSGL);
	memcpy(st + MSGL, m_in, (size_t)m_in_len);
	*st_len = MSGL + m_in_len;
	if (fault == F_NEVER_FINISHES)
		return k % 2 ? 0 : 2; /* 2 also means "go on" */
	return k == finish ? 1 : 0;
}

static int fake_pass1(unsigned char *ska, unsigned long long ska_len,
		      unsigned char *pkb, unsigned long long pkb_len,
		      unsigned char *sta, unsigned long long *sta_len,
		      unsigned char *m1, unsigned long long *m1_len)
{
	int rc;

	(void)pkb;
	assert_int_equal(ska_len, SKL);
	assert_int_equal(pkb_len, PKL);
	pass1_sta_in[record_no - 1] = *sta_len;
	rc = step(1, ska, 0, sta, sta_len, m1, m1_len);
	memcpy(m1, ska, MSGL);
	memcpy(sta, m1, MSGL);
	if (fault == F_PASS1_LONG_M1)
		*m1_len = MSGL * 4 + 1;
	return rc;
}

static int fake_pass_k(int k, unsigned char *m_in, unsigned long long m_in_len,
		       unsigned char *st, unsigned long long *st_len,
		       unsigned char *m_out, unsigned long long *m_out_len)
{
	int rc;

	assert_int_equal(m_in_len, MSGL);
	rc = step(k, m_in, m_in_len, st, st_len, m_out, m_out_len);
	if (k == 2 && fault == F_PASS2_WRITES_PAST_M2)
		m_out[MSGL * 4] = 0;
	if (k == 3 && fault == F_PASS3_NEGATIVE)
		return -4;
	if (fault == F_FINISHES_EARLY && k == 2)
		return 1;
	return rc;
}

#define FAKE_PASS(k) \
	static int fake_pass##k(unsigned char *sk, unsigned long long sk_len, \
				unsigned char *pk, unsigned long long pk_len, \
				unsigned char *m_in, unsigned long long m_in_len, \
				unsigned char *st, unsigned long long *st_len, \
				unsigned char *m_out, unsigned long long *m_out_len) \
	{ \
		(void)sk; (void)sk_len; (void)pk; (void)pk_len; \
		return fake_pass_k(k, m_in, m_in_len, st, st_len, m_out, m_out_len); \
	}
FAKE_PASS(2) FAKE_PASS(3) FAKE_PASS(4) FAKE_PASS(5) FAKE_PASS(6) FAKE_PASS(7)
FAKE_PASS(8) FAKE_PASS(9) FAKE_PASS(10) FAKE_PASS(11) FAKE_PASS(12)
FAKE_PASS(13) FAKE_PASS(14) FAKE_PASS(15) FAKE_PASS(16)

static void secret(const unsigned char *st, unsigned long long st_len,
		   const unsigned char *peer, unsigned long long peer_len,
		   unsigned char *ss)
{
	/* The sender's state holds its last message; XOR in the peer's. */
	assert_true(st_len >= MSGL);
	for (int i = 0; i < SSL; i++)
		ss[i] = st[i] ^ (peer_len ? peer[i] : 0);
}

static int fake_derive_a(unsigned char *sk, unsigned long long sk_len,
			 unsigned char *pk, unsigned long long pk_len,
			 unsigned char *mb, unsigned long long mb_len,
			 unsigned char *st, unsigned long long st_len,
			 unsigned char *ss, unsigned long long *ss_len)
{
	(void)sk; (void)sk_len; (void)pk; (void)pk_len;
	derive_a_sta[record_no - 1] = st_len;
	derive_a_got_null_mb = mb == NULL;
	secret(st, st_len, mb, mb_len, ss);
	*ss_len = SSL;
	return 0;
}

static struct kex_api api;
static int fake_derive_b(unsigned char *, unsigned long long, unsigned char *,
			 unsigned long long, unsigned char *, unsigned long long,
			 unsigned char *, unsigned long long, unsigned char *,
			 unsigned long long *);

static void api_setup(unsigned long long passes, int finishing_pass, int defined)
{
	static const kex_pass_fn passes_fn[] = {
		NULL, NULL, fake_pass2, fake_pass3, fake_pass4, fake_pass5,
		fake_pass6, fake_pass7, fake_pass8, fake_pass9, fake_pass10,
		fake_pass11, fake_pass12, fake_pass13, fake_pass14, fake_pass15,
		fake_pass16,
	};

	memset(&api, 0, sizeof(api));
	api.passes = passes;
	api.pk_bytes = PKL;
	api.sk_bytes = SKL;
	api.sta_bytes = STL + 8;
	api.stb_bytes = STL + 8;
	api.ss_bytes = SSL;
	api.msg_bytes = MSGL * 4;
	api.seed = fake_seed;
	api.init_a = fake_init_a;
	api.init_b = fake_init_b;
	api.pass1 = fake_pass1;
	for (int k = 2; k <= defined; k++)
		api.pass[k] = passes_fn[k];
	api.derive_a = fake_derive_a;
	api.derive_b = fake_derive_b;
	finish = finishing_pass;
}

/* B's last message, recomputed from the seed (zeros without one). */
static void last_b_message(unsigned char m[MSGL])
{
	int last_b_pass = api.passes % 2 ? (int)api.passes - 1 : (int)api.passes;

	memset(m, 0, MSGL);
	if (last_b_pass < 2)
		return;
	memcpy(m, seed + 16, MSGL);
	for (int k = 2; k <= last_b_pass; k++)
		for (int i = 0; i < MSGL; i++)
			m[i] = (unsigned char)(m[i] + 1);
}

/* Both sides compute A's last message XOR B's last message. */
static int fake_derive_b(unsigned char *sk, unsigned long long sk_len,
			 unsigned char *pk, unsigned long long pk_len,
			 unsigned char *ma, unsigned long long ma_len,
			 unsigned char *st, unsigned long long st_len,
			 unsigned char *ss, unsigned long long *ss_len)
{
	unsigned char last_b[MSGL];

	(void)sk; (void)sk_len; (void)pk; (void)pk_len; (void)st; (void)st_len;
	derive_b_got_null_ma = ma == NULL;
	assert_int_equal(ma_len, MSGL);
	last_b_message(last_b);
	for (int i = 0; i < SSL; i++)
		ss[i] = ma[i] ^ last_b[i];
	*ss_len = fault == F_DERIVE_B_SHORTER ? SSL - 1 : SSL;
	if (fault == F_DERIVE_B_DIFFERS)
		ss[5] ^= 0x40;
	return 0;
}

static enum kat_status run(enum fault f, int records, struct strbuf *text, char **detail)
{
	fault = f;
	record_no = 0;
	return katgen_kex(&api, records, text, detail);
}

static void test_two_pass_record_exact(void **state)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	char *detail = NULL;
	char m1[33], m2[33], ss[33];
	(void)state;

	api_setup(2, 2, 3);
	assert_int_equal(run(F_NONE, 1, &text, &detail), KAT_PASS);
	assert_null(detail);
	/* m1 = ska = seed bytes 16..31; m2 = m1 + 1 bytewise; ss = m1 ^ m2. */
	for (int i = 0; i < 16; i++) {
		unsigned char a = seed[16 + i], b = (unsigned char)(a + 1);
		snprintf(m1 + 2 * i, 3, "%02X", a);
		snprintf(m2 + 2 * i, 3, "%02X", b);
		snprintf(ss + 2 * i, 3, "%02X", a ^ b);
	}
	sb_addf(&want, "Count = 0\nSeed_Len = 64\nSeed = %s\nPass_Num = 2\n", seed0);
	sb_addf(&want, "PKa_Len = 16\nPKa = %.32s\nSKa_Len = 16\nSKa = %.32s\n", seed0, seed0 + 32);
	sb_addf(&want, "Init_Sta_Len = 0\nInit_Sta = \n");
	sb_addf(&want, "PKb_Len = 16\nPKb = %.32s\nSKb_Len = 16\nSKb = %.32s\n", seed0 + 64, seed0 + 96);
	sb_addf(&want, "Init_Stb_Len = 2\nInit_Stb = B00B\n");
	sb_addf(&want, "Pass1_Sta_Len = 16\nPass1_Sta = %s\nM1_Len = 16\nM1 = %s\n", m1, m1);
	sb_addf(&want, "Pass2_Stb_Len = 32\nPass2_Stb = %s%s\nM2_Len = 16\nM2 = %s\n", m2, m1, m2);
	sb_addf(&want, "SS_Len = 16\nSS = %s\n\n", ss);
	assert_string_equal(text.buf, want.buf);
	sb_free(&text);
	sb_free(&want);
}

/* State lengths are in/out and never reset: init_a at Count 1 sees what
 * A's last pass wrote at Count 0; pass 1 sees init_a's 0; derive gets it
 * by value. */
static void test_state_lengths_carry_over(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	api_setup(3, 3, 3);
	assert_int_equal(run(F_NONE, 10, &text, NULL), KAT_PASS);
	assert_int_equal(init_a_sta_in[0], STL + 8);
	for (int i = 1; i < 10; i++)
		assert_int_equal(init_a_sta_in[i], 32);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(pass1_sta_in[i], 0);
		assert_int_equal(derive_a_sta[i], 32);
	}
	assert_non_null(strstr(text.buf, "\nPass_Num = 3\n"));
	assert_non_null(strstr(text.buf, "\nPass3_Sta_Len = 32\nPass3_Sta = "));
	assert_non_null(strstr(text.buf, "\nM3_Len = 16\nM3 = "));
	assert_non_null(strstr(text.buf, "\nCount = 9\n"));
	sb_free(&text);
}

/* Passes 4 and 5 are called by name; their lines follow the pattern. */
static void test_five_passes(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	api_setup(5, 5, 5);
	assert_int_equal(run(F_NONE, 2, &text, &detail), KAT_PASS);
	assert_null(detail);
	assert_non_null(strstr(text.buf, "\nPass4_Stb_Len = 32\nPass4_Stb = "));
	assert_non_null(strstr(text.buf, "\nM4_Len = 16\nM4 = "));
	assert_non_null(strstr(text.buf, "\nPass5_Sta_Len = 32\nPass5_Sta = "));
	assert_null(strstr(text.buf, "Pass6"));
	sb_free(&text);
}

static void test_pass_symbols(void **state)
{
	char sym[40];
	(void)state;

	katgen_kex_pass_symbol(1, sym);
	assert_string_equal(sym, "kex_generate_pass1_msg_a");
	katgen_kex_pass_symbol(4, sym);
	assert_string_equal(sym, "kex_generate_pass4_msg_b");
	katgen_kex_pass_symbol(11, sym);
	assert_string_equal(sym, "kex_generate_pass11_msg_a");
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

static void test_different_secrets(void **state)
{
	const char *bytes[] = { "Count 0", "shared secrets differ", NULL };
	const char *len[] = { "Count 0", "differ in length", "A 16", "B 15", NULL };
	(void)state;
	api_setup(2, 2, 3);
	expect_failure(F_DERIVE_B_DIFFERS, KAT_CRYPTOFAIL, bytes);
	expect_failure(F_DERIVE_B_SHORTER, KAT_CRYPTOFAIL, len);
}

/* No pass ever returns 1: with passes defined up to the limit, every one
 * is called and the run fails after the last; with only 1..3 defined and
 * 2 announced, it fails after pass 3. */
static void test_never_finishing(void **state)
{
	const char *all[] = { "Count 0", "no pass returned 1", "1..16",
			      "kex_get_passes_num() is 2", NULL };
	const char *three[] = { "no pass returned 1", "1..3",
				"kex_generate_pass4_msg_b is not defined", NULL };
	(void)state;
	api_setup(2, 2, KAT_KEX_MAX_PASSES);
	expect_failure(F_NEVER_FINISHES, KAT_CRYPTOFAIL, all);
	api_setup(2, 2, 3);
	expect_failure(F_NEVER_FINISHES, KAT_CRYPTOFAIL, three);
}

/* The official driver derives after pass 3 whatever it returned: accepted
 * when 3 passes are announced. */
static void test_pass3_returning_0_with_3_announced(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	api_setup(3, 99, 3);
	assert_int_equal(run(F_NONE, 3, &text, NULL), KAT_PASS);
	assert_non_null(strstr(text.buf, "\nM3 = "));
	sb_free(&text);
}

static void test_wrong_finishing_pass(void **state)
{
	const char *parts[] = { "Count 0", "pass 2 returned 1", "kex_get_passes_num() is 3", NULL };
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	api_setup(3, 3, 3);
	expect_failure(F_FINISHES_EARLY, KAT_CRYPTOFAIL, parts);
	/* The finishing pass's lines are written before the check. */
	assert_int_equal(run(F_FINISHES_EARLY, 10, &text, &detail), KAT_CRYPTOFAIL);
	assert_true(text.len > 0);
	assert_non_null(strstr(text.buf, "\nM2 = "));
	assert_null(strstr(text.buf, "SS_Len"));
	free(detail);
	sb_free(&text);
}

static void test_missing_pass(void **state)
{
	const char *parts[] = { "pass 2 returned 0", "kex_generate_pass3_msg_a is not defined", NULL };
	(void)state;
	api_setup(3, 3, 2);
	expect_failure(F_NONE, KAT_CRYPTOFAIL, parts);
}

static void test_overflows(void **state)
{
	const char *guard[] = { "Count 0", "kex_generate_pass2_msg_b", "after", "m2", NULL };
	const char *len[] = { "kex_generate_pass1_msg_a", "m1 length 65", "64", NULL };
	(void)state;
	api_setup(2, 2, 3);
	expect_failure(F_PASS2_WRITES_PAST_M2, KAT_OVERFLOW, guard);
	expect_failure(F_PASS1_LONG_M1, KAT_OVERFLOW, len);
}

/* Only negative returns are errors (init may return a positive value). */
static void test_return_codes(void **state)
{
	const char *init_b[] = { "Count 0: kex_init_b returned -9", NULL };
	const char *pass3[] = { "Count 0: kex_generate_pass3_msg_a returned -4", NULL };
	struct strbuf text = STRBUF_INIT;
	(void)state;

	api_setup(2, 2, 3);
	assert_int_equal(run(F_INIT_A_POSITIVE, 2, &text, NULL), KAT_PASS);
	expect_failure(F_INIT_B_NEGATIVE, KAT_CRYPTOFAIL, init_b);
	api_setup(3, 3, 3);
	expect_failure(F_PASS3_NEGATIVE, KAT_CRYPTOFAIL, pass3);
	sb_free(&text);
}

/* A 1-pass exchange: derive_a gets mb = NULL with length 0. */
static void test_one_pass(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	api_setup(1, 1, 3);
	assert_int_equal(run(F_NONE, 2, &text, &detail), KAT_PASS);
	assert_null(detail);
	assert_true(derive_a_got_null_mb);
	assert_false(derive_b_got_null_ma);
	assert_null(strstr(text.buf, "M2"));
	sb_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_pass_record_exact),
		cmocka_unit_test(test_state_lengths_carry_over),
		cmocka_unit_test(test_five_passes),
		cmocka_unit_test(test_pass_symbols),
		cmocka_unit_test(test_different_secrets),
		cmocka_unit_test(test_never_finishing),
		cmocka_unit_test(test_pass3_returning_0_with_3_announced),
		cmocka_unit_test(test_wrong_finishing_pass),
		cmocka_unit_test(test_missing_pass),
		cmocka_unit_test(test_overflows),
		cmocka_unit_test(test_return_codes),
		cmocka_unit_test(test_one_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
