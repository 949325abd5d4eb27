/*
 * drng.h — the ICCS deterministic random number generator (ngcc-perf
 * clean-room runtime, docs/iccs.md §2).
 *
 * Hash_DRBG of NIST SP 800-90A with SM3 as the hash: seedlen 440 bits,
 * no reseed, no personalisation, no additional input.  The names and
 * declarations are those of the official API so candidate sources compile
 * against this header unchanged.  The global `drng_algorithm` is declared by
 * candidates themselves and defined by the KAT driver or our shim; this
 * header deliberately does not declare it.
 */
#ifndef DRNG_H
#define DRNG_H

#ifdef __cplusplus
extern "C" {
#endif

#define SEEDLEN (55)

/* Each member is a big-endian integer of SEEDLEN bytes. */
typedef struct {
	unsigned char V[SEEDLEN];
	unsigned char C[SEEDLEN];
	unsigned char reseed_counter[SEEDLEN];
} DRNG_ctx;

/* Instantiate drng from seed (any length).  0, or -2 on malloc failure. */
int init_random_number(DRNG_ctx *drng, const unsigned char *seed,
		       unsigned long long seed_len_bytes);

/*
 * Write random_number_len_bits bits to random_number (MSB-first; the unused
 * low bits of the last byte are cleared, bytes beyond it untouched) and
 * advance the state, even for a zero-bit request.  0, or -2.
 */
int get_random_number(DRNG_ctx *drng, unsigned char *random_number,
		      unsigned long long random_number_len_bits);

#ifdef __cplusplus
}
#endif

#endif
