/*
 * test_katgen_hash.c — the hash KAT replay (src/kat/katgen_hash.c) against
 * small fake hash functions: the driver's messages (docs/iccs.md §8.8), the
 * four files' formats, the KAT_Loop rotation (also for a digest length
 * that is not a multiple of 8), and every failure status.
 *
 * KAT_2_33 needs a 1 GiB message and 2^25 SM3 calls for its random record,
 * too slow here: its §8.8 Msg_Exp is checked by computing the two DRNG
 * output blocks it shows directly (OpenSSL SM3 as the independent
 * check); the generator's code path for it is the one KAT_2_23 takes.  The
 * full file is checked by `make check-slow` on the example hash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <openssl/evp.h>

#include "kat/katgen_hash.h"
#include "runtime/drng.h"
#include "util/util.h"

/* §8.8: KAT_2_12's Msg for L = 0..16. */
static const char *const short_msgs[17] = {
	"", "80", "40", "A0", "90", "C0", "A8", "50", "3D",
	"0E00", "0A00", "AC20", "58C0", "1250", "21BC", "10B2", "408D",
};

/*
 * The fake hash: digest byte i = (sum of the message's whole bytes + i +
 * the bit length) mod 256, the partial last byte counted through its high
 * bits only.  Cheap, and sensitive to the length argument.
 */
enum fault {
	F_NONE,
	F_FAILS_AT_LEN_5,
	F_FAILS_IN_LOOP,
	F_WRITES_PAST_DIGEST,
	F_WRITES_BEFORE_MSG,
	F_CONSTANT_ZERO,
};
static enum fault fault;
static int calls;
static unsigned char seen[1024]; /* the message of the latest call */
static unsigned long long seen_bits;

static int fake_hash(int digest_bits, const unsigned char *msg,
		     unsigned long long bits, unsigned char *digest)
{
	unsigned long long whole = bits / 8, sum = bits;
	unsigned rest = (unsigned)(bits % 8);

	calls++;
	seen_bits = bits;
	if (bits <= 8192)
		memcpy(seen, msg, (size_t)(bits + 7) / 8);
	for (unsigned long long i = 0; i < whole; i += bits > 8192 ? 4096 : 1)
		sum += msg[i];
	if (rest)
		sum += msg[whole] & (0xFF << (8 - rest)) & 0xFF;
	for (int i = 0; i < (digest_bits + 7) / 8; i++)
		digest[i] = fault == F_CONSTANT_ZERO ? 0 : (unsigned char)(sum + (unsigned)i);
	if (fault == F_FAILS_AT_LEN_5 && bits == 5)
		return -1;
	if (fault == F_FAILS_IN_LOOP && calls > 1)
		return -1;
	if (fault == F_WRITES_PAST_DIGEST)
		digest[(digest_bits + 7) / 8] = 0;
	if (fault == F_WRITES_BEFORE_MSG)
		((unsigned char *)msg)[-1] = 0;
	return 0;
}

static enum kat_status run(enum fault f, int digest_bits, enum hash_kat_file file,
			   unsigned long loops, struct strbuf *text, char **detail)
{
	struct hash_api api = { .digest_bits = digest_bits, .hash = fake_hash,
				.loop_iterations = loops };

	fault = f;
	calls = 0;
	return katgen_hash(&api, file, text, detail);
}

static void test_file_names(void **state)
{
	char *name;
	(void)state;

	assert_string_equal(katgen_hash_file_tag(HASH_KAT_2_12), "KAT_2_12");
	assert_string_equal(katgen_hash_file_tag(HASH_KAT_LOOP), "KAT_Loop");
	assert_null(katgen_hash_file_tag(HASH_KAT_NFILES));
	assert_int_equal(katgen_hash_file_parse("KAT_2_33"), HASH_KAT_2_33);
	assert_int_equal(katgen_hash_file_parse("KAT_2_34"), -1);
	name = katgen_hash_file_name(HASH_KAT_2_23, "FOO_256");
	assert_string_equal(name, "KAT_2_23_FOO_256.txt");
	free(name);
	assert_int_equal(katgen_hash_file_msg_bytes(NULL, HASH_KAT_2_33), 1ULL << 30);
	assert_int_equal(katgen_hash_file_msg_bytes(NULL, HASH_KAT_2_23), 1ULL << 20);
}

