/*
 * seeds.h — the DRNG seeds of the measuring processes (docs/method.md §5.1
 * step 3, §14 R1 and R2): the fixed seed 00 01 … 2f, and the indexed seed
 * of trial or pool input k, 00 01 … 2e followed by 0x30 + k (so even index
 * 0, …2e30, differs from the fixed seed's …2e2f).  Inline, like hashmsg.h:
 * the child programs link no ngcc library.
 */
#ifndef NGCC_METHOD_SEEDS_H
#define NGCC_METHOD_SEEDS_H

#include <stddef.h>

#define SEED_BYTES 48
/* The largest index whose last byte 0x30 + k still fits in a byte. */
#define SEED_INDEX_MAX (0xff - 0x30)

/* out = 00 01 … 2e, 0x30 + k (k <= SEED_INDEX_MAX). */
static inline void seed_indexed(unsigned k, unsigned char out[SEED_BYTES])
{
	for (size_t i = 0; i + 1 < SEED_BYTES; i++)
		out[i] = (unsigned char)i;
	out[SEED_BYTES - 1] = (unsigned char)(0x30 + k);
}

/* The 96 lower-case hex digits of seed_indexed(k) into hex (97 bytes). */
static inline void seed_indexed_hex(unsigned k, char hex[2 * SEED_BYTES + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char s[SEED_BYTES];
	seed_indexed(k, s);
	for (size_t i = 0; i < SEED_BYTES; i++) {
		hex[2 * i] = digits[s[i] >> 4];
		hex[2 * i + 1] = digits[s[i] & 15];
	}
	hex[2 * SEED_BYTES] = 0;
}

#endif
