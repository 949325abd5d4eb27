/*
 * drng.c — clean-room ICCS DRNG (docs/iccs.md §2): NIST SP 800-90A Hash_DRBG
 * with SM3, seedlen 440 bits, no reseed.  Depends only on sm3.c so that it
 * can be linked into a candidate that ships its own auxfunc.c.
 *
 * All state members are 55-byte big-endian integers; arithmetic is mod 2^440.
 * No heap is used, so the -2 (malloc failure) return never happens here.
 */
#include <string.h>

#include "drng.h"
#include "sm3.h"

#define DRNG_OUT_BYTES NGCC_RT_SM3_DIGEST_BYTES

/* Hash_df to 440 bits of prefix || input, prefix being 0 or 1 byte long. */
static void hash_df(const unsigned char *prefix, unsigned int prefix_len,
		    const unsigned char *input, unsigned long long input_len,
		    unsigned char out[SEEDLEN])
{
	/* 440 as a 32-bit big-endian number of bits to return */
	static const unsigned char nbits_be[4] = { 0x00, 0x00, 0x01, 0xb8 };
	unsigned char digest[2 * DRNG_OUT_BYTES];
	unsigned char counter;

	for (counter = 1; counter <= 2; counter++) {
		struct ngcc_rt_sm3_ctx ctx;

		ngcc_rt_sm3_init(&ctx);
		ngcc_rt_sm3_update(&ctx, &counter, 8);
		ngcc_rt_sm3_update(&ctx, nbits_be, 32);
		ngcc_rt_sm3_update(&ctx, prefix, 8ull * prefix_len);
		ngcc_rt_sm3_update(&ctx, input, 8 * input_len);
		ngcc_rt_sm3_final(&ctx, digest + (counter - 1) * DRNG_OUT_BYTES);
	}
	memcpy(out, digest, SEEDLEN);
}

/* acc = (acc + addend) mod 2^440; addend is addend_len <= SEEDLEN bytes. */
static void add_be(unsigned char acc[SEEDLEN], const unsigned char *addend,
		   unsigned int addend_len)
{
	unsigned int carry = 0;
	int i, j;

	for (i = SEEDLEN - 1, j = (int)addend_len - 1; i >= 0; i--, j--) {
		carry += acc[i];
		if (j >= 0)
			carry += addend[j];
		acc[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

int init_random_number(DRNG_ctx *drng, const unsigned char *seed,
		       unsigned long long seed_len_bytes)
{
	static const unsigned char zero = 0x00;

	hash_df(NULL, 0, seed, seed_len_bytes, drng->V);
	hash_df(&zero, 1, drng->V, SEEDLEN, drng->C);
	memset(drng->reseed_counter, 0, SEEDLEN);
	drng->reseed_counter[SEEDLEN - 1] = 1;
	return 0;
}

/* Hashgen: SM3(V), SM3(V+1), ... into out, nbytes of it. */
static void hashgen(const unsigned char v[SEEDLEN], unsigned char *out,
		    unsigned long long nbytes)
{
	static const unsigned char one = 0x01;
	unsigned char data[SEEDLEN], digest[DRNG_OUT_BYTES];

	memcpy(data, v, SEEDLEN);
	while (nbytes > 0) {
		unsigned long long take = nbytes < DRNG_OUT_BYTES ? nbytes : DRNG_OUT_BYTES;

		ngcc_rt_sm3_digest(data, 8 * SEEDLEN, digest);
		memcpy(out, digest, (size_t)take);
		out += take;
		nbytes -= take;
		add_be(data, &one, 1);
	}
}

int get_random_number(DRNG_ctx *drng, unsigned char *random_number,
		      unsigned long long random_number_len_bits)
{
	static const unsigned char one = 0x01, three = 0x03;
	unsigned int rest = (unsigned int)(random_number_len_bits % 8);
	unsigned long long nbytes = random_number_len_bits / 8 + (rest != 0);
	unsigned char h[DRNG_OUT_BYTES];
	struct ngcc_rt_sm3_ctx ctx;

	hashgen(drng->V, random_number, nbytes);
	if (rest)
		random_number[nbytes - 1] &= (unsigned char)(0xffu << (8 - rest));

	/* The state advances on every call, zero-bit requests included. */
	ngcc_rt_sm3_init(&ctx);
	ngcc_rt_sm3_update(&ctx, &three, 8);
	ngcc_rt_sm3_update(&ctx, drng->V, 8 * SEEDLEN);
	ngcc_rt_sm3_final(&ctx, h);
	add_be(drng->V, h, DRNG_OUT_BYTES);
	add_be(drng->V, drng->C, SEEDLEN);
	add_be(drng->V, drng->reseed_counter, SEEDLEN);
	add_be(drng->reseed_counter, &one, 1);
	return 0;
}
