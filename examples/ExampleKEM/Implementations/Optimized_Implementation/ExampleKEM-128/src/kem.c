/*
 * kem.c — Fujisaki-Okamoto transform with implicit rejection.
 *
 *   keygen:  d, z random; (pk, s) = PKE.KeyGen(d); sk = s || pk || H(pk) || z
 *   encaps:  m random; (K, coins) = G(m || H(pk)); ct = PKE.Enc(pk, m, coins)
 *   decaps:  m' = PKE.Dec(s, ct); (K', coins') = G(m' || H(pk));
 *            K' if PKE.Enc(pk, m', coins') == ct, else J(z || ct)
 *
 * The final choice is made without branching on secret data.
 */
#include <string.h>

#include "indcpa.h"
#include "kem.h"
#include "symmetric.h"

#define SK_PK_OFFSET EXKEM_PKE_SKBYTES
#define SK_HPK_OFFSET (SK_PK_OFFSET + EXKEM_PKBYTES)
#define SK_Z_OFFSET (SK_HPK_OFFSET + EXKEM_SYMBYTES)

int exkem_keypair(uint8_t pk[EXKEM_PKBYTES], uint8_t sk[EXKEM_SKBYTES])
{
	uint8_t d[EXKEM_SYMBYTES];

	if (exkem_randombytes(d, sizeof(d)) ||
	    indcpa_keypair(pk, sk, d) ||
	    exkem_hash(sk + SK_HPK_OFFSET, EXKEM_TAG_H, pk, EXKEM_PKBYTES) ||
	    exkem_randombytes(sk + SK_Z_OFFSET, EXKEM_SYMBYTES))
		return -2;
	memcpy(sk + SK_PK_OFFSET, pk, EXKEM_PKBYTES);
	return 0;
}

/* (K, coins) = G(m || H(pk)) */
static int derive(uint8_t kc[2 * EXKEM_SYMBYTES], const uint8_t m[EXKEM_SYMBYTES],
		  const uint8_t hpk[EXKEM_SYMBYTES])
{
	return exkem_xof(kc, 2 * EXKEM_SYMBYTES, EXKEM_TAG_G, m, EXKEM_SYMBYTES,
			 hpk, EXKEM_SYMBYTES);
}

int exkem_encaps(uint8_t ct[EXKEM_CTBYTES], uint8_t ss[EXKEM_SSBYTES],
		 const uint8_t pk[EXKEM_PKBYTES])
{
	uint8_t m[EXKEM_SYMBYTES], hpk[EXKEM_SYMBYTES], kc[2 * EXKEM_SYMBYTES];

	if (exkem_randombytes(m, sizeof(m)) ||
	    exkem_hash(hpk, EXKEM_TAG_H, pk, EXKEM_PKBYTES) ||
	    derive(kc, m, hpk) ||
	    indcpa_enc(ct, pk, m, kc + EXKEM_SYMBYTES))
		return -2;
	memcpy(ss, kc, EXKEM_SSBYTES);
	return 0;
}

/* 0 if equal, 1 otherwise, in time independent of the contents. */
static unsigned differ(const uint8_t *a, const uint8_t *b, size_t n)
{
	unsigned acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= (unsigned)(a[i] ^ b[i]);
	return (acc + 0xFFu) >> 8; /* acc <= 0xFF */
}

/* r = take ? x : r, without a branch. */
static void cmov(uint8_t *r, const uint8_t *x, size_t n, unsigned take)
{
	uint8_t mask = (uint8_t)(0u - take);

	for (size_t i = 0; i < n; i++)
		r[i] ^= (uint8_t)(mask & (r[i] ^ x[i]));
}

int exkem_decaps(uint8_t ss[EXKEM_SSBYTES], const uint8_t ct[EXKEM_CTBYTES],
		 const uint8_t sk[EXKEM_SKBYTES])
{
	const uint8_t *pk = sk + SK_PK_OFFSET;
	uint8_t m[EXKEM_SYMBYTES], kc[2 * EXKEM_SYMBYTES];
	uint8_t reject[EXKEM_SSBYTES], ct2[EXKEM_CTBYTES];

	indcpa_dec(m, ct, sk);
	if (derive(kc, m, sk + SK_HPK_OFFSET) ||
	    indcpa_enc(ct2, pk, m, kc + EXKEM_SYMBYTES) ||
	    exkem_xof(reject, sizeof(reject), EXKEM_TAG_J, sk + SK_Z_OFFSET,
		      EXKEM_SYMBYTES, ct, EXKEM_CTBYTES))
		return -2;
	memcpy(ss, kc, EXKEM_SSBYTES);
	cmov(ss, reject, EXKEM_SSBYTES, differ(ct, ct2, EXKEM_CTBYTES));
	return 0;
}
