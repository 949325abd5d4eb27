/*
 * hashmsg.h — the inputs hash functions get outside their KATs: the
 * timed message of hash_<L> (docs/method.md §5.2) and the self-test of the
 * ICCS baseline (docs/method.md §10.7), whose text the baseline library
 * writes in the KAT child and ngcc-perf computes independently with
 * OpenSSL.  Pure functions, no I/O.
 */
#ifndef NGCC_METHOD_HASHMSG_H
#define NGCC_METHOD_HASHMSG_H

#include <stddef.h>

#include "util/util.h"

/* The message of hash_<L>: byte[i] = (131 i + L) mod 256, i < L.  Inline:
 * the memory program links no ngcc library. */
static inline void hash_message(unsigned char *buf, size_t len_bytes)
{
	for (size_t i = 0; i < len_bytes; i++)
		buf[i] = (unsigned char)((131 * i + len_bytes) % 256);
}

/* Input k of an input pool (docs/method.md §14 R2): byte[i] =
 * (131 i + L + k) mod 256, the same length; k = 0 is hash_message. */
static inline void hash_message_indexed(unsigned char *buf, size_t len_bytes, unsigned k)
{
	for (size_t i = 0; i < len_bytes; i++)
		buf[i] = (unsigned char)((131 * i + len_bytes + k) % 256);
}

/* L of the operation key "hash_<L>" (message bytes); 0 for any other key. */
unsigned long long hash_op_bytes(const char *op);

/* The message byte lengths the baseline self-test hashes, ascending: every
 * length 0..HASH_SELFTEST_SHORT (the block and padding boundaries of SM3
 * and of pseudoXOF's counter), then the timed lengths beyond it and 1 MiB. */
#define HASH_SELFTEST_SHORT 200
extern const size_t hash_selftest_long[];
extern const size_t n_hash_selftest_long;
/* The i-th length of the whole list (0 <= i < hash_selftest_count()). */
size_t hash_selftest_count(void);
size_t hash_selftest_len(size_t i);
/* The largest length (the buffer a self-test needs). */
size_t hash_selftest_max(void);

/* One record of the self-test text, as in a hash KAT file without the
 * message itself (it follows from Msg_Len):
 *   Msg_Len = <bits>\nDst_Len = <digest bits>\nDst = <hex>\n\n */
void hash_selftest_record(struct strbuf *text, size_t len_bytes, int digest_bits,
			  const unsigned char *digest);

#endif
