/*
 * test_hash_baseline.c — the pieces of hash measurement and the ICCS
 * baseline that need no child process: the timed message and the
 * hash_<L> keys, the baseline's labels, the self-test text written by a
 * library (our runtime's functions here) against the one computed with
 * OpenSSL, the comparison's first difference, guard zones, and the
 * KAT_2_33 stand-in length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kat/katcompare.h"
#include "kat/katgen_hash.h"
#include "method/baseline.h"
#include "method/hashmsg.h"
#include "runtime/auxfunc.h"
#include "selftest/iccs_openssl.h"

static void hash_message_and_keys(void **state)
{
	(void)state;
	unsigned char m[40];
	hash_message(m, 32);
	/* byte[i] = (131 i + L) mod 256 (docs/method.md §5.2) */
	assert_int_equal(m[0], 32);
	assert_int_equal(m[1], 163);
	assert_int_equal(m[2], (2 * 131 + 32) % 256);
	assert_int_equal(m[31], (31 * 131 + 32) % 256);
	assert_int_equal(hash_op_bytes("hash_32"), 32);
	assert_int_equal(hash_op_bytes("hash_65536"), 65536);
	assert_int_equal(hash_op_bytes("hash_"), 0);
	assert_int_equal(hash_op_bytes("hash_1x"), 0);
	assert_int_equal(hash_op_bytes("keygen"), 0);
	assert_int_equal(hash_op_bytes(NULL), 0);
}

static void selftest_lengths(void **state)
{
	(void)state;
	assert_int_equal(hash_selftest_count(), HASH_SELFTEST_SHORT + 1 + n_hash_selftest_long);
	assert_int_equal(hash_selftest_len(0), 0);
	assert_int_equal(hash_selftest_len(HASH_SELFTEST_SHORT), HASH_SELFTEST_SHORT);
	assert_int_equal(hash_selftest_len(HASH_SELFTEST_SHORT + 1), 256);
	assert_int_equal(hash_selftest_max(), 1048576);
	for (size_t i = 1; i < hash_selftest_count(); i++)
		assert_true(hash_selftest_len(i) > hash_selftest_len(i - 1));
}

