/*
 * test_example_schemes.c — the ExampleSIG, ExampleKEX and ExampleHash
 * packages under examples/, compiled with our ICCS runtime
 * (mk/example_schemes.mk): sizes and names, the committed KAT files equal
 * freshly generated text (SIG, KEX, and the hash's KAT_2_12 and KAT_2_23;
 * KAT_2_33 and KAT_Loop are checked by `make check-slow`), signature round
 * trips with varying lengths and rejected tampering, key-exchange
 * agreement and key confirmation, hash bit lengths, and the hostile builds'
 * statuses under the KAT replays.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/drng.h"
#include "scheme_instances.h"

/* Fewer under ASan+UBSan (mk/example_schemes.mk): the same code, ten
 * times slower. */
#ifndef ROUND_TRIPS
#define ROUND_TRIPS 300
#endif

struct expected {
	const char *tag, *label, *instance;
	/* SIG: pk, sk, sn; KEX: passes, pk, sk, msg; hash: digest bits */
	unsigned long long a, b, c, d;
};

static const struct expected expected[] = {
	{ "ExampleSIG_1", "ExampleSIG-1", "EXAMPLESIG_1", 4096, 32, 544, 0 },
	{ "ExampleSIG_2", "ExampleSIG-2", "EXAMPLESIG_2", 24576, 32, 608, 0 },
	{ "ExampleKEX_2P", "ExampleKEX-2P", "EXAMPLEKEX_2P", 2, 2064, 1024, 2208 },
	{ "ExampleKEX_3P", "ExampleKEX-3P", "EXAMPLEKEX_3P", 3, 2064, 1024, 2208 },
	{ "ExampleHash_256", "ExampleHash-256", "EXAMPLEHASH_256", 256, 0, 0, 0 },
	{ "ExampleHash_512", "ExampleHash-512", "EXAMPLEHASH_512", 512, 0, 0, 0 },
};
#define N_EXPECTED (sizeof(expected) / sizeof(expected[0]))

static const struct scheme_instance *get(const char *tag)
{
	const struct scheme_instance *s = scheme_find(tag);

	assert_non_null(s);
	return s;
}

static void test_sizes_and_names(void **state)
{
	size_t examples = 0;
	(void)state;

	for (size_t i = 0; i < scheme_count(); i++)
		examples += !scheme_get(i)->hostile;
	assert_int_equal(examples, N_EXPECTED);
	for (size_t i = 0; i < N_EXPECTED; i++) {
		const struct expected *e = &expected[i];
		const struct scheme_instance *s = get(e->tag);

		assert_string_equal(s->label, e->label);
		assert_string_equal(s->instance, e->instance);
		if (s->kind == SCHEME_SIG) {
			assert_int_equal(s->sig.pk_bytes, e->a);
			assert_int_equal(s->sig.sk_bytes, e->b);
			assert_int_equal(s->sig.sn_bytes, e->c);
		} else if (s->kind == SCHEME_KEX) {
			assert_int_equal(s->kex.passes, e->a);
			assert_int_equal(s->kex.pk_bytes, e->b);
			assert_int_equal(s->kex.sk_bytes, e->c);
			assert_int_equal(s->kex.msg_bytes, e->d);
			assert_int_equal(s->kex.ss_bytes, 32);
		} else {
			assert_int_equal(s->hash.digest_bits, (int)e->a);
		}
	}
}

static const char *source_root(void)
{
	const char *env = getenv("NGCC_SRC");

	return env && *env ? env : ngcc_home();
}

static void expect_committed(const struct scheme_instance *s, enum hash_kat_file f)
{
	struct strbuf text = STRBUF_INIT;
	char *root = path_join(source_root(), "examples");
	char *path = scheme_kat_path(root, s, f);
	char *detail = NULL, *committed = NULL;
	size_t len = 0;

	assert_int_equal(scheme_katgen(s, f, &text, &detail), KAT_PASS);
	assert_null(detail);
	if (read_file(path, &committed, &len))
		fail_msg("cannot read %s", path);
	if (len != text.len || memcmp(committed, text.buf, len))
		fail_msg("%s differs from freshly generated text; run `make example-kats`", path);
	free(committed);
	free(path);
	free(root);
	sb_free(&text);
}

/* Regenerate with `make example-kats` when a scheme changes on purpose. */
static void test_committed_kats_match(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_EXPECTED; i++) {
		const struct scheme_instance *s = get(expected[i].tag);

		if (s->kind != SCHEME_HASH) {
			expect_committed(s, HASH_KAT_2_12);
			continue;
		}
		expect_committed(s, HASH_KAT_2_12);
		expect_committed(s, HASH_KAT_2_23);
	}
}

/* ---- signatures ---------------------------------------------------- */

