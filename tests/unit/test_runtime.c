/*
 * test_runtime.c — the clean-room ICCS runtime (src/runtime/sm3.c, drng.c,
 * auxfunc.c): every docs/iccs.md §8 vector, OpenSSL EVP_sm3 on byte-aligned
 * input, a deliberately naive bit-array SM3 of this file's own for input
 * that is not byte-aligned, return codes, DRNG properties and the §3.5
 * length-field quirk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "runtime/auxfunc.h"
#include "runtime/drng.h"
#include "runtime/sm3.h"
#include "selftest/rt_vectors.h"
#include "selftest/selftest.h"

/* --- reference SM3: one byte per message bit, explicit padding ---------- */

#define ROL(x, n) (((x) << ((n) & 31)) | ((x) >> ((32 - ((n) & 31)) & 31)))

static const uint32_t ref_iv[8] = {
	0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
	0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e,
};

static void ref_compress(uint32_t v[8], const unsigned char *b)
{
	uint32_t w[68], r[8];
	int j;

	for (j = 0; j < 16; j++)
		w[j] = (uint32_t)b[4 * j] << 24 | (uint32_t)b[4 * j + 1] << 16 |
		       (uint32_t)b[4 * j + 2] << 8 | b[4 * j + 3];
	for (j = 16; j < 68; j++) {
		uint32_t x = w[j - 16] ^ w[j - 9] ^ ROL(w[j - 3], 15);

		w[j] = (x ^ ROL(x, 15) ^ ROL(x, 23)) ^ ROL(w[j - 13], 7) ^ w[j - 6];
	}
	memcpy(r, v, sizeof(r));
	for (j = 0; j < 64; j++) {
		uint32_t t = j < 16 ? 0x79cc4519 : 0x7a879d8a;
		uint32_t ss1 = ROL(ROL(r[0], 12) + r[4] + ROL(t, j), 7);
		uint32_t ss2 = ss1 ^ ROL(r[0], 12);
		uint32_t ff = j < 16 ? r[0] ^ r[1] ^ r[2] :
			      (r[0] & r[1]) | (r[0] & r[2]) | (r[1] & r[2]);
		uint32_t gg = j < 16 ? r[4] ^ r[5] ^ r[6] : (r[4] & r[5]) | (~r[4] & r[6]);
		uint32_t tt1 = ff + r[3] + ss2 + (w[j] ^ w[j + 4]);
		uint32_t tt2 = gg + r[7] + ss1 + w[j];

		r[3] = r[2];
		r[2] = ROL(r[1], 9);
		r[1] = r[0];
		r[0] = tt1;
		r[7] = r[6];
		r[6] = ROL(r[5], 19);
		r[5] = r[4];
		r[4] = tt2 ^ ROL(tt2, 9) ^ ROL(tt2, 17);
	}
	for (j = 0; j < 8; j++)
		v[j] ^= r[j];
}

static void ref_output(const uint32_t v[8], unsigned char out[32])
{
	int i;

	for (i = 0; i < 32; i++)
		out[i] = (unsigned char)(v[i / 4] >> (24 - 8 * (i % 4)));
}

static int get_bit(const unsigned char *p, size_t i)
{
	return (p[i / 8] >> (7 - i % 8)) & 1;
}

/* Standard SM3 of the first nbits bits of msg (nbits < 2^32). */
static void ref_sm3(const unsigned char *msg, size_t nbits, unsigned char out[32])
{
	size_t total = (nbits + 1 + 64 + 511) / 512 * 512, i;
	unsigned char *bits = calloc(total, 1), *packed = calloc(total / 8, 1);
	uint32_t v[8];

	assert_non_null(bits);
	assert_non_null(packed);
	for (i = 0; i < nbits; i++)
		bits[i] = (unsigned char)get_bit(msg, i);
	bits[nbits] = 1;
	for (i = 0; i < 64; i++)
		bits[total - 64 + i] = (unsigned char)(((uint64_t)nbits >> (63 - i)) & 1);
	for (i = 0; i < total; i++)
		packed[i / 8] |= (unsigned char)(bits[i] << (7 - i % 8));
	memcpy(v, ref_iv, sizeof(v));
	for (i = 0; i < total / 512; i++)
		ref_compress(v, packed + 64 * i);
	ref_output(v, out);
	free(bits);
	free(packed);
}