/* The value of "Name = " on the line after `from`'s position. */
static const char *field(const char *from, const char *name, char *out, size_t cap)
{
	char key[32];
	const char *p, *end;

	snprintf(key, sizeof(key), "\n%s = ", name);
	p = strstr(from, key);
	assert_non_null(p);
	p += strlen(key);
	end = strchr(p, '\n');
	assert_non_null(end);
	assert_true((size_t)(end - p) < cap);
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return end;
}

static void test_short_messages(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL, value[1100];
	const char *p;
	(void)state;

	assert_int_equal(run(F_NONE, 256, HASH_KAT_2_12, 0, &text, &detail), KAT_PASS);
	assert_null(detail);
	assert_int_equal(calls, 4097);
	assert_true(str_starts_with(text.buf, "Msg_Len = 0\nMsg = \nDst_Len = 256\nDst = "));
	for (int len = 0; len <= 16; len++) {
		char want[80];

		snprintf(want, sizeof(want), "%sMsg_Len = %d\nMsg = %s\nDst_Len = 256\n",
			 len ? "\n\n" : "", len, short_msgs[len]);
		if (len == 0)
			assert_true(str_starts_with(text.buf, want));
		else if (!strstr(text.buf, want))
			fail_msg("no record \"%s\"", want);
	}
	/* The last record: 4096 bits, 512 bytes; digest 32 bytes. */
	p = strstr(text.buf, "\nMsg_Len = 4096\n");
	assert_non_null(p);
	field(p, "Msg", value, sizeof(value));
	assert_int_equal(strlen(value), 1024);
	field(p, "Dst", value, sizeof(value));
	assert_int_equal(strlen(value), 64);
	assert_int_equal(text.buf[text.len - 2], '\n');
	assert_null(strstr(text.buf, "Msg_Len = 4097"));
	sb_free(&text);
}

static void test_long_file_records(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_NONE, 512, HASH_KAT_2_23, 0, &text, &detail), KAT_PASS);
	assert_null(detail);
	assert_int_equal(calls, 3);
	assert_int_equal(seen_bits, 8388608);
	assert_true(str_starts_with(text.buf,
				"Msg_Len = 8388608\nMsg_Seed = \n"
				"Msg_Exp = 0000000000000000 .... 0000000000000000\nDst_Len = 512\nDst = "));
	assert_non_null(strstr(text.buf,
			       "\n\nMsg_Len = 8388608\nMsg_Seed = \n"
			       "Msg_Exp = FFFFFFFFFFFFFFFF .... FFFFFFFFFFFFFFFF\nDst_Len = 512\n"));
	/* §8.8: the random record. */
	assert_non_null(strstr(text.buf,
			       "\n\nMsg_Len = 8388608\nMsg_Seed = "
			       "4B41545F325F32334B41545F325F32334B41545F325F32334B41545F325F3233"
			       "4B41545F325F32334B41545F325F32334B41545F325F32334B41545F325F3233\n"
			       "Msg_Exp = B6E2C825BE0E7D79 .... 70B7D148BC6FCCEC\nDst_Len = 512\n"));
	assert_int_equal(text.buf[text.len - 1], '\n');
	assert_int_equal(text.buf[text.len - 2], '\n');
	sb_free(&text);
}

static void hex_of(const unsigned char *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02X", p[i]);
}

static void sm3(const unsigned char *in, size_t len, unsigned char out[32])
{
	unsigned int n = 32;

	assert_int_equal(EVP_Digest(in, len, out, &n, EVP_sm3(), NULL), 1);
}