struct sig_session {
	const struct sig_api *api;
	unsigned char *pk, *sk, *sn, m[128];
	unsigned long long pk_len, sk_len, sn_len, m_len;
};

static void sig_open(struct sig_session *t, const struct scheme_instance *s)
{
	memset(t, 0, sizeof(*t));
	t->api = &s->sig;
	t->pk = xmalloc(s->sig.pk_bytes);
	t->sk = xmalloc(s->sig.sk_bytes);
	t->sn = xmalloc(s->sig.sn_bytes);
}

static void sig_close(struct sig_session *t)
{
	free(t->pk);
	free(t->sk);
	free(t->sn);
}

/* Seed, keygen, draw a message from rnd and sign it. */
static void sig_run(struct sig_session *t, DRNG_ctx *rnd)
{
	unsigned char seed[64], len_byte;

	get_random_number(rnd, seed, 512);
	get_random_number(rnd, &len_byte, 8);
	t->m_len = len_byte % sizeof(t->m);
	get_random_number(rnd, t->m, 8 * t->m_len);
	assert_int_equal(t->api->seed(seed, 64), 0);
	t->pk_len = t->api->pk_bytes;
	t->sk_len = t->api->sk_bytes;
	assert_int_equal(t->api->keygen(t->pk, &t->pk_len, t->sk, &t->sk_len), 0);
	t->sn_len = t->api->sn_bytes;
	assert_int_equal(t->api->sign(t->sk, t->sk_len, t->m, t->m_len, t->sn, &t->sn_len), 0);
	assert_true(t->sn_len <= t->api->sn_bytes);
}

static int sig_verify(struct sig_session *t)
{
	return t->api->verify(t->pk, t->pk_len, t->sn, t->sn_len, t->m, t->m_len);
}

static void test_sig_round_trips_and_lengths(void **state)
{
	(void)state;
	for (int v = 1; v <= 2; v++) {
		const struct scheme_instance *s = get(v == 1 ? "ExampleSIG_1" : "ExampleSIG_2");
		unsigned long long min = ~0ULL, max = 0;
		struct sig_session t;
		DRNG_ctx rnd;

		sig_open(&t, s);
		init_random_number(&rnd, (const unsigned char *)"sig round trips", 15);
		for (int i = 0; i < ROUND_TRIPS; i++) {
			sig_run(&t, &rnd);
			if (sig_verify(&t) != 0)
				fail_msg("%s: round trip %d rejected", s->tag, i);
			min = t.sn_len < min ? t.sn_len : min;
			max = t.sn_len > max ? t.sn_len : max;
		}
		/* Lengths vary, and stay below the getter for most signatures. */
		assert_true(min < max);
		assert_true(min < s->sig.sn_bytes);
		sig_close(&t);
	}
}

static void test_sig_tampering_rejected(void **state)
{
	(void)state;
	for (int v = 1; v <= 2; v++) {
		const struct scheme_instance *s = get(v == 1 ? "ExampleSIG_1" : "ExampleSIG_2");
		struct sig_session t;
		unsigned char pos[4];
		DRNG_ctx rnd;

		sig_open(&t, s);
		init_random_number(&rnd, (const unsigned char *)"sig tampering", 13);
		for (int i = 0; i < 100; i++) {
			sig_run(&t, &rnd);
			get_random_number(&rnd, pos, 32);
			unsigned long long at = ((unsigned long long)pos[0] << 8 | pos[1]) % t.sn_len;
			t.sn[at] ^= (unsigned char)(1u << (pos[2] & 7));
			assert_int_equal(sig_verify(&t), -1);
			t.sn[at] ^= (unsigned char)(1u << (pos[2] & 7));
			if (t.m_len) {
				t.m[pos[3] % t.m_len] ^= 0x01;
				assert_int_equal(sig_verify(&t), -1);
				t.m[pos[3] % t.m_len] ^= 0x01;
			}
			t.sn_len--;
			assert_int_equal(sig_verify(&t), -1);
			t.sn_len++;
			assert_int_equal(sig_verify(&t), 0);
		}
		sig_close(&t);
	}
}

/* ---- key exchange --------------------------------------------------- */

/* Both parties agree on every record: the KAT replay checks it. */
static void test_kex_parties_agree(void **state)
{
	(void)state;
	for (int v = 2; v <= 3; v++) {
		const struct scheme_instance *s = get(v == 2 ? "ExampleKEX_2P" : "ExampleKEX_3P");
		struct strbuf text = STRBUF_INIT;
		char *detail = NULL;

		assert_int_equal(katgen_kex(&s->kex, 30, &text, &detail), KAT_PASS);
		assert_null(detail);
		assert_non_null(strstr(text.buf, "\nCount = 29\n"));
		assert_non_null(strstr(text.buf, "\nInit_Sta_Len = 0\nInit_Sta = \n"));
		if (v == 3)
			assert_non_null(strstr(text.buf, "\nM3_Len = 32\n"));
		else
			assert_null(strstr(text.buf, "M3"));
		sb_free(&text);
	}
}

