/*
 * symmetric.h — every hash, XOF and random draw of the scheme.  They all go
 * through the ICCS auxiliary functions (pseudoXOF, sm3hash) and the ICCS
 * DRNG, with a one-byte domain tag in front of each input.
 */
#ifndef EXKEM_SYMMETRIC_H
#define EXKEM_SYMMETRIC_H

#include <stddef.h>
#include <stdint.h>
#include "params.h"

enum exkem_domain {
	EXKEM_TAG_MATRIX = 0x01, /* XOF(rho, i, j, 0) -> matrix entries */
	EXKEM_TAG_NOISE = 0x02,  /* PRF(seed, nonce) -> noise bits */
	EXKEM_TAG_G = 0x03,      /* G(m, H(pk)) -> (K, coins) */
	EXKEM_TAG_H = 0x04,      /* H(pk) */
	EXKEM_TAG_J = 0x05,      /* J(z, ct) -> rejection secret */
	EXKEM_TAG_SEEDS = 0x06,  /* (rho, sigma) from the key-generation seed */
};

#define exkem_xof EXKEM_NS(xof)
#define exkem_hash EXKEM_NS(hash)
#define exkem_randombytes EXKEM_NS(randombytes)

/* out = pseudoXOF(tag || in1 || in2), outlen bytes.  0 or -2. */
int exkem_xof(uint8_t *out, size_t outlen, uint8_t tag, const uint8_t *in1,
	      size_t len1, const uint8_t *in2, size_t len2);
/* out = sm3hash(tag || in), 32 bytes.  0 or -2. */
int exkem_hash(uint8_t out[EXKEM_SYMBYTES], uint8_t tag, const uint8_t *in,
	       size_t len);
/* n bytes from the ICCS DRNG drng_algorithm.  0 or -2. */
int exkem_randombytes(uint8_t *out, size_t n);

#endif
