/*
 * exkex.c — ExampleKEX (see exkex.h).  Every hash and XOF is an ICCS
 * auxiliary function with a one-byte domain tag; all randomness comes from
 * the ICCS DRNG drng_algorithm.
 *
 * LWE encryption, entries mod q = 2^16 (uint16_t arithmetic wraps):
 *   A (n x n) = pseudoXOF(01 || seedA); key pair B = A S + E (n x nbar).
 *   Enc(pk, share; coins): S', E' (nbar x n), E'' (nbar x nbar) from coins,
 *     C1 = S' A + E', C2 = S' B + E'' + encode(share) (4 bits per entry,
 *     in the top bits).  Dec: decode(C2 - C1 S).
 *   Noise: centred binomial, pseudoXOF(02 || coins) bits.
 * Session key K = sm3hash(03 || share_a || share_b || H(m1) || H(c2)),
 * H = sm3hash(04 || .), tags = sm3hash(05 || party || K),
 * shared secret = pseudoXOF(256, 06 || K).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "auxfunc.h"
#include "drng.h"
#include "exkex.h"

/* Defined by the KAT driver (or the harness), never here. */
extern DRNG_ctx drng_algorithm;

#define N EXKEX_LWE_N
#define NB EXKEX_NBAR

enum { TAG_MATRIX = 1, TAG_NOISE, TAG_KEY, TAG_HASH, TAG_CONFIRM, TAG_SECRET };

static int xof(unsigned char tag, const unsigned char *in, size_t len,
	       unsigned char *out, size_t outlen)
{
	unsigned char *buf = malloc(1 + len);
	int rc;

	if (!buf)
		return -2;
	buf[0] = tag;
	memcpy(buf + 1, in, len);
	rc = pseudoXOF(8ULL * outlen, buf, 8ULL * (1 + len), out) ? -2 : 0;
	free(buf);
	return rc;
}

/* sm3hash(tag || parts...), the parts given as (pointer, length) pairs. */
static int hash(unsigned char tag, unsigned char out[32], int nparts,
		const unsigned char *const *parts, const size_t *lens)
{
	size_t total = 1, off = 1;
	unsigned char *buf;
	int i, rc;

	for (i = 0; i < nparts; i++)
		total += lens[i];
	buf = malloc(total);
	if (!buf)
		return -2;
	buf[0] = tag;
	for (i = 0; i < nparts; i++) {
		memcpy(buf + off, parts[i], lens[i]);
		off += lens[i];
	}
	rc = sm3hash(256, buf, 8ULL * total, out) ? -2 : 0;
	free(buf);
	return rc;
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static int expand_matrix(const unsigned char seed[EXKEX_SEEDABYTES], uint16_t *a)
{
	unsigned char *bytes = malloc(2 * N * N);
	int i;

	if (!bytes || xof(TAG_MATRIX, seed, EXKEX_SEEDABYTES, bytes, 2 * N * N)) {
		free(bytes);
		return -2;
	}
	for (i = 0; i < N * N; i++)
		a[i] = get16(bytes + 2 * i);
	free(bytes);
	return 0;
}

/* count centred-binomial samples in [-ETA, ETA] from 32 bytes of coins and
 * a domain byte. */
static int sample_noise(const unsigned char coins[32], unsigned char domain,
			int16_t *out, int count)
{
	unsigned char in[33], *bits = malloc((size_t)count);
	int i, j;

	if (!bits)
		return -2;
	memcpy(in, coins, 32);
	in[32] = domain;
	if (xof(TAG_NOISE, in, sizeof(in), bits, (size_t)count)) {
		free(bits);
		return -2;
	}
	for (i = 0; i < count; i++) {
		int v = 0;
		for (j = 0; j < EXKEX_ETA; j++)
			v += ((bits[i] >> j) & 1) - ((bits[i] >> (j + 4)) & 1);
		out[i] = (int16_t)v;
	}
	free(bits);
	return 0;
}

int exkex_keypair(unsigned char *pk, unsigned char *sk)
{
	uint16_t *a = malloc(sizeof(uint16_t) * N * N);
	int16_t s[N * NB], e[N * NB];
	unsigned char coins[32];
	int i, j, k, rc = -2;

	if (!a)
		return -2;
	if (get_random_number(&drng_algorithm, pk, 8 * EXKEX_SEEDABYTES) ||
	    get_random_number(&drng_algorithm, coins, 8 * sizeof(coins)) ||
	    expand_matrix(pk, a) || sample_noise(coins, 0, s, N * NB) ||
	    sample_noise(coins, 1, e, N * NB))
		goto out;
	for (i = 0; i < N; i++)
		for (j = 0; j < NB; j++) {
			uint16_t acc = (uint16_t)e[i * NB + j];
			for (k = 0; k < N; k++)
				acc = (uint16_t)(acc + (uint32_t)a[i * N + k] * s[k * NB + j]);
			put16(pk + EXKEX_SEEDABYTES + 2 * (i * NB + j), acc);
		}
	for (i = 0; i < N * NB; i++)
		sk[i] = (unsigned char)s[i];
	rc = 0;
out:
	free(a);
	return rc;
}

/* ct = Enc(pk, share) with fresh coins from the DRNG. */
static int encrypt(const unsigned char *pk, const unsigned char share[EXKEX_SHAREBYTES],
		   unsigned char *ct)
{
	uint16_t *a = malloc(sizeof(uint16_t) * N * N);
	int16_t s[NB * N], e1[NB * N], e2[NB * NB];
	unsigned char coins[32];
	int i, j, k, rc = -2;

	if (!a)
		return -2;
	if (get_random_number(&drng_algorithm, coins, 8 * sizeof(coins)) ||
	    expand_matrix(pk, a) || sample_noise(coins, 2, s, NB * N) ||
	    sample_noise(coins, 3, e1, NB * N) || sample_noise(coins, 4, e2, NB * NB))
		goto out;
	for (i = 0; i < NB; i++)
		for (j = 0; j < N; j++) {
			uint16_t acc = (uint16_t)e1[i * N + j];
			for (k = 0; k < N; k++)
				acc = (uint16_t)(acc + (uint32_t)(uint16_t)s[i * N + k] * a[k * N + j]);
			put16(ct + 2 * (i * N + j), acc);
		}
	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			int idx = i * NB + j;
			uint16_t nibble = (share[idx / 2] >> (4 * (idx % 2))) & 0xF;
			uint16_t acc = (uint16_t)(e2[idx] + (nibble << (16 - EXKEX_BITS)));
			for (k = 0; k < N; k++)
				acc = (uint16_t)(acc + (uint32_t)(uint16_t)s[i * N + k] *
						 get16(pk + EXKEX_SEEDABYTES + 2 * (k * NB + j)));
			put16(ct + EXKEX_MATBYTES + 2 * idx, acc);
		}
	rc = 0;
out:
	free(a);
	return rc;
}