/* A key exchange with buffers, for tampering with its messages. */
struct kex_session {
	const struct kex_api *api;
	unsigned char pka[2064], ska[1024], pkb[2064], skb[1024];
	unsigned char sta[64], stb[64], m1[2208], m2[2208], m3[2208], ss[32];
	unsigned long long pka_len, ska_len, pkb_len, skb_len, sta_len, stb_len;
	unsigned long long m1_len, m2_len, m3_len, ss_len;
};

static void kex_up_to_pass2(struct kex_session *k, const struct scheme_instance *s)
{
	unsigned char seed[64];

	memset(seed, 0x33, sizeof(seed));
	k->api = &s->kex;
	assert_int_equal(k->api->seed(seed, 64), 0);
	assert_int_equal(k->api->init_a(k->pka, &k->pka_len, k->ska, &k->ska_len, k->sta, &k->sta_len), 0);
	assert_int_equal(k->api->init_b(k->pkb, &k->pkb_len, k->skb, &k->skb_len, k->stb, &k->stb_len), 0);
	assert_int_equal(k->api->pass1(k->ska, k->ska_len, k->pkb, k->pkb_len, k->sta, &k->sta_len,
				       k->m1, &k->m1_len), 0);
	assert_int_equal(k->api->pass[2](k->skb, k->skb_len, k->pka, k->pka_len, k->m1, k->m1_len,
					 k->stb, &k->stb_len, k->m2, &k->m2_len), 0);
}

/* 3-pass: a changed tag in m2 stops A; a changed m3 stops B. */
static void test_kex_key_confirmation(void **state)
{
	const struct scheme_instance *s = get("ExampleKEX_3P");
	struct kex_session k;
	(void)state;

	kex_up_to_pass2(&k, s);
	k.m2[k.m2_len - 1] ^= 0x80;
	assert_int_equal(k.api->pass[3](k.ska, k.ska_len, k.pkb, k.pkb_len, k.m2, k.m2_len,
					k.sta, &k.sta_len, k.m3, &k.m3_len), -1);
	kex_up_to_pass2(&k, s);
	assert_int_equal(k.api->pass[3](k.ska, k.ska_len, k.pkb, k.pkb_len, k.m2, k.m2_len,
					k.sta, &k.sta_len, k.m3, &k.m3_len), 1);
	k.m3[0] ^= 0x01;
	k.ss_len = 32;
	assert_int_equal(k.api->derive_b(k.skb, k.skb_len, k.pka, k.pka_len, k.m3, k.m3_len,
					 k.stb, k.stb_len, k.ss, &k.ss_len), -1);
}

/* ---- hash ------------------------------------------------------------ */

static void digest(const struct scheme_instance *s, const unsigned char *m,
		   unsigned long long bits, unsigned char out[64])
{
	memset(out, 0, 64);
	assert_int_equal(s->hash.hash(s->hash.digest_bits, m, bits, out), 0);
}

/* Only the first L bits count: junk in the unused low bits of the last
 * byte (or past it) changes nothing; every length gives its own digest. */
static void test_hash_bit_lengths(void **state)
{
	(void)state;
	for (int v = 0; v < 2; v++) {
		const struct scheme_instance *s = get(v ? "ExampleHash_512" : "ExampleHash_256");
		unsigned char m[200], junk[200], d[64], d2[64], seen[130][64];

		memset(m, 0, sizeof(m));
		for (int i = 0; i < 130; i++)
			m[i % 64] = (unsigned char)(i * 37 + 1);
		for (unsigned long long bits = 0; bits < 130 * 8; bits += 8) {
			unsigned long long l = bits + (bits / 8) % 8; /* 0..7 extra bits */
			unsigned whole = (unsigned)(l / 8), rest = (unsigned)(l % 8);

			memcpy(junk, m, sizeof(m));
			if (rest)
				junk[whole] ^= (unsigned char)(0xFF >> rest);
			junk[whole + 1] ^= 0xA5;
			digest(s, m, l, d);
			digest(s, junk, l, d2);
			assert_memory_equal(d, d2, 64);
			memcpy(seen[bits / 8], d, 64);
			for (unsigned long long j = 0; j < bits / 8; j++)
				assert_memory_not_equal(seen[j], d, 64);
		}
		/* One more bit, even a 0 bit, is another message. */
		digest(s, m, 8, d);
		digest(s, m, 9, d2);
		assert_memory_not_equal(d, d2, 64);
	}
	/* The widths are independent: 256 is not a prefix of 512. */
	{
		unsigned char d256[64], d512[64];
		digest(get("ExampleHash_256"), (const unsigned char *)"abc", 24, d256);
		digest(get("ExampleHash_512"), (const unsigned char *)"abc", 24, d512);
		assert_memory_not_equal(d256, d512, 32);
	}
	assert_int_equal(get("ExampleHash_256")->hash.hash(384, (const unsigned char *)"", 0,
							   (unsigned char[64]){ 0 }), -4);
}

