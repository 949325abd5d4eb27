/*
 * katgen_sig.h — our replay of the official signature KAT driver
 * (KAT_SIG_<inst>.txt, docs/iccs.md §4.1 and §4.3), with the harness's
 * guard zones and length checks.  Same text, byte for byte.
 */
#ifndef NGCC_KATGEN_SIG_H
#define NGCC_KATGEN_SIG_H

#include "kat/katgen.h"

/* The longest message of a signature KAT: m_len = 56 + 8i bytes, i <= 9. */
#define KAT_SIG_MSG_BUFFER 128

struct sig_api {
	/* Getter claims; sn_bytes is the maximum signature length. */
	unsigned long long pk_bytes, sk_bytes, sn_bytes;
	int (*seed)(const unsigned char *seed, unsigned long long len);
	int (*keygen)(unsigned char *pk, unsigned long long *pk_len,
		      unsigned char *sk, unsigned long long *sk_len);
	int (*sign)(unsigned char *sk, unsigned long long sk_len,
		    unsigned char *m, unsigned long long m_len,
		    unsigned char *sn, unsigned long long *sn_len);
	int (*verify)(unsigned char *pk, unsigned long long pk_len,
		      unsigned char *sn, unsigned long long sn_len,
		      unsigned char *m, unsigned long long m_len);
};

/*
 * Generate records Count = 0 .. records-1 of KAT_SIG_<inst>.txt into text
 * (records outside 1..10: the official 10).  As in the official driver, the length
 * variables are set once from the getters and carried over between calls
 * and counts (a sign that reads its sn_len out-param sees what the previous
 * count's sign returned).  Returns KAT_PASS (text still to be compared),
 * KAT_CRYPTOFAIL (a call returned non-zero, including verify rejecting the
 * signature just made) or KAT_OVERFLOW (a guard zone overwritten, a
 * returned length above its getter); *detail (malloc'd, may be NULL) says
 * which Count, call and why.  The text up to the failure is kept.
 */
enum kat_status katgen_sig(const struct sig_api *api, int records,
			   struct strbuf *text, char **detail);

/* The message of record `count` (drng_msg, one m_len*8-bit draw per
 * count): writes m_len = 56 + 8*count bytes to m and returns m_len;
 * 0 for a count outside 0..9. */
int katgen_sig_message(int count, unsigned char m[KAT_SIG_MSG_BUFFER]);

#endif
