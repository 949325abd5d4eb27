/*
 * test_example_kem.c — the ExampleKEM package under examples/, compiled with
 * our ICCS runtime (mk/example.mk): sizes, round trips over 1000 seeds (100
 * under ASan+UBSan), implicit rejection of tampered ciphertexts, and the
 * committed KAT files equal freshly generated text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "example_instances.h"
#include "runtime/drng.h"

/* The sanitized build (mk/example.mk) walks the same code on fewer seeds. */
#ifndef ROUND_TRIPS
#define ROUND_TRIPS 1000
#endif
#define TAMPER_KEYS 20

struct expected_sizes {
	const char *label, *instance;
	unsigned long long pk, sk, ct, ss;
};

/* pk = k*384 + 32, sk = k*384 + pk + 64, ct = k*n*du/8 + n*dv/8 */
static const struct expected_sizes expected[] = {
	{ "ExampleKEM-128", "EXAMPLEKEM_128", 800, 1632, 768, 32 },
	{ "ExampleKEM-256", "EXAMPLEKEM_256", 1952, 3936, 1920, 32 },
};

/* One key pair and encapsulation, with the buffers the API asks for. */
struct session {
	const struct kem_api *api;
	unsigned char *pk, *sk, *ct, *ss, *ss2;
	unsigned long long pk_len, sk_len, ct_len, ss_len;
};

static void session_open(struct session *s, const struct kem_api *api)
{
	memset(s, 0, sizeof(*s));
	s->api = api;
	s->pk = xmalloc(api->pk_bytes);
	s->sk = xmalloc(api->sk_bytes);
	s->ct = xmalloc(api->ct_bytes);
	s->ss = xmalloc(api->ss_bytes);
	s->ss2 = xmalloc(api->ss_bytes);
}

static void session_close(struct session *s)
{
	free(s->pk);
	free(s->sk);
	free(s->ct);
	free(s->ss);
	free(s->ss2);
}

/* Seed drng_algorithm, then keygen and enc; asserts both succeed. */
static void session_run(struct session *s, const unsigned char seed[64])
{
	const struct kem_api *api = s->api;

	assert_int_equal(api->seed(seed, 64), 0);
	s->pk_len = api->pk_bytes;
	s->sk_len = api->sk_bytes;
	assert_int_equal(api->keygen(s->pk, &s->pk_len, s->sk, &s->sk_len), 0);
	assert_int_equal(s->pk_len, api->pk_bytes);
	assert_int_equal(s->sk_len, api->sk_bytes);
	s->ss_len = api->ss_bytes;
	s->ct_len = api->ct_bytes;
	assert_int_equal(api->enc(s->pk, s->pk_len, s->ss, &s->ss_len, s->ct, &s->ct_len), 0);
	assert_int_equal(s->ss_len, api->ss_bytes);
	assert_int_equal(s->ct_len, api->ct_bytes);
}

/* dec of s->ct into s->ss2; asserts it returns 0 with the full length. */
static void session_dec(struct session *s)
{
	unsigned long long len = s->api->ss_bytes;

	assert_int_equal(s->api->dec(s->sk, s->sk_len, s->ct, s->ct_len, s->ss2, &len), 0);
	assert_int_equal(len, s->api->ss_bytes);
}

/* A test-only seed stream, independent of the KAT seeds. */
static void test_drng(DRNG_ctx *d, const char *label)
{
	assert_int_equal(init_random_number(d, (const unsigned char *)label,
					    strlen(label)), 0);
}

static void test_sizes_and_names(void **state)
{
	(void)state;
	assert_int_equal(example_count(), sizeof(expected) / sizeof(expected[0]));
	for (size_t i = 0; i < example_count(); i++) {
		const struct example_instance *e = example_get(i);
		assert_string_equal(e->label, expected[i].label);
		assert_string_equal(e->instance, expected[i].instance);
		assert_int_equal(e->api.pk_bytes, expected[i].pk);
		assert_int_equal(e->api.sk_bytes, expected[i].sk);
		assert_int_equal(e->api.ct_bytes, expected[i].ct);
		assert_int_equal(e->api.ss_bytes, expected[i].ss);
	}
}

static void round_trips(const struct example_instance *e)
{
	struct session s;
	DRNG_ctx seeds;
	unsigned char seed[64], prev_ss[32] = { 0 };

	session_open(&s, &e->api);
	test_drng(&seeds, "example-kem round trips");
	for (int i = 0; i < ROUND_TRIPS; i++) {
		get_random_number(&seeds, seed, 512);
		session_run(&s, seed);
		session_dec(&s);
		if (memcmp(s.ss, s.ss2, s.ss_len))
			fail_msg("%s: round trip %d: dec's secret differs from enc's", e->label, i);
		/* Different seeds must give different secrets. */
		assert_memory_not_equal(s.ss, prev_ss, sizeof(prev_ss));
		memcpy(prev_ss, s.ss, sizeof(prev_ss));
	}
	session_close(&s);
}

static void test_round_trips(void **state)
{
	(void)state;
	for (size_t i = 0; i < example_count(); i++)
		round_trips(example_get(i));
}

/* Same seed, same everything: the scheme draws only from drng_algorithm. */
static void test_deterministic_in_seed(void **state)
{
	(void)state;
	for (size_t i = 0; i < example_count(); i++) {
		const struct example_instance *e = example_get(i);
		struct session a, b;
		unsigned char seed[64];

		memset(seed, 0x42, sizeof(seed));
		session_open(&a, &e->api);
		session_open(&b, &e->api);
		session_run(&a, seed);
		session_run(&b, seed);
		assert_memory_equal(a.pk, b.pk, a.pk_len);
		assert_memory_equal(a.sk, b.sk, a.sk_len);
		assert_memory_equal(a.ct, b.ct, a.ct_len);
		assert_memory_equal(a.ss, b.ss, a.ss_len);
		session_close(&a);
		session_close(&b);
	}
}

