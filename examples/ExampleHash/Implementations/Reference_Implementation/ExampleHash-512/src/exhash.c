/*
 * exhash.c — ExampleHash: a sponge with a 1024-bit state of sixteen 64-bit
 * words, a 512-bit rate and a 512-bit capacity.
 *
 * Permutation: rounds of the add-rotate-xor quarter-round known from
 * ChaCha and BLAKE2b (rotations 32, 24, 16, 63), applied to the columns and
 * then the diagonals of the 4x4 word matrix.  4 rounds after each absorbed
 * block, 8 rounds before the digest is read.
 *
 * The initial state depends on the digest width, so ExampleHash-256 is not
 * a prefix of ExampleHash-512.  Messages are bit strings: the bits after
 * the last whole 64-byte block are followed by a single 1 bit and zeros
 * (always, so every message ends in a padded block), and the last block
 * also flips a bit of the capacity.  Words are read little-endian.
 */
#include <stdint.h>
#include <string.h>

#include "exhash.h"

#define RATE_BYTES 64
#define RATE_WORDS 8
#define STATE_WORDS 16
#define BLOCK_ROUNDS 4
#define FINAL_ROUNDS 8

static uint64_t rotr(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

#define QUARTER(a, b, c, d)                             \
	do {                                            \
		a += b; d = rotr(d ^ a, 32);            \
		c += d; b = rotr(b ^ c, 24);            \
		a += b; d = rotr(d ^ a, 16);            \
		c += d; b = rotr(b ^ c, 63);            \
	} while (0)

/* The words live in locals so that the compiler keeps them in registers. */
static void permute(uint64_t s[STATE_WORDS], int rounds)
{
	uint64_t v0 = s[0], v1 = s[1], v2 = s[2], v3 = s[3];
	uint64_t v4 = s[4], v5 = s[5], v6 = s[6], v7 = s[7];
	uint64_t v8 = s[8], v9 = s[9], v10 = s[10], v11 = s[11];
	uint64_t v12 = s[12], v13 = s[13], v14 = s[14], v15 = s[15];
	int r;

	for (r = 0; r < rounds; r++) {
		QUARTER(v0, v4, v8, v12);
		QUARTER(v1, v5, v9, v13);
		QUARTER(v2, v6, v10, v14);
		QUARTER(v3, v7, v11, v15);
		QUARTER(v0, v5, v10, v15);
		QUARTER(v1, v6, v11, v12);
		QUARTER(v2, v7, v8, v13);
		QUARTER(v3, v4, v9, v14);
		v0 ^= (uint64_t)r; /* round constant */
	}
	s[0] = v0; s[1] = v1; s[2] = v2; s[3] = v3;
	s[4] = v4; s[5] = v5; s[6] = v6; s[7] = v7;
	s[8] = v8; s[9] = v9; s[10] = v10; s[11] = v11;
	s[12] = v12; s[13] = v13; s[14] = v14; s[15] = v15;
}

/* Written out byte by byte: compilers turn this into one load. */
static uint64_t load64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void store64(unsigned char *p, uint64_t x)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(x >> (8 * i));
}

/* The width-dependent initial state: multiples of the golden ratio. */
static void init_state(uint64_t s[STATE_WORDS], int digest_bits)
{
	int i;

	for (i = 0; i < STATE_WORDS; i++)
		s[i] = (uint64_t)(i + 1) * UINT64_C(0x9E3779B97F4A7C15);
	s[STATE_WORDS - 1] ^= (uint64_t)digest_bits;
}

static void absorb(uint64_t s[STATE_WORDS], const unsigned char *block)
{
	int i;

	for (i = 0; i < RATE_WORDS; i++)
		s[i] ^= load64(block + 8 * i);
}

/* The last block: the remaining tail_bits (< 512) bits, a 1 bit, zeros. */
static void absorb_last(uint64_t s[STATE_WORDS], const unsigned char *tail,
			unsigned tail_bits)
{
	unsigned char block[RATE_BYTES];
	unsigned whole = tail_bits / 8, rest = tail_bits % 8;

	memset(block, 0, sizeof(block));
	memcpy(block, tail, whole + (rest != 0));
	if (rest)
		block[whole] &= (unsigned char)(0xFF << (8 - rest));
	block[whole] |= (unsigned char)(0x80 >> rest);
	absorb(s, block);
	s[STATE_WORDS - 1] ^= 1; /* last-block flag, in the capacity */
}

int exhash_digest(int digest_bits, const unsigned char *msg,
		  unsigned long long msg_bits, unsigned char *digest)
{
	uint64_t s[STATE_WORDS];
	unsigned long long blocks = msg_bits / (8 * RATE_BYTES), b;
	int i;

	if (digest_bits != 256 && digest_bits != 512)
		return -4;
	init_state(s, digest_bits);
	for (b = 0; b < blocks; b++) {
		absorb(s, msg + b * RATE_BYTES);
		permute(s, BLOCK_ROUNDS);
	}
	absorb_last(s, msg + blocks * RATE_BYTES,
		    (unsigned)(msg_bits - blocks * 8 * RATE_BYTES));
	permute(s, FINAL_ROUNDS);
	for (i = 0; i < digest_bits / 64; i++)
		store64(digest + 8 * i, s[i]);
	return 0;
}