/* §8.8's KAT_2_33 Msg_Exp: the DRNG's output block 0 (first 8 bytes) and
 * block 2^25 - 1 (last 8), i.e. SM3(V) and SM3(V + 2^25 - 1). */
static void test_2_33_msg_exp(void **state)
{
	DRNG_ctx d;
	unsigned char nonce[64], v[SEEDLEN], first[32], last[32];
	char hex[40];
	unsigned long long add = (1ULL << 25) - 1;
	unsigned carry = 0;
	(void)state;

	for (int i = 0; i < 64; i++)
		nonce[i] = (unsigned char)"KAT_2_33"[i % 8];
	init_random_number(&d, nonce, 64);
	memcpy(v, d.V, SEEDLEN);
	sm3(v, SEEDLEN, first);
	for (int i = SEEDLEN - 1; i >= 0; i--, add >>= 8) {
		carry += v[i] + (unsigned)(add & 0xFF);
		v[i] = (unsigned char)carry;
		carry >>= 8;
	}
	sm3(v, SEEDLEN, last);
	hex_of(first, 8, hex);
	hex_of(last + 24, 8, hex + 16);
	assert_string_equal(hex, "AE6416F9B6D4C97A31B80BC6E737A914");
}

static void test_loop_format_and_m0(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char value[2100];
	(void)state;

	assert_int_equal(run(F_NONE, 256, HASH_KAT_LOOP, 3, &text, NULL), KAT_PASS);
	assert_int_equal(calls, 4);
	assert_true(str_starts_with(text.buf, "Msg_Len = 8192\nMsg = "));
	field(text.buf, "Msg", value, sizeof(value));
	assert_int_equal(strlen(value), 2048);
	/* §8.8: m0's first 32 and last 16 bytes. */
	assert_true(str_starts_with(value, "2D911820A8ED087902CCFEEAD2C91785CEA0289755C29F651DB41AF1D8434774"));
	assert_string_equal(value + 2048 - 32, "FFC029E36FAC6D91E7A807DBC461377D");
	/* Exactly: Msg_Len, Msg, Dst_Len, Dst, empty line. */
	const char *p = strstr(text.buf, "\nDst_Len = 256\nDst = ");
	assert_non_null(p);
	field(p, "Dst", value, sizeof(value));
	assert_int_equal(strlen(value), 64);
	assert_string_equal(p + strlen("\nDst_Len = 256\nDst = ") + 64, "\n\n");
	sb_free(&text);
}

/* One KAT_Loop iteration on m0 with the digest h: rotate left by d bytes,
 * XOR h in, as the official driver does. */
static void check_one_iteration(int digest_bits)
{
	struct strbuf text = STRBUF_INIT;
	unsigned char m0[1024], h[128], want[1024];
	char value[2100], got[2100], exp[2100];
	size_t d = (size_t)digest_bits / 8, moved = (size_t)(8192 - digest_bits) / 8;

	assert_int_equal(run(F_NONE, digest_bits, HASH_KAT_LOOP, 1, &text, NULL), KAT_PASS);
	assert_int_equal(calls, 2);
	field(text.buf, "Msg", value, sizeof(value));
	for (int i = 0; i < 1024; i++)
		sscanf(value + 2 * i, "%2hhx", &m0[i]);
	fault = F_NONE;
	fake_hash(digest_bits, m0, 8192, h);
	memcpy(want, m0, sizeof(want));
	for (size_t i = 0; i < moved; i++)
		want[i] = m0[i + d];
	for (size_t i = 0; i < d; i++)
		want[moved + i] = m0[i];
	for (size_t i = 0; i < d; i++)
		want[i] ^= h[i];
	/* seen = the message of the call before fake_hash above: iteration 1. */
	run(F_NONE, digest_bits, HASH_KAT_LOOP, 1, &text, NULL);
	hex_of(seen, 1024, got);
	hex_of(want, 1024, exp);
	assert_string_equal(got, exp);
	if (digest_bits % 8)
		assert_int_equal(seen[1023], m0[1023]);
	sb_free(&text);
}

