/*
 * CryptHash_AlgorithmInstance.c — ICCS CryptHash interface on top of
 * src/exhash.c.  Returns 0, or -4 for a digest width other than 256 or
 * 512 bits.
 *
 * Test switches (never set in this package; see the ngcc-perf sources,
 * tests/fixtures/schemes/README.md) turn it into a deliberately broken
 * hash for the tool's own tests:
 *   EXHASH_HOSTILE_DROP_PARTIAL_BYTE  hash only the whole bytes (the bits
 *                                     of a partial last byte are ignored)
 *   EXHASH_HOSTILE_CRASH_FROM_BYTES N segfault on messages of N bytes or more
 *   EXHASH_HOSTILE_SPINS N            busy-loop N iterations in every call
 *   EXHASH_HOSTILE_SPIN_BITS B        with EXHASH_HOSTILE_SPINS: only in
 *                                     calls on B-bit messages (8192: only
 *                                     KAT_Loop's)
 */
#include "CryptHash_AlgorithmInstance.h"
#include "src/exhash.h"

#if defined(EXHASH_HOSTILE_CRASH_FROM_BYTES)
#include <signal.h>
#endif

int CryptHash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest)
{
#if defined(EXHASH_HOSTILE_DROP_PARTIAL_BYTE)
	msg_len_bits -= msg_len_bits % 8;
#endif
#if defined(EXHASH_HOSTILE_CRASH_FROM_BYTES)
	if (msg_len_bits / 8 >= (unsigned long long)(EXHASH_HOSTILE_CRASH_FROM_BYTES))
		raise(SIGSEGV);
#endif
#if defined(EXHASH_HOSTILE_SPINS)
#if defined(EXHASH_HOSTILE_SPIN_BITS)
	if (msg_len_bits == (unsigned long long)(EXHASH_HOSTILE_SPIN_BITS))
#endif
	{
		volatile unsigned long spin;
		for (spin = 0; spin < (unsigned long)(EXHASH_HOSTILE_SPINS); spin++)
			;
	}
#endif
	return exhash_digest(digest_len_bits, msg, msg_len_bits, digest);
}