/* Append the first nbits bits of src to the bit string dst of *dst_bits. */
static void bitcat(unsigned char *dst, size_t *dst_bits,
		   const unsigned char *src, size_t nbits)
{
	size_t i;

	for (i = 0; i < nbits; i++, (*dst_bits)++) {
		unsigned char mask = (unsigned char)(0x80 >> (*dst_bits % 8));

		if (get_bit(src, i))
			dst[*dst_bits / 8] |= mask;
		else
			dst[*dst_bits / 8] &= (unsigned char)~mask;
	}
}

static void ref_pseudoxof(size_t out_bits, const unsigned char *msg,
			  size_t nbits, unsigned char *out)
{
	unsigned char buf[200], ctr[4] = { 0, 0, 0, 0 }, block[32];
	size_t nbytes = (out_bits + 7) / 8, i;

	for (i = 0; i < nbytes; i += 32) {
		size_t len = 0, take = nbytes - i < 32 ? nbytes - i : 32;

		ctr[3] = (unsigned char)(i / 32 + 1);
		bitcat(buf, &len, msg, nbits);
		bitcat(buf, &len, ctr, 32);
		ref_sm3(buf, len, block);
		memcpy(out + i, block, take);
	}
	if (out_bits % 8)
		out[nbytes - 1] &= (unsigned char)(0xff << (8 - out_bits % 8));
}

static void ref_hmac(const unsigned char key[64], const unsigned char *x,
		     size_t xbits, unsigned char mac[32])
{
	unsigned char buf[300], pad[64], inner[32];
	size_t len = 0;
	int i;

	for (i = 0; i < 64; i++)
		pad[i] = key[i] ^ 0x36;
	bitcat(buf, &len, pad, 512);
	bitcat(buf, &len, x, xbits);
	ref_sm3(buf, len, inner);
	for (i = 0; i < 64; i++)
		pad[i] = key[i] ^ 0x5c;
	len = 0;
	bitcat(buf, &len, pad, 512);
	bitcat(buf, &len, inner, 256);
	ref_sm3(buf, len, mac);
}

/* SM3 of up to three 32-byte values. */
static void ref_sm3_of(const unsigned char *a, const unsigned char *b,
		       const unsigned char *c, unsigned char out[32])
{
	unsigned char buf[96];

	memcpy(buf, a, 32);
	memcpy(buf + 32, b, 32);
	if (c)
		memcpy(buf + 64, c, 32);
	ref_sm3(buf, c ? 768 : 512, out);
}

static void ref_pseudohash(int bits, const unsigned char *msg, size_t nbits,
			   unsigned char *out)
{
	unsigned char key[64], tag[2] = { (unsigned char)(bits / 256), 0 };
	unsigned char buf[200], k[4][32];
	size_t len = 0;

	rtv_unhex(rtv_pseudohash_key, key, sizeof(key));
	bitcat(buf, &len, tag, 16);
	bitcat(buf, &len, msg, nbits);
	ref_hmac(key, buf, len, k[0]);
	len = 0;
	bitcat(buf, &len, msg, nbits);
	bitcat(buf, &len, tag, 16);
	ref_sm3(buf, len, out);
	ref_sm3_of(k[0], out, NULL, out + 32);
	if (bits >= 768) {
		ref_hmac(key, out, 256, k[1]);
		ref_sm3_of(out + 32, k[1], NULL, out + 64);
	}
	if (bits == 1024) {
		ref_hmac(key, out + 32, 256, k[2]);
		ref_hmac(key, out + 64, 256, k[3]);
		ref_sm3_of(k[2], out + 64, k[3], out + 96);
	}
}

/* --- helpers -------------------------------------------------------------- */

static void random_bytes(unsigned char *p, size_t n, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = (unsigned char)(*s >> 56);
	}
}

static void evp_sm3(const unsigned char *p, size_t n, unsigned char out[32])
{
	assert_int_equal(EVP_Digest(p, n, out, NULL, EVP_sm3(), NULL), 1);
}

static void assert_hex(const unsigned char *got, size_t n, const char *want_hex)
{
	unsigned char want[256];
	char got_hex[513];

	assert_int_equal(rtv_unhex(want_hex, want, sizeof(want)), (long)n);
	if (memcmp(got, want, n) != 0) {
		rtv_hex(got, n, got_hex);
		fail_msg("expected %s got %s", want_hex, got_hex);
	}
}

