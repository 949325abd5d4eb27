/*
 * iccs_baseline.c — the CryptHash of an ICCS baseline instance (docs/method.md
 * §10.7): one auxiliary function, our runtime's or a package's copy,
 * measured like a hash.  `ngcc-perf baseline` copies this file into the
 * generated candidate `iccs` and builds it once per function and width
 * with one of these defines:
 *
 *   NGCC_BASELINE_SM3HASH      sm3hash(digest_len_bits, ...)     (256)
 *   NGCC_BASELINE_PSEUDOHASH   pseudohash(digest_len_bits, ...)  (512, 768, 1024)
 *   NGCC_BASELINE_PSEUDOXOF    pseudoXOF(digest_len_bits, ...)   (any width)
 *
 * The digest length is the instance's DIGEST_BIT_LENGTH, which the timing
 * driver and the self-test pass as every hash's.
 */
#include "auxfunc.h"

int CryptHash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest);

int CryptHash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest)
{
#if defined(NGCC_BASELINE_SM3HASH)
	return sm3hash(digest_len_bits, msg, msg_len_bits, digest);
#elif defined(NGCC_BASELINE_PSEUDOHASH)
	return pseudohash(digest_len_bits, msg, msg_len_bits, digest);
#elif defined(NGCC_BASELINE_PSEUDOXOF)
	return pseudoXOF((unsigned long long)digest_len_bits, msg, msg_len_bits, digest);
#else
#error "define one of NGCC_BASELINE_SM3HASH, NGCC_BASELINE_PSEUDOHASH, NGCC_BASELINE_PSEUDOXOF"
#endif
}
