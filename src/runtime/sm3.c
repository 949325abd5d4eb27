/*
 * sm3.c — portable-C, bit-level, streaming SM3 for the clean-room ICCS
 * runtime (GB/T 32905-2016; docs/iccs.md §3.5).
 *
 * A straightforward compression function, like the official plain-C code,
 * so that candidates linked against this runtime pay a comparable cost for
 * hashing.  Byte-aligned input is absorbed a block at a time; input that
 * starts in the middle of a byte (after a message whose bit length is not a
 * multiple of 8) goes through a slower bit-shifting path, which in practice
 * only sees short tags and counters.
 */
#include <string.h>

#include "sm3.h"

static const uint32_t sm3_iv[8] = {
	0x7380166fu, 0x4914b2b9u, 0x172442d7u, 0xda8a0600u,
	0xa96f30bcu, 0x163138aau, 0xe38dee4du, 0xb0fb0e4eu,
};

static uint32_t rotl32(uint32_t x, unsigned int n)
{
	n &= 31;
	return (x << n) | (x >> ((32 - n) & 31));
}

static uint32_t load_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store_be32(unsigned char *p, uint32_t x)
{
	p[0] = (unsigned char)(x >> 24);
	p[1] = (unsigned char)(x >> 16);
	p[2] = (unsigned char)(x >> 8);
	p[3] = (unsigned char)x;
}

static uint32_t p0(uint32_t x)
{
	return x ^ rotl32(x, 9) ^ rotl32(x, 17);
}

static uint32_t p1(uint32_t x)
{
	return x ^ rotl32(x, 15) ^ rotl32(x, 23);
}

static void expand(const unsigned char *block, uint32_t w[68], uint32_t w1[64])
{
	int j;

	for (j = 0; j < 16; j++)
		w[j] = load_be32(block + 4 * j);
	for (j = 16; j < 68; j++)
		w[j] = p1(w[j - 16] ^ w[j - 9] ^ rotl32(w[j - 3], 15)) ^
		       rotl32(w[j - 13], 7) ^ w[j - 6];
	for (j = 0; j < 64; j++)
		w1[j] = w[j] ^ w[j + 4];
}

static void compress(uint32_t state[8], const unsigned char *block)
{
	uint32_t w[68], w1[64];
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	int j;

	expand(block, w, w1);
	for (j = 0; j < 64; j++) {
		uint32_t t = j < 16 ? 0x79cc4519u : 0x7a879d8au;
		uint32_t ss1 = rotl32(rotl32(a, 12) + e + rotl32(t, (unsigned int)j), 7);
		uint32_t ss2 = ss1 ^ rotl32(a, 12);
		uint32_t ff, gg, tt1, tt2;

		if (j < 16) {
			ff = a ^ b ^ c;
			gg = e ^ f ^ g;
		} else {
			ff = (a & b) | (a & c) | (b & c);
			gg = (e & f) | (~e & g);
		}
		tt1 = ff + d + ss2 + w1[j];
		tt2 = gg + h + ss1 + w[j];
		d = c;
		c = rotl32(b, 9);
		b = a;
		a = tt1;
		h = g;
		g = rotl32(f, 19);
		f = e;
		e = p0(tt2);
	}
	state[0] ^= a; state[1] ^= b; state[2] ^= c; state[3] ^= d;
	state[4] ^= e; state[5] ^= f; state[6] ^= g; state[7] ^= h;
}

void ngcc_rt_sm3_init(struct ngcc_rt_sm3_ctx *ctx)
{
	memcpy(ctx->state, sm3_iv, sizeof(ctx->state));
	memset(ctx->block, 0, sizeof(ctx->block));
	ctx->nbits = 0;
}

static unsigned int block_fill(const struct ngcc_rt_sm3_ctx *ctx)
{
	return (unsigned int)(ctx->nbits % 512);
}