static void seed_repeated(DRNG_ctx *ctx, const char *unit, size_t unit_len)
{
	unsigned char seed[64];

	rtv_repeat(seed, sizeof(seed), unit, unit_len);
	assert_int_equal(init_random_number(ctx, seed, sizeof(seed)), 0);
}

/* --- spec vectors ------------------------------------------------------------ */

static void test_aux_vectors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < rtv_nvectors; i++) {
		const struct rtv_vector *v = &rtv_vectors[i];
		unsigned char out[256];

		print_message("%s\n", v->name);
		assert_int_equal(rtv_call(v, out), 0);
		assert_hex(out, (size_t)(v->out_bits + 7) / 8, v->expected);
	}
}

static void test_drng_vectors(void **state)
{
	DRNG_ctx ctx;
	unsigned char out[512], seed[64];
	int i;

	(void)state;
	seed_repeated(&ctx, "seed", 4);
	assert_hex(ctx.V, SEEDLEN, rtv_drng_v);
	assert_hex(ctx.C, SEEDLEN, rtv_drng_c);
	for (i = 0; i < SEEDLEN - 1; i++)
		assert_int_equal(ctx.reseed_counter[i], 0);
	assert_int_equal(ctx.reseed_counter[SEEDLEN - 1], 1);
	for (i = 0; i < RTV_NSEEDS; i++) {
		assert_int_equal(get_random_number(&ctx, out, 512), 0);
		assert_hex(out, 64, rtv_drng_seeds[i]);
	}

	rtv_repeat(seed, 63, "msg", 3);
	seed[63] = 'm';
	assert_int_equal(init_random_number(&ctx, seed, 64), 0);
	assert_int_equal(get_random_number(&ctx, out, 56 * 8), 0);
	assert_hex(out, 56, rtv_sig_msgs[0]);
	assert_int_equal(get_random_number(&ctx, out, 64 * 8), 0);
	assert_hex(out, 64, rtv_sig_msgs[1]);

	seed_repeated(&ctx, "KAT_2_12", 8);
	for (i = 0; i < RTV_NHASHKAT_MSGS; i++) {
		memset(out, 0, sizeof(out));
		assert_int_equal(get_random_number(&ctx, out, (unsigned long long)i), 0);
		assert_hex(out, (size_t)(i + 7) / 8, rtv_hashkat_msgs[i]);
	}

	seed_repeated(&ctx, "KAT_Loop", 8);
	{
		unsigned char m0[1024];

		assert_int_equal(get_random_number(&ctx, m0, 8192), 0);
		assert_hex(m0, 32, rtv_kat_loop_m0_start);
		assert_hex(m0 + 1024 - 16, 16, rtv_kat_loop_m0_end);
	}
}

static void test_kat_2_23(void **state)
{
	const size_t n = (size_t)1 << 20;
	unsigned char *msg = malloc(n);
	DRNG_ctx ctx;

	(void)state;
	assert_non_null(msg);
	seed_repeated(&ctx, "KAT_2_23", 8);
	assert_int_equal(get_random_number(&ctx, msg, 8ull * n), 0);
	assert_hex(msg, 8, rtv_kat_2_23_first);
	assert_hex(msg + n - 8, 8, rtv_kat_2_23_last);
	free(msg);
}

/* The whole selftest passes, and its table is not empty. */
static void test_selftest_passes(void **state)
{
	struct selftest st = { NULL, 0, 0, 0 };

	(void)state;
	st.out = fopen("/dev/null", "w");
	assert_non_null(st.out);
	selftest_run(&st);
	fclose(st.out);
	assert_int_equal(st.failed, 0);
	assert_int_equal(st.skipped, 0);
	assert_true(st.passed >= 70);
}

/* --- SM3 against OpenSSL and the reference -------------------------------- */

static void test_sm3_vs_openssl(void **state)
{
	unsigned char *data = malloc(5000), ours[32], theirs[32];
	uint64_t s = 1;
	size_t n;

	(void)state;
	assert_non_null(data);
	random_bytes(data, 5000, &s);
	for (n = 0; n <= 1200; n++) {
		assert_int_equal(sm3hash(256, data, 8ull * n, ours), 0);
		evp_sm3(data, n, theirs);
		assert_memory_equal(ours, theirs, 32);
	}
	for (n = 1201; n <= 5000; n += 97) {
		sm3hash(256, data + 3, 8ull * (n - 3), ours);
		evp_sm3(data + 3, n - 3, theirs);
		assert_memory_equal(ours, theirs, 32);
	}
	free(data);
}

