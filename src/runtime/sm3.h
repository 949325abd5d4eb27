/*
 * sm3.h — portable-C, bit-level, streaming SM3 (GB/T 32905-2016) shared by
 * the clean-room drng.c and auxfunc.c (docs/iccs.md §3.5).
 *
 * Every external name starts with ngcc_rt_sm3_ because this file is compiled
 * into candidate libraries next to the candidates' own SM3 code.
 *
 * Input is a bit string, MSB-first.  Successive updates concatenate at bit
 * level: an update may start in the middle of a byte, and the unused low bits
 * of a partial last input byte are ignored.  The length field reproduces the
 * official code's quirk for messages of 2^32 bits or more (§3.5).
 */
#ifndef NGCC_RT_SM3_H
#define NGCC_RT_SM3_H

#include <stdint.h>

#define NGCC_RT_SM3_DIGEST_BYTES 32

struct ngcc_rt_sm3_ctx {
	uint32_t state[8];
	unsigned char block[64];     /* pending bits; bits past the fill are 0 */
	unsigned long long nbits;    /* bits absorbed so far */
};

void ngcc_rt_sm3_init(struct ngcc_rt_sm3_ctx *ctx);
/* Append the first nbits bits of data. */
void ngcc_rt_sm3_update(struct ngcc_rt_sm3_ctx *ctx, const unsigned char *data,
			unsigned long long nbits);
/* Pad, write the 32-byte digest; ctx must be re-initialised to reuse it. */
void ngcc_rt_sm3_final(struct ngcc_rt_sm3_ctx *ctx, unsigned char *digest);
/* One-shot digest of the first nbits bits of data. */
void ngcc_rt_sm3_digest(const unsigned char *data, unsigned long long nbits,
			unsigned char *digest);

#endif