/*
 * Append the top n bits (1..8) of b, whose other bits are zero.  The byte
 * being filled keeps zeros past the fill, so OR-ing in the next bits works.
 */
static void put_bits(struct ngcc_rt_sm3_ctx *ctx, unsigned int b, unsigned int n)
{
	unsigned int fill = block_fill(ctx);
	unsigned int pos = fill / 8, shift = fill % 8, room = 8 - shift;

	if (shift == 0)
		ctx->block[pos] = (unsigned char)b;
	else
		ctx->block[pos] |= (unsigned char)(b >> shift);
	if (n < room) {
		ctx->nbits += n;
		return;
	}
	ctx->nbits += room;
	if (pos == 63)
		compress(ctx->state, ctx->block);
	if (n > room)
		put_bits(ctx, (b << room) & 0xffu, n - room);
}

/* Whole bytes while the fill is a multiple of 8 bits. */
static void put_aligned_bytes(struct ngcc_rt_sm3_ctx *ctx,
			      const unsigned char *data, unsigned long long n)
{
	unsigned int pos = block_fill(ctx) / 8;

	if (pos > 0) {
		unsigned int take = 64 - pos;

		if (n < take) {
			memcpy(ctx->block + pos, data, (size_t)n);
			ctx->nbits += 8 * n;
			return;
		}
		memcpy(ctx->block + pos, data, take);
		compress(ctx->state, ctx->block);
		ctx->nbits += 8ull * take;
		data += take;
		n -= take;
	}
	for (; n >= 64; n -= 64, data += 64) {
		compress(ctx->state, data);
		ctx->nbits += 512;
	}
	memcpy(ctx->block, data, (size_t)n);
	ctx->nbits += 8 * n;
}

void ngcc_rt_sm3_update(struct ngcc_rt_sm3_ctx *ctx, const unsigned char *data,
			unsigned long long nbits)
{
	unsigned long long nbytes = nbits / 8, i;
	unsigned int rest = (unsigned int)(nbits % 8);

	if (nbytes == 0) {
		/* nothing whole to copy; data may even be NULL */
	} else if (block_fill(ctx) % 8 == 0) {
		put_aligned_bytes(ctx, data, nbytes);
	} else {
		for (i = 0; i < nbytes; i++)
			put_bits(ctx, data[i], 8);
	}
	if (rest)
		put_bits(ctx, data[nbytes] & (0xffu << (8 - rest)) & 0xffu, rest);
}

/*
 * Standard padding, except for the length field's high word: the official
 * code derives it from the block count as ((L/512 >> 32) << 9) mod 2^32
 * rather than L / 2^32, so only L mod 2^32 survives for 2^32 <= L < 2^41.
 */
void ngcc_rt_sm3_final(struct ngcc_rt_sm3_ctx *ctx, unsigned char *digest)
{
	unsigned long long len = ctx->nbits;
	uint32_t hi = (uint32_t)(((len / 512) >> 32) << 9);
	uint32_t lo = (uint32_t)len;
	unsigned int used;
	int i;

	put_bits(ctx, 0x80, 1);
	used = (block_fill(ctx) + 7) / 8;
	if (block_fill(ctx) > 448) {
		memset(ctx->block + used, 0, 64 - used);
		compress(ctx->state, ctx->block);
		used = 0;
	}
	memset(ctx->block + used, 0, 56 - used);
	store_be32(ctx->block + 56, hi);
	store_be32(ctx->block + 60, lo);
	compress(ctx->state, ctx->block);
	for (i = 0; i < 8; i++)
		store_be32(digest + 4 * i, ctx->state[i]);
}

void ngcc_rt_sm3_digest(const unsigned char *data, unsigned long long nbits,
			unsigned char *digest)
{
	struct ngcc_rt_sm3_ctx ctx;

	ngcc_rt_sm3_init(&ctx);
	ngcc_rt_sm3_update(&ctx, data, nbits);
	ngcc_rt_sm3_final(&ctx, digest);
}