/* The reference itself is checked on byte-aligned input first. */
static void test_reference_vs_openssl(void **state)
{
	unsigned char data[300], ours[32], theirs[32];
	uint64_t s = 2;
	size_t n;

	(void)state;
	random_bytes(data, sizeof(data), &s);
	for (n = 0; n <= sizeof(data); n++) {
		ref_sm3(data, 8 * n, ours);
		evp_sm3(data, n, theirs);
		assert_memory_equal(ours, theirs, 32);
	}
}

/* Lengths 1..600 bits, junk in the unused low bits of the last byte. */
static void test_bit_lengths(void **state)
{
	unsigned char data[80], ours[128], theirs[128];
	uint64_t s = 3;
	size_t bits;

	(void)state;
	for (bits = 0; bits <= 600; bits++) {
		random_bytes(data, sizeof(data), &s);
		assert_int_equal(sm3hash(256, data, bits, ours), 0);
		ref_sm3(data, bits, theirs);
		assert_memory_equal(ours, theirs, 32);

		assert_int_equal(pseudoXOF(300, data, bits, ours), 0);
		ref_pseudoxof(300, data, bits, theirs);
		assert_memory_equal(ours, theirs, 38);

		if (bits % 7 == 0 || bits < 20 || bits % 8 == 0) {
			assert_int_equal(pseudohash(1024, data, bits, ours), 0);
			ref_pseudohash(1024, data, bits, theirs);
			assert_memory_equal(ours, theirs, 128);
		}
	}
}

/* Clearing or setting the junk bits must not change any function's output. */
static void test_junk_bits_ignored(void **state)
{
	unsigned char a[80], b[80], out_a[128], out_b[128];
	uint64_t s = 4;
	size_t bits;

	(void)state;
	for (bits = 1; bits <= 600; bits++) {
		size_t last = (bits - 1) / 8;
		unsigned char junk = (unsigned char)(0xff >> (bits % 8 ? bits % 8 : 8));

		random_bytes(a, sizeof(a), &s);
		memcpy(b, a, sizeof(b));
		a[last] &= (unsigned char)~junk;
		b[last] |= junk;
		sm3hash(256, a, bits, out_a);
		sm3hash(256, b, bits, out_b);
		assert_memory_equal(out_a, out_b, 32);
		pseudoXOF(520, a, bits, out_a);
		pseudoXOF(520, b, bits, out_b);
		assert_memory_equal(out_a, out_b, 65);
		pseudohash(768, a, bits, out_a);
		pseudohash(768, b, bits, out_b);
		assert_memory_equal(out_a, out_b, 96);
	}
}

/* nbits bits of src from bit `from` into dst, MSB-first, junk after them. */
static void extract_bits(const unsigned char *src, size_t from, size_t nbits,
			 unsigned char *dst, size_t dst_size)
{
	size_t i;

	memset(dst, 0xff, dst_size);
	for (i = 0; i < nbits; i++) {
		unsigned char mask = (unsigned char)(0x80 >> (i % 8));

		if (!get_bit(src, from + i))
			dst[i / 8] &= (unsigned char)~mask;
	}
}

/* Streaming three pieces cut at any bits equals hashing the whole. */
static void test_streaming_splits(void **state)
{
	unsigned char data[100], piece[100], ours[32], theirs[32];
	uint64_t s = 5;
	size_t total, a, b;

	(void)state;
	random_bytes(data, sizeof(data), &s);
	for (total = 0; total <= 700; total += 37) {
		ref_sm3(data, total, theirs);
		for (a = 0; a <= total; a += 5) {
			struct ngcc_rt_sm3_ctx ctx;

			b = a + (total - a) / 2;
			ngcc_rt_sm3_init(&ctx);
			extract_bits(data, 0, a, piece, sizeof(piece));
			ngcc_rt_sm3_update(&ctx, piece, a);
			extract_bits(data, a, b - a, piece, sizeof(piece));
			ngcc_rt_sm3_update(&ctx, piece, b - a);
			extract_bits(data, b, total - b, piece, sizeof(piece));
			ngcc_rt_sm3_update(&ctx, piece, total - b);
			ngcc_rt_sm3_final(&ctx, ours);
			assert_memory_equal(ours, theirs, 32);
		}
	}
}

