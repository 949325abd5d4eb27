/*
 * katgen_kex.h — our replay of the official key-exchange KAT driver
 * (KAT_KEX_<inst>.txt, docs/iccs.md §4.1 and §4.4), extended past pass 3 by
 * the naming pattern, with the harness's guard zones and length checks.
 */
#ifndef NGCC_KATGEN_KEX_H
#define NGCC_KATGEN_KEX_H

#include "kat/katgen.h"

/* Highest pass number we resolve and call (kex_generate_pass16_msg_b). */
#define KAT_KEX_MAX_PASSES 16

/* Pass k >= 2: kex_generate_pass<k>_msg_b for even k (B answers A's
 * m<k-1>), kex_generate_pass<k>_msg_a for odd k (A answers B's). */
typedef int (*kex_pass_fn)(unsigned char *sk, unsigned long long sk_len,
			   unsigned char *pk, unsigned long long pk_len,
			   unsigned char *m_in, unsigned long long m_in_len,
			   unsigned char *st, unsigned long long *st_len,
			   unsigned char *m_out, unsigned long long *m_out_len);
typedef int (*kex_init_fn)(unsigned char *pk, unsigned long long *pk_len,
			   unsigned char *sk, unsigned long long *sk_len,
			   unsigned char *st, unsigned long long *st_len);
/* kex_derive_ss_a (peer message mb) and kex_derive_ss_b (ma). */
typedef int (*kex_derive_fn)(unsigned char *sk, unsigned long long sk_len,
			     unsigned char *pk, unsigned long long pk_len,
			     unsigned char *m, unsigned long long m_len,
			     unsigned char *st, unsigned long long st_len,
			     unsigned char *ss, unsigned long long *ss_len);

struct kex_api {
	/* Getter claims: kex_get_passes_num(), the long-term key lengths of
	 * either party, the maximum states of A and B, the shared secret, and
	 * total_msg_len, which sizes every message buffer. */
	unsigned long long passes;
	unsigned long long pk_bytes, sk_bytes, sta_bytes, stb_bytes, ss_bytes, msg_bytes;
	int (*seed)(const unsigned char *seed, unsigned long long len);
	kex_init_fn init_a, init_b;
	int (*pass1)(unsigned char *ska, unsigned long long ska_len,
		     unsigned char *pkb, unsigned long long pkb_len,
		     unsigned char *sta, unsigned long long *sta_len,
		     unsigned char *m1, unsigned long long *m1_len);
	/* pass[k] for k = 2 .. KAT_KEX_MAX_PASSES; NULL when not defined.
	 * pass[0] and pass[1] are unused. */
	kex_pass_fn pass[KAT_KEX_MAX_PASSES + 1];
	kex_derive_fn derive_a, derive_b;
};

/* The candidate's symbol for pass k >= 1 ("kex_generate_pass4_msg_b"). */
void katgen_kex_pass_symbol(int k, char out[40]);

/*
 * Generate records Count = 0 .. records-1 of KAT_KEX_<inst>.txt into text
 * (records < 1: the official 10).  As in the official driver, every length
 * variable is set once (getters; messages 0) and never reset, state lengths
 * are in/out through the passes, the error test is `rtn < 0`, a pass's
 * lines are printed before its return is inspected, and ma/mb are the last
 * messages of A and B.  Passes run from 1 until one returns 1; after a pass
 * returning 0 (or >= 2) the next is called when it is pass 2 or 3 (the
 * official driver always has them) or when it is defined.
 *
 * Returns KAT_PASS (text still to be compared), KAT_OVERFLOW (guard zone,
 * returned length above its getter) or KAT_CRYPTOFAIL: a negative return;
 * a pass returning 1 whose number is not kex_get_passes_num() (official
 * exit -5); no pass returning 1 when the last one called is not pass
 * kex_get_passes_num() (the official driver derives after pass 3 anyway;
 * that is accepted only when 3 is the announced count); a needed pass that
 * is not defined; shared secrets of different lengths or bytes (official
 * -6).  *detail (malloc'd, may be NULL) says which Count, call and why.
 */
enum kat_status katgen_kex(const struct kex_api *api, int records,
			   struct strbuf *text, char **detail);

#endif
