/*
 * exsig.c — ExampleSIG (see exsig.h).  Every hash is an ICCS auxiliary
 * function with a one-byte domain tag; all randomness comes from the ICCS
 * DRNG drng_algorithm.
 *
 *   secret_i = pseudoXOF(8N bits, 01 || seed || i as 2 bytes)
 *   pk_i     = first N bytes of sm3hash(02 || secret_i)
 *   indices  = K numbers of LOGT bits from pseudoXOF(03 || R || M),
 *              R = 32 fresh DRNG bytes per signature
 */
#include <stdlib.h>
#include <string.h>

#include "auxfunc.h"
#include "drng.h"
#include "exsig.h"

/* Defined by the KAT driver (or the harness), never here. */
extern DRNG_ctx drng_algorithm;

enum { TAG_SECRET = 0x01, TAG_LEAF = 0x02, TAG_INDEX = 0x03 };

static int secret_value(const unsigned char *seed, unsigned i, unsigned char out[EXSIG_N])
{
	unsigned char in[1 + EXSIG_SEEDBYTES + 2];

	in[0] = TAG_SECRET;
	memcpy(in + 1, seed, EXSIG_SEEDBYTES);
	in[1 + EXSIG_SEEDBYTES] = (unsigned char)(i >> 8);
	in[2 + EXSIG_SEEDBYTES] = (unsigned char)i;
	return pseudoXOF(8ULL * EXSIG_N, in, 8ULL * sizeof(in), out) ? -2 : 0;
}

static int leaf(const unsigned char secret[EXSIG_N], unsigned char out[EXSIG_N])
{
	unsigned char in[1 + EXSIG_N], digest[32];

	in[0] = TAG_LEAF;
	memcpy(in + 1, secret, EXSIG_N);
	if (sm3hash(256, in, 8ULL * sizeof(in), digest))
		return -2;
	memcpy(out, digest, EXSIG_N);
	return 0;
}

/* The K indices the message selects under randomizer R. */
static int indices(const unsigned char r[EXSIG_RBYTES], const unsigned char *m,
		   unsigned long long m_len, unsigned idx[EXSIG_K])
{
	unsigned char bits[(EXSIG_K * EXSIG_LOGT + 7) / 8];
	unsigned char *in = malloc(1 + EXSIG_RBYTES + (size_t)m_len);
	unsigned long long pos;
	int i, b;

	if (!in)
		return -2;
	in[0] = TAG_INDEX;
	memcpy(in + 1, r, EXSIG_RBYTES);
	if (m_len)
		memcpy(in + 1 + EXSIG_RBYTES, m, (size_t)m_len);
	if (pseudoXOF(8ULL * sizeof(bits), in, 8 * (1 + EXSIG_RBYTES + m_len), bits)) {
		free(in);
		return -2;
	}
	free(in);
	for (i = 0, pos = 0; i < EXSIG_K; i++) {
		idx[i] = 0;
		for (b = 0; b < EXSIG_LOGT; b++, pos++)
			idx[i] = idx[i] << 1 | ((bits[pos / 8] >> (7 - pos % 8)) & 1);
	}
	return 0;
}

/* All ones when a == b, else 0, without a branch. */
static unsigned eq_mask(unsigned a, unsigned b)
{
	unsigned x = a ^ b;

	return ((x | (0u - x)) >> (sizeof(x) * 8 - 1)) - 1u;
}

/* All ones if idx[i] already appears among idx[0..i-1], else 0.  No branch
 * on the indices: they come from the DRNG (R), and a constant-time check
 * that treats every DRNG output as secret would report one. */
static unsigned seen_mask(const unsigned idx[EXSIG_K], int i)
{
	unsigned seen = 0;
	int j;

	for (j = 0; j < i; j++)
		seen |= eq_mask(idx[j], idx[i]);
	return seen;
}

/* 1 if idx[i] already appears among idx[0..i-1] (verify: public data). */
static int seen_before(const unsigned idx[EXSIG_K], int i)
{
	return seen_mask(idx, i) != 0;
}

/* Write value into slot `slot` of out (K slots of N bytes) when keep is all
 * ones; every slot is rewritten, so the address does not depend on slot. */
static void put_slot(unsigned char *out, unsigned slot, unsigned keep,
		     const unsigned char value[EXSIG_N])
{
	unsigned p;
	int b;

	for (p = 0; p < EXSIG_K; p++) {
		unsigned char m = (unsigned char)(eq_mask(p, slot) & keep);
		for (b = 0; b < EXSIG_N; b++)
			out[p * EXSIG_N + b] = (unsigned char)((out[p * EXSIG_N + b] & ~m) |
								(value[b] & m));
	}
}

int exsig_keypair(unsigned char *pk, unsigned char *sk)
{
	unsigned char secret[EXSIG_N];
	unsigned i;

	if (get_random_number(&drng_algorithm, sk, 8 * EXSIG_SEEDBYTES))
		return -2;
	for (i = 0; i < EXSIG_T; i++)
		if (secret_value(sk, i, secret) || leaf(secret, pk + i * EXSIG_N))
			return -2;
	return 0;
}

int exsig_sign(unsigned char *sig, unsigned long long *sig_len,
	       const unsigned char *m, unsigned long long m_len,
	       const unsigned char *sk)
{
	unsigned idx[EXSIG_K], count = 0;
	unsigned char value[EXSIG_N];
	int i;

	if (get_random_number(&drng_algorithm, sig, 8 * EXSIG_RBYTES) ||
	    indices(sig, m, m_len, idx))
		return -2;
	/* The secret of every distinct index, in order: each index's secret
	 * is computed, and kept in the next slot when it is new. */
	for (i = 0; i < EXSIG_K; i++) {
		unsigned fresh = ~seen_mask(idx, i);

		if (secret_value(sk, idx[i], value))
			return -2;
		put_slot(sig + EXSIG_RBYTES, count, fresh, value);
		count += fresh & 1u;
	}
	*sig_len = EXSIG_RBYTES + (unsigned long long)count * EXSIG_N;
	return 0;
}

int exsig_verify(const unsigned char *sig, unsigned long long sig_len,
		 const unsigned char *m, unsigned long long m_len,
		 const unsigned char *pk)
{
	unsigned idx[EXSIG_K];
	unsigned char hashed[EXSIG_N];
	const unsigned char *next = sig + EXSIG_RBYTES;
	int i, rc;

	if (sig_len < EXSIG_RBYTES || sig_len > EXSIG_MAXSIGBYTES)
		return -1;
	rc = indices(sig, m, m_len, idx);
	if (rc)
		return rc;
	for (i = 0; i < EXSIG_K; i++) {
		if (seen_before(idx, i))
			continue;
		if (next + EXSIG_N > sig + sig_len)
			return -1; /* too short for the indices it must reveal */
		if (leaf(next, hashed))
			return -2;
		if (memcmp(hashed, pk + idx[i] * EXSIG_N, EXSIG_N))
			return -1;
		next += EXSIG_N;
	}
	return next == sig + sig_len ? 0 : -1;
}