/* ---- hostile builds -------------------------------------------------- */

static void expect_status(const char *tag, enum hash_kat_file f, enum kat_status want,
			  const char *detail_part)
{
	const struct scheme_instance *s = get(tag);
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;

	assert_true(s->hostile);
	assert_int_equal(scheme_katgen(s, f, &text, &detail), want);
	if (detail_part && (!detail || !strstr(detail, detail_part)))
		fail_msg("%s: detail \"%s\" lacks \"%s\"", tag, detail ? detail : "(none)",
			 detail_part);
	free(detail);
	sb_free(&text);
}

static void test_hostile_statuses(void **state)
{
	(void)state;
	expect_status("HostileSIG_sign_fails", 0, KAT_CRYPTOFAIL, "sig_sign returned -7");
	expect_status("HostileSIG_long_sig", 0, KAT_OVERFLOW, "sig_sign");
	expect_status("HostileKEX_different", 0, KAT_CRYPTOFAIL, "Count 0: the parties' shared secrets differ");
	expect_status("HostileKEX_never_2P", 0, KAT_CRYPTOFAIL, "kex_generate_pass3_msg_a returned -4");
	expect_status("HostileKEX_never_3P", 0, KAT_CRYPTOFAIL, "no pass returned 1");
	/* Runs, but its text is not the reference's. */
	expect_status("HostileSIG_accept_all", 0, KAT_PASS, NULL);
	expect_status("HostileHash_partial", HASH_KAT_2_12, KAT_PASS, NULL);
}

/* accept-all verifies garbage; the honest build rejects it. */
static void test_hostile_accept_all(void **state)
{
	const struct scheme_instance *bad = get("HostileSIG_accept_all");
	const struct scheme_instance *good = get("ExampleSIG_1");
	struct sig_session t;
	DRNG_ctx rnd;
	(void)state;

	sig_open(&t, good);
	init_random_number(&rnd, (const unsigned char *)"accept all", 10);
	sig_run(&t, &rnd);
	memset(t.sn, 0x5A, t.sn_len);
	assert_int_equal(sig_verify(&t), -1);
	assert_int_equal(bad->sig.verify(t.pk, t.pk_len, t.sn, t.sn_len, t.m, t.m_len), 0);
	sig_close(&t);
}

/* Dropping the partial byte: L = 9 and L = 8 collide, the reference
 * differs from Msg_Len = 1 on; the crash-on-long build is right on short
 * messages. */
static void test_hostile_hash_lengths(void **state)
{
	const struct scheme_instance *bad = get("HostileHash_partial");
	const struct scheme_instance *crash = get("HostileHash_crash");
	const struct scheme_instance *good = get("ExampleHash_256");
	struct strbuf ref = STRBUF_INIT, got = STRBUF_INIT;
	unsigned char d8[64], d9[64];
	(void)state;

	digest(bad, (const unsigned char *)"\x12\x80", 8, d8);
	digest(bad, (const unsigned char *)"\x12\x80", 9, d9);
	assert_memory_equal(d8, d9, 64);
	assert_int_equal(scheme_katgen(good, HASH_KAT_2_12, &ref, NULL), KAT_PASS);
	assert_int_equal(scheme_katgen(bad, HASH_KAT_2_12, &got, NULL), KAT_PASS);
	assert_true(ref.len == got.len);
	const char *r1 = strstr(ref.buf, "\nMsg_Len = 1\n"), *g1 = strstr(got.buf, "\nMsg_Len = 1\n");
	assert_int_equal(r1 - ref.buf, g1 - got.buf);
	assert_memory_equal(ref.buf, got.buf, (size_t)(r1 - ref.buf));
	assert_memory_not_equal(r1, g1, 120);
	sb_reset(&got);
	assert_int_equal(scheme_katgen(crash, HASH_KAT_2_12, &got, NULL), KAT_PASS);
	assert_string_equal(got.buf, ref.buf);
	sb_free(&ref);
	sb_free(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_names),
		cmocka_unit_test(test_committed_kats_match),
		cmocka_unit_test(test_sig_round_trips_and_lengths),
		cmocka_unit_test(test_sig_tampering_rejected),
		cmocka_unit_test(test_kex_parties_agree),
		cmocka_unit_test(test_kex_key_confirmation),
		cmocka_unit_test(test_hash_bit_lengths),
		cmocka_unit_test(test_hostile_statuses),
		cmocka_unit_test(test_hostile_accept_all),
		cmocka_unit_test(test_hostile_hash_lengths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