static void baseline_labels(void **state)
{
	(void)state;
	struct baseline_label b;
	char *l = baseline_label(ICCS_PSEUDOXOF, 512, NULL);
	assert_string_equal(l, "pseudoXOF-512");
	assert_int_equal(baseline_label_parse(l, &b), 0);
	assert_int_equal(b.fn, ICCS_PSEUDOXOF);
	assert_int_equal(b.bits, 512);
	assert_string_equal(b.copy_of, "");
	free(l);
	l = baseline_label(ICCS_PSEUDOHASH, 768, "kem-27");
	assert_string_equal(l, "pseudohash-768.kem-27");
	assert_int_equal(baseline_label_parse(l, &b), 0);
	assert_int_equal(b.fn, ICCS_PSEUDOHASH);
	assert_int_equal(b.bits, 768);
	assert_string_equal(b.copy_of, "kem-27");
	free(l);
	assert_int_equal(baseline_label_parse("sm3hash-256", &b), 0);
	assert_int_equal(b.fn, ICCS_SM3HASH);
	static const char *const bad[] = { "pseudoXOF", "pseudoXOF-", "pseudoXOF-abc",
		"sm3hash-256.", "md5-128", "pseudoXOF-4", "pseudoXOF-256x", "ExampleHash-256" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_int_equal(baseline_label_parse(bad[i], &b), -1);
	assert_string_equal(iccs_fn_name(ICCS_SM3HASH), "sm3hash");
	assert_null(iccs_fn_name(ICCS_NFN));
}

/* Our runtime's functions in CryptHash's shape, as iccs_baseline.c calls
 * them. */
static int xof(int bits, const unsigned char *m, unsigned long long n, unsigned char *out)
{
	return pseudoXOF((unsigned long long)bits, m, n, out);
}

/* A library whose digest of one message is wrong. */
static int xof_wrong_at_137(int bits, const unsigned char *m, unsigned long long n,
			    unsigned char *out)
{
	int rc = xof(bits, m, n, out);
	if (n == 8 * 137)
		out[3] ^= 1;
	return rc;
}

/* A library that writes one byte past the digest. */
static int sm3_overrun(int bits, const unsigned char *m, unsigned long long n, unsigned char *out)
{
	int rc = sm3hash(bits, m, n, out);
	out[32] = 0;
	return rc;
}

static void expect_selftest_equal(int (*fn)(int, const unsigned char *, unsigned long long,
					    unsigned char *), enum iccs_fn which, int bits)
{
	struct hash_api api = { .digest_bits = bits, .hash = fn };
	struct strbuf lib = STRBUF_INIT, ref = STRBUF_INIT;
	char *detail = NULL;
	assert_int_equal(katgen_hash_selftest(&api, &lib, &detail), KAT_PASS);
	assert_null(detail);
	assert_int_equal(iccs_openssl_selftest_text(which, bits, &ref), 0);
	assert_int_equal(kat_compare_hash_reference(lib.buf, lib.len, ref.buf, ref.len, &detail),
			 KAT_PASS);
	assert_int_equal(lib.len, ref.len);
	assert_memory_equal(lib.buf, ref.buf, lib.len);
	sb_free(&lib);
	sb_free(&ref);
}

/* The self-test our baseline libraries run equals OpenSSL's model for
 * every function and a few widths (a non-byte width included). */
static void selftest_matches_openssl(void **state)
{
	(void)state;
	if (!iccs_openssl_available())
		skip();
	expect_selftest_equal(sm3hash, ICCS_SM3HASH, 256);
	expect_selftest_equal(pseudohash, ICCS_PSEUDOHASH, 512);
	expect_selftest_equal(pseudohash, ICCS_PSEUDOHASH, 768);
	expect_selftest_equal(pseudohash, ICCS_PSEUDOHASH, 1024);
	expect_selftest_equal(xof, ICCS_PSEUDOXOF, 256);
	expect_selftest_equal(xof, ICCS_PSEUDOXOF, 384);
	expect_selftest_equal(xof, ICCS_PSEUDOXOF, 100);
}

static void selftest_failures(void **state)
{
	(void)state;
	if (!iccs_openssl_available())
		skip();
	struct hash_api api = { .digest_bits = 256, .hash = xof_wrong_at_137 };
	struct strbuf lib = STRBUF_INIT, ref = STRBUF_INIT;
	char *detail = NULL;
	assert_int_equal(katgen_hash_selftest(&api, &lib, &detail), KAT_PASS);
	assert_int_equal(iccs_openssl_selftest_text(ICCS_PSEUDOXOF, 256, &ref), 0);
	assert_int_equal(kat_compare_hash_reference(lib.buf, lib.len, ref.buf, ref.len, &detail),
			 KAT_MISMATCH);
	assert_string_equal(detail, "first difference at record 138 (Msg_Len = 1096), field Dst "
			    "(reference line 551, generated line 551): expected "
			    "…3EC454B984A82C681FA02DDC…, got …3EC454A984A82C681FA02DDC… (from "
			    "byte 8; lengths 64 and 64)");
	free(detail);
	/* the wrong width: Dst_Len already differs */
	detail = NULL;
	sb_reset(&ref);
	assert_int_equal(iccs_openssl_selftest_text(ICCS_PSEUDOXOF, 512, &ref), 0);
	assert_int_equal(kat_compare_hash_reference(lib.buf, lib.len, ref.buf, ref.len, &detail),
			 KAT_MISMATCH);
	assert_string_equal(detail, "first difference at record 1 (Msg_Len = 0), field Dst_Len "
			    "(reference line 2, generated line 2): expected 512, got 256 (from byte 1; "
			    "lengths 3 and 3)");
	free(detail);
	sb_free(&lib);
	sb_free(&ref);
	/* writing past the digest is caught by the guard zone */
	struct hash_api over = { .digest_bits = 256, .hash = sm3_overrun };
	struct strbuf t = STRBUF_INIT;
	detail = NULL;
	assert_int_equal(katgen_hash_selftest(&over, &t, &detail), KAT_OVERFLOW);
	assert_non_null(strstr(detail, "self-test Msg_Len 0"));
	free(detail);
	sb_free(&t);
}

/* KAT_2_33 with a stand-in length: three records of that length. */
static void kat_2_33_stand_in(void **state)
{
	(void)state;
	struct hash_api api = { .digest_bits = 256, .hash = sm3hash, .kat_2_33_bits = 1 << 16 };
	struct strbuf t = STRBUF_INIT;
	char *detail = NULL;
	assert_int_equal(katgen_hash_file_msg_bytes(&api, HASH_KAT_2_33), 8192);
	assert_int_equal(katgen_hash_file_msg_bytes(NULL, HASH_KAT_2_33), 1ULL << 30);
	assert_int_equal(katgen_hash(&api, HASH_KAT_2_33, &t, &detail), KAT_PASS);
	int n = 0;
	for (const char *p = t.buf; (p = strstr(p, "Msg_Len = 65536\n")); p++)
		n++;
	assert_int_equal(n, 3);
	/* the random record's seed is the file's own nonce */
	assert_non_null(strstr(t.buf, "Msg_Seed = 4B41545F325F3333"));
	sb_free(&t);
	free(detail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hash_message_and_keys),
		cmocka_unit_test(selftest_lengths),
		cmocka_unit_test(baseline_labels),
		cmocka_unit_test(selftest_matches_openssl),
		cmocka_unit_test(selftest_failures),
		cmocka_unit_test(kat_2_33_stand_in),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