/*
 * §3.5: for L >= 2^32 the length field's high word is ((L/512 >> 32) << 9)
 * mod 2^32.  White box: pretend L bits (a multiple of 512) were absorbed
 * from the IV and compare the final block with the reference compression.
 */
static void quirk_case(unsigned long long len, uint32_t want_hi)
{
	struct ngcc_rt_sm3_ctx ctx;
	unsigned char block[64], ours[32], theirs[32];
	uint32_t v[8];
	int i;

	ngcc_rt_sm3_init(&ctx);
	ctx.nbits = len;
	ngcc_rt_sm3_final(&ctx, ours);

	memset(block, 0, sizeof(block));
	block[0] = 0x80;
	for (i = 0; i < 4; i++) {
		block[56 + i] = (unsigned char)(want_hi >> (24 - 8 * i));
		block[60 + i] = (unsigned char)(len >> (24 - 8 * i));
	}
	memcpy(v, ref_iv, sizeof(v));
	ref_compress(v, block);
	ref_output(v, theirs);
	assert_memory_equal(ours, theirs, 32);
}

static void test_length_quirk(void **state)
{
	(void)state;
	quirk_case(512ull * 1000, 0);
	quirk_case(1ull << 32, 0);                      /* standard would be 1 */
	quirk_case((1ull << 32) + 512 * 3, 0);
	quirk_case((1ull << 40) + (1ull << 33), 0);     /* standard 0x102 */
	quirk_case(1ull << 41, 0x200);
	quirk_case((1ull << 41) + (1ull << 32), 0x200); /* standard 0x201 */
	quirk_case(3ull << 41, 0x600);
	quirk_case(1ull << 63, 0x80000000);             /* standard 2^31 too */
	quirk_case((1ull << 63) + (5ull << 32), 0x80000000);
}

/* --- return codes and degenerate input ----------------------------------- */

static void test_return_codes(void **state)
{
	static const int bad_sm3[] = { 0, 1, 128, 224, 255, 257, 384, 512, -256 };
	static const int bad_ph[] = { 0, 256, 511, 513, 640, 1023, 2048, -512 };
	const unsigned char *msg = (const unsigned char *)"abc";
	unsigned char out[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_sm3) / sizeof(bad_sm3[0]); i++)
		assert_int_equal(sm3hash(bad_sm3[i], msg, 24, out), -4);
	for (i = 0; i < sizeof(bad_ph) / sizeof(bad_ph[0]); i++)
		assert_int_equal(pseudohash(bad_ph[i], msg, 24, out), -4);
	assert_int_equal(sm3hash(256, msg, 24, out), 0);
	assert_int_equal(pseudohash(512, msg, 24, out), 0);
	assert_int_equal(pseudohash(768, msg, 24, out), 0);
	assert_int_equal(pseudohash(1024, msg, 24, out), 0);
}