/* Decapsulate a modified ciphertext: success, a secret different from the
 * honest one, and the same secret again for the same input. */
static void expect_rejected(struct session *s, const unsigned char *honest_ct,
			    unsigned char *rejected_ss)
{
	unsigned char again[32];

	session_dec(s);
	assert_memory_not_equal(s->ss2, s->ss, s->ss_len);
	memcpy(rejected_ss, s->ss2, s->ss_len);
	session_dec(s);
	memcpy(again, s->ss2, s->ss_len);
	assert_memory_equal(again, rejected_ss, s->ss_len);
	memcpy(s->ct, honest_ct, s->ct_len);
}

static void tampering(const struct example_instance *e)
{
	struct session s;
	DRNG_ctx rnd;
	unsigned char seed[64], pos_bytes[4], ss_a[32], ss_b[32];
	unsigned char *honest;

	session_open(&s, &e->api);
	honest = xmalloc(e->api.ct_bytes);
	test_drng(&rnd, "example-kem tampering");
	for (int k = 0; k < TAMPER_KEYS; k++) {
		get_random_number(&rnd, seed, 512);
		session_run(&s, seed);
		memcpy(honest, s.ct, s.ct_len);

		s.ct[0] ^= 0x01; /* first bit of u */
		expect_rejected(&s, honest, ss_a);
		s.ct[s.ct_len - 1] ^= 0x80; /* last bit of v */
		expect_rejected(&s, honest, ss_b);
		assert_memory_not_equal(ss_a, ss_b, sizeof(ss_a));

		get_random_number(&rnd, pos_bytes, 32);
		s.ct[((size_t)pos_bytes[0] << 8 | pos_bytes[1]) % s.ct_len] ^=
			(unsigned char)(1u << (pos_bytes[2] & 7));
		expect_rejected(&s, honest, ss_a);

		/* The honest ciphertext still decapsulates correctly. */
		session_dec(&s);
		assert_memory_equal(s.ss2, s.ss, s.ss_len);
	}
	session_close(&s);
	free(honest);
}

static void test_tampered_ciphertext_is_rejected_implicitly(void **state)
{
	(void)state;
	for (size_t i = 0; i < example_count(); i++)
		tampering(example_get(i));
}

/* Arbitrary bytes as a ciphertext, and wrong lengths: no crash, and a
 * pseudo-random secret or an error code. */
static void test_garbage_ciphertexts(void **state)
{
	(void)state;
	for (size_t i = 0; i < example_count(); i++) {
		const struct example_instance *e = example_get(i);
		const int fills[] = { 0x00, 0xFF, -1 };
		struct session s;
		unsigned long long len = e->api.ss_bytes;
		unsigned char seed[64];
		DRNG_ctx rnd;

		memset(seed, 7, sizeof(seed));
		session_open(&s, &e->api);
		session_run(&s, seed);
		test_drng(&rnd, "example-kem garbage");
		for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
			if (fills[f] < 0)
				get_random_number(&rnd, s.ct, 8 * s.ct_len);
			else
				memset(s.ct, fills[f], s.ct_len);
			session_dec(&s);
			assert_memory_not_equal(s.ss2, s.ss, s.ss_len);
		}
		assert_int_equal(e->api.dec(s.sk, s.sk_len, s.ct, s.ct_len - 1, s.ss2, &len), -3);
		assert_int_equal(e->api.dec(s.sk, s.sk_len - 1, s.ct, s.ct_len, s.ss2, &len), -3);
		len = e->api.ss_bytes;
		assert_int_equal(e->api.enc(s.pk, s.pk_len + 1, s.ss, &len, s.ct, &len), -3);
		session_close(&s);
	}
}

static const char *source_root(void)
{
	const char *env = getenv("NGCC_SRC");

	return env && *env ? env : ngcc_home();
}

/* Regenerate with `make example-kats` when the scheme changes on purpose. */
static void test_committed_kats_match(void **state)
{
	(void)state;
	for (size_t i = 0; i < example_count(); i++) {
		const struct example_instance *e = example_get(i);
		struct strbuf text = STRBUF_INIT;
		char *path = example_kat_path(source_root(), e);
		char *detail = NULL, *committed = NULL;
		size_t len = 0;

		assert_int_equal(katgen_kem(&e->api, KAT_DEFAULT_RECORDS, &text, &detail),
				 KAT_PASS);
		assert_null(detail);
		if (read_file(path, &committed, &len))
			fail_msg("cannot read %s", path);
		if (len != text.len || memcmp(committed, text.buf, len))
			fail_msg("%s differs from freshly generated text; run `make example-kats`",
				 path);
		/* The KAT file carries the official seeds: Count 0's is §8.5's. */
		assert_non_null(strstr(committed,
				       "Count = 0\nSeed_Len = 64\nSeed = 927F06B594798A4DDFAA4F03F92AAAF04E1D453F6ED1DE19B86D3AADE048A65483DF4754049B5CD3F586406CF2C64875C51EDB576DF342B5A970F40EABC15D3C\n"));
		free(committed);
		free(path);
		sb_free(&text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_names),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_deterministic_in_seed),
		cmocka_unit_test(test_tampered_ciphertext_is_rejected_implicitly),
		cmocka_unit_test(test_garbage_ciphertexts),
		cmocka_unit_test(test_committed_kats_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
