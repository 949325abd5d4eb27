/*
 * symmetric.c — hashing and randomness through the ICCS interfaces.
 */
#include <string.h>

#include "auxfunc.h"
#include "drng.h"
#include "symmetric.h"

/* Defined by the KAT driver (or the test harness), never here. */
extern DRNG_ctx drng_algorithm;

/* Longest input after the tag: z || ct, or a public key. */
#define EXKEM_MAXIN \
	(EXKEM_SYMBYTES + (EXKEM_PKBYTES > EXKEM_CTBYTES ? EXKEM_PKBYTES : EXKEM_CTBYTES))

/* buf = tag || in1 || in2; returns the total length, 0 if it does not fit. */
static size_t tagged(uint8_t buf[1 + EXKEM_MAXIN], uint8_t tag,
		     const uint8_t *in1, size_t len1,
		     const uint8_t *in2, size_t len2)
{
	if (len1 > EXKEM_MAXIN || len2 > EXKEM_MAXIN - len1)
		return 0;
	buf[0] = tag;
	if (len1)
		memcpy(buf + 1, in1, len1);
	if (len2)
		memcpy(buf + 1 + len1, in2, len2);
	return 1 + len1 + len2;
}

int exkem_xof(uint8_t *out, size_t outlen, uint8_t tag, const uint8_t *in1,
	      size_t len1, const uint8_t *in2, size_t len2)
{
	uint8_t buf[1 + EXKEM_MAXIN];
	size_t n = tagged(buf, tag, in1, len1, in2, len2);

	if (!n)
		return -2;
	if (pseudoXOF(8ULL * outlen, buf, 8ULL * n, out))
		return -2;
	return 0;
}

int exkem_hash(uint8_t out[EXKEM_SYMBYTES], uint8_t tag, const uint8_t *in,
	       size_t len)
{
	uint8_t buf[1 + EXKEM_MAXIN];
	size_t n = tagged(buf, tag, in, len, NULL, 0);

	if (!n)
		return -2;
	if (sm3hash(256, buf, 8ULL * n, out))
		return -2;
	return 0;
}

int exkem_randombytes(uint8_t *out, size_t n)
{
	if (get_random_number(&drng_algorithm, out, 8ULL * n))
		return -2;
	return 0;
}