/* Empty input may come with a NULL pointer; zero-length output writes nothing. */
static void test_empty_input(void **state)
{
	unsigned char out[64], want[64];
	DRNG_ctx a, b;

	(void)state;
	assert_int_equal(sm3hash(256, NULL, 0, out), 0);
	assert_hex(out, 32, rtv_vectors[2].expected);
	assert_int_equal(pseudoXOF(512, NULL, 0, out), 0);
	assert_hex(out, 64, rtv_vectors[6].expected);
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(pseudoXOF(0, (const unsigned char *)"abc", 24, out), 0);
	assert_int_equal(out[0], 0x5a);
	assert_int_equal(init_random_number(&a, NULL, 0), 0);
	assert_int_equal(init_random_number(&b, (const unsigned char *)"x", 0), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* V = df(empty): the first 55 bytes of SM3(01 000001B8) || SM3(02 ...). */
	evp_sm3((const unsigned char *)"\x01\x00\x00\x01\xb8", 5, want);
	evp_sm3((const unsigned char *)"\x02\x00\x00\x01\xb8", 5, want + 32);
	assert_memory_equal(a.V, want, SEEDLEN);
}

/* --- DRNG properties ---------------------------------------------------------- */

static void test_drng_zero_bits(void **state)
{
	DRNG_ctx ctx, before;
	unsigned char buf[64];

	(void)state;
	seed_repeated(&ctx, "seed", 4);
	before = ctx;
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(get_random_number(&ctx, buf, 0), 0);
	assert_int_equal(buf[0], 0xa5);
	assert_memory_not_equal(before.V, ctx.V, SEEDLEN);
	assert_memory_equal(before.C, ctx.C, SEEDLEN);
	assert_int_equal(ctx.reseed_counter[SEEDLEN - 1], 2);
	/* The update does not depend on the request size. */
	assert_int_equal(get_random_number(&ctx, buf, 512), 0);
	assert_hex(buf, 64, rtv_drng_seeds[1]);
}

/* n-bit draws from a fresh state are masked prefixes of a long draw, and
 * bytes past ceil(n/8) are untouched. */
static void test_drng_lengths(void **state)
{
	DRNG_ctx fresh, ctx;
	unsigned char full[80], buf[96];
	size_t bits, i;

	(void)state;
	seed_repeated(&fresh, "seed", 4);
	ctx = fresh;
	assert_int_equal(get_random_number(&ctx, full, 640), 0);
	for (bits = 1; bits <= 640; bits++) {
		size_t nbytes = (bits + 7) / 8;

		ctx = fresh;
		memset(buf, 0xa5, sizeof(buf));
		assert_int_equal(get_random_number(&ctx, buf, bits), 0);
		assert_memory_equal(buf, full, nbytes - 1);
		assert_int_equal(buf[nbytes - 1],
				 full[nbytes - 1] & (0xff << ((8 - bits % 8) % 8)) & 0xff);
		for (i = nbytes; i < sizeof(buf); i++)
			assert_int_equal(buf[i], 0xa5);
	}
}

static void test_drng_granularity(void **state)
{
	DRNG_ctx ctx;
	unsigned char a[32], b[32], c0[64], c1[64];

	(void)state;
	seed_repeated(&ctx, "seed", 4);
	get_random_number(&ctx, a, 256);
	get_random_number(&ctx, b, 256);
	rtv_unhex(rtv_drng_seeds[0], c0, sizeof(c0));
	rtv_unhex(rtv_drng_seeds[1], c1, sizeof(c1));
	assert_memory_equal(a, c0, 32);
	assert_memory_equal(b, c1, 32);
	assert_memory_not_equal(b, c0 + 32, 32);
}

/* 440-bit arithmetic wraps: V = 2^440 - 1, C = 0, counter = 1. */
static void test_drng_wraparound(void **state)
{
	unsigned char out[64], want[32], in[56];
	DRNG_ctx ctx;
	int i;

	(void)state;
	memset(ctx.V, 0xff, SEEDLEN);
	memset(ctx.C, 0, SEEDLEN);
	memset(ctx.reseed_counter, 0, SEEDLEN);
	ctx.reseed_counter[SEEDLEN - 1] = 1;
	assert_int_equal(get_random_number(&ctx, out, 512), 0);
	evp_sm3(ctx.C, SEEDLEN, want);                  /* SM3(V + 1) = SM3(0) */
	assert_memory_equal(out + 32, want, 32);
	memset(in + 1, 0xff, SEEDLEN);
	in[0] = 0x03;
	evp_sm3(in, 56, want);                          /* H = SM3(03 || V) */
	for (i = 0; i < SEEDLEN - 32; i++)
		assert_int_equal(ctx.V[i], 0);
	assert_memory_equal(ctx.V + SEEDLEN - 32, want, 32); /* V + H + 0 + 1 */
	assert_int_equal(ctx.reseed_counter[SEEDLEN - 1], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aux_vectors),
		cmocka_unit_test(test_drng_vectors),
		cmocka_unit_test(test_kat_2_23),
		cmocka_unit_test(test_selftest_passes),
		cmocka_unit_test(test_sm3_vs_openssl),
		cmocka_unit_test(test_reference_vs_openssl),
		cmocka_unit_test(test_bit_lengths),
		cmocka_unit_test(test_junk_bits_ignored),
		cmocka_unit_test(test_streaming_splits),
		cmocka_unit_test(test_length_quirk),
		cmocka_unit_test(test_return_codes),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_drng_zero_bits),
		cmocka_unit_test(test_drng_lengths),
		cmocka_unit_test(test_drng_granularity),
		cmocka_unit_test(test_drng_wraparound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