static void decrypt(const unsigned char *sk, const unsigned char *ct,
		    unsigned char share[EXKEX_SHAREBYTES])
{
	int i, j, k;

	memset(share, 0, EXKEX_SHAREBYTES);
	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			int idx = i * NB + j;
			uint16_t m = get16(ct + EXKEX_MATBYTES + 2 * idx);
			for (k = 0; k < N; k++)
				m = (uint16_t)(m - (uint32_t)get16(ct + 2 * (i * N + k)) *
					       (uint16_t)(int16_t)(signed char)sk[k * NB + j]);
			/* round to the nearest multiple of 2^(16-BITS) */
			m = (uint16_t)((m + (1u << (15 - EXKEX_BITS))) >> (16 - EXKEX_BITS));
			share[idx / 2] |= (unsigned char)((m & 0xF) << (4 * (idx % 2)));
		}
}

static int transcript_hash(const unsigned char *msg, size_t len, unsigned char out[32])
{
	const unsigned char *parts[1] = { msg };

	return hash(TAG_HASH, out, 1, parts, &len);
}

static int session_key(const unsigned char *share_a, const unsigned char *share_b,
		       const unsigned char *h1, const unsigned char *c2, unsigned char *key)
{
	unsigned char h2[32];
	const unsigned char *parts[4] = { share_a, share_b, h1, h2 };
	const size_t lens[4] = { EXKEX_SHAREBYTES, EXKEX_SHAREBYTES, 32, 32 };

	if (transcript_hash(c2, EXKEX_CTBYTES, h2))
		return -2;
	return hash(TAG_KEY, key, 4, parts, lens);
}

int exkex_tag(char party, const unsigned char *session_key_, unsigned char *tag)
{
	const unsigned char p = (unsigned char)party;
	const unsigned char *parts[2] = { &p, session_key_ };
	const size_t lens[2] = { 1, EXKEX_HASHBYTES };

	return hash(TAG_CONFIRM, tag, 2, parts, lens);
}

int exkex_secret(const unsigned char *session_key_, unsigned char *ss)
{
	return xof(TAG_SECRET, session_key_, EXKEX_HASHBYTES, ss, EXKEX_SSBYTES);
}

int exkex_start(const unsigned char *pkb, unsigned char *sta, unsigned char *m1)
{
	if (get_random_number(&drng_algorithm, sta, 8 * EXKEX_SHAREBYTES) ||
	    encrypt(pkb, sta, m1))
		return -2;
	return transcript_hash(m1, EXKEX_CTBYTES, sta + EXKEX_SHAREBYTES);
}

int exkex_respond(const unsigned char *skb, const unsigned char *pka,
		  const unsigned char *m1, unsigned char *stb, unsigned char *m2)
{
	unsigned char share_a[EXKEX_SHAREBYTES], share_b[EXKEX_SHAREBYTES], h1[32];

	decrypt(skb, m1, share_a);
	if (get_random_number(&drng_algorithm, share_b, 8 * sizeof(share_b)) ||
	    encrypt(pka, share_b, m2) || transcript_hash(m1, EXKEX_CTBYTES, h1) ||
	    session_key(share_a, share_b, h1, m2, stb))
		return -2;
	if (EXKEX_PASSES == 3)
		return exkex_tag('B', stb, m2 + EXKEX_CTBYTES);
	return 0;
}

int exkex_tag_differs(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= (unsigned)(a[i] ^ b[i]);
	return (int)((d + 0xffu) >> 8); /* d is 0..255 */
}

int exkex_finish_a(const unsigned char *ska, const unsigned char *m2, unsigned char *sta,
		   int *bad_tag)
{
	unsigned char share_b[EXKEX_SHAREBYTES], key[EXKEX_HASHBYTES], tag[EXKEX_TAGBYTES];

	*bad_tag = 0;
	decrypt(ska, m2, share_b);
	if (session_key(sta, share_b, sta + EXKEX_SHAREBYTES, m2, key))
		return -2;
	if (EXKEX_PASSES == 3) {
		if (exkex_tag('B', key, tag))
			return -2;
		*bad_tag = exkex_tag_differs(tag, m2 + EXKEX_CTBYTES, EXKEX_TAGBYTES);
	}
	memcpy(sta, key, EXKEX_HASHBYTES);
	return 0;
}
