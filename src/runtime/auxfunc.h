/*
 * auxfunc.h — the ICCS auxiliary hash functions (ngcc-perf clean-room
 * runtime, docs/iccs.md §3).
 *
 * Messages are bit strings, MSB-first: only the first msg_len_bits bits of
 * msg are read.  Return codes: 0 success, -2 malloc failure, -3 HMAC
 * failure, -4 unsupported digest length (errors are also printed to stderr).
 * pseudohash and pseudoXOF are only meant for correctness verification,
 * not as secure primitives.
 */
#ifndef AUXFUNC_H
#define AUXFUNC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Plain SM3 (GB/T 32905-2016); digest_len_bits must be 256. */
int sm3hash(int digest_len_bits, const unsigned char *msg,
	    unsigned long long msg_len_bits, unsigned char *digest);

/* HMAC-SM3 based hash; digest_len_bits must be 512, 768 or 1024. */
int pseudohash(int digest_len_bits, const unsigned char *msg,
	       unsigned long long msg_len_bits, unsigned char *digest);

/* SM2 KDF: SM3(msg || ct) for a 32-bit counter ct = 1, 2, ... */
int pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *output);

#ifdef __cplusplus
}
#endif

#endif