static void test_loop_rotation(void **state)
{
	(void)state;
	check_one_iteration(256);
	check_one_iteration(512);
	/* Not a multiple of 8: 31 bytes XORed, 992 moved, byte 1023 kept. */
	check_one_iteration(252);
}

/* A digest length that is not a multiple of 8 prints floor(D/8) bytes. */
static void test_odd_digest_length_printing(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char value[200];
	(void)state;

	assert_int_equal(run(F_NONE, 252, HASH_KAT_2_12, 0, &text, NULL), KAT_PASS);
	assert_non_null(strstr(text.buf, "\nDst_Len = 252\n"));
	field(text.buf, "Dst", value, sizeof(value));
	assert_int_equal(strlen(value), 62);
	sb_free(&text);
}

static void expect_failure(enum fault f, enum hash_kat_file file, enum kat_status want,
			   const char *const *parts)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;

	assert_int_equal(run(f, 256, file, 5, &text, &detail), want);
	assert_non_null(detail);
	for (; *parts; parts++)
		if (!strstr(detail, *parts))
			fail_msg("detail \"%s\" lacks \"%s\"", detail, *parts);
	free(detail);
	sb_free(&text);
}

static void test_failures(void **state)
{
	const char *at5[] = { "KAT_2_12 Msg_Len 5: CryptHash returned -1", NULL };
	const char *digest[] = { "KAT_2_12 Msg_Len 0", "CryptHash", "after", "digest", NULL };
	const char *msg[] = { "KAT_Loop m0", "before", "msg", NULL };
	struct strbuf text = STRBUF_INIT;
	(void)state;

	expect_failure(F_FAILS_AT_LEN_5, HASH_KAT_2_12, KAT_CRYPTOFAIL, at5);
	expect_failure(F_WRITES_PAST_DIGEST, HASH_KAT_2_12, KAT_OVERFLOW, digest);
	expect_failure(F_WRITES_BEFORE_MSG, HASH_KAT_LOOP, KAT_OVERFLOW, msg);
	/* The failing record's Msg lines are written before the call. */
	assert_int_equal(run(F_FAILS_AT_LEN_5, 256, HASH_KAT_2_12, 0, &text, NULL), KAT_CRYPTOFAIL);
	assert_string_equal(text.buf + text.len - strlen("Msg_Len = 5\nMsg = C0\n"),
			    "Msg_Len = 5\nMsg = C0\n");
	sb_free(&text);
}

/* Returns inside the loop are ignored, as the official driver does. */
static void test_loop_ignores_returns(void **state)
{
	struct strbuf text = STRBUF_INIT;
	(void)state;

	assert_int_equal(run(F_FAILS_IN_LOOP, 256, HASH_KAT_LOOP, 5, &text, NULL), KAT_PASS);
	assert_int_equal(calls, 6);
	sb_free(&text);
}

static void test_bad_digest_length(void **state)
{
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	(void)state;

	assert_int_equal(run(F_NONE, 0, HASH_KAT_2_12, 0, &text, &detail), KAT_CRYPTOFAIL);
	assert_non_null(strstr(detail, "DIGEST_BIT_LENGTH 0"));
	assert_int_equal(calls, 0);
	free(detail);
	sb_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_names),
		cmocka_unit_test(test_short_messages),
		cmocka_unit_test(test_long_file_records),
		cmocka_unit_test(test_2_33_msg_exp),
		cmocka_unit_test(test_loop_format_and_m0),
		cmocka_unit_test(test_loop_rotation),
		cmocka_unit_test(test_odd_digest_length_printing),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_loop_ignores_returns),
		cmocka_unit_test(test_bad_digest_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
