/*
 * exhash.h — ExampleHash, a sponge over a 1024-bit ARX permutation.
 */
#ifndef EXHASH_H
#define EXHASH_H

/* Digest widths this implementation supports. */
#define EXHASH_MIN_DIGEST_BITS 256
#define EXHASH_MAX_DIGEST_BITS 512

/*
 * digest = ExampleHash-<digest_bits>(the first msg_bits bits of msg, MSB
 * first).  digest_bits is 256 or 512; returns 0, or -4 for another width.
 */
int exhash_digest(int digest_bits, const unsigned char *msg,
		  unsigned long long msg_bits, unsigned char *digest);

#endif
