/*
 * KEX_AlgorithmInstance.c — ICCS key-exchange interface on top of
 * src/exkex.c.
 *
 *   init_a / init_b   long-term key pairs; the states start empty (length 0)
 *   pass 1 (A)        m1 = Enc(pkb, share_a); sta = share_a || H(m1)
 *   pass 2 (B)        m2 = Enc(pka, share_b) [|| B's tag]; stb = session key
 *                     returns 1 in the 2-pass instance
 *   pass 3 (A)        3-pass only: checks B's tag, m3 = A's tag; returns 1
 *   derive_a / _b     the shared secret; in the 3-pass instance B checks m3
 *
 * Return values: 0 (pass: not finished), 1 (pass: finished), -1 a message
 * or tag is wrong, -2 an ICCS primitive failed (memory), -3 a length does
 * not match this instance, -4 the call is not part of this instance.
 *
 * Test switches (never set in this package; see the ngcc-perf sources,
 * tests/fixtures/schemes/README.md) make it deliberately wrong for the
 * tool's own tests:
 *   EXKEX_HOSTILE_DIFFERENT_SECRETS  B's shared secret has one bit flipped
 *   EXKEX_HOSTILE_NEVER_FINISHES     no pass returns 1, and a pass 4 that
 *                                    echoes its input exists
 *   EXKEX_HOSTILE_CRASH_IN_PASS2     pass 2 raises SIGSEGV
 *   EXKEX_HOSTILE_SECRET_BRANCH      derive_b hashes once more when a bit
 *                                    of the session key is set (a branch on
 *                                    a secret)
 */
#include <string.h>

#include "KEX_AlgorithmInstance.h"
#include "src/exkex.h"

#if defined(EXKEX_HOSTILE_CRASH_IN_PASS2)
#include <signal.h>
#endif

#if defined(EXKEX_HOSTILE_NEVER_FINISHES)
#define FINISHED 0
#else
#define FINISHED 1
#endif

unsigned long long kex_get_passes_num()
{
	return EXKEX_PASSES;
}

unsigned long long kex_get_pk_len_bytes()
{
	return EXKEX_PKBYTES;
}

unsigned long long kex_get_sk_len_bytes()
{
	return EXKEX_SKBYTES;
}

unsigned long long kex_get_sta_len_bytes()
{
	return EXKEX_STABYTES;
}

unsigned long long kex_get_stb_len_bytes()
{
	return EXKEX_STBBYTES;
}

unsigned long long kex_get_ss_len_bytes()
{
	return EXKEX_SSBYTES;
}

unsigned long long kex_get_total_msg_len_bytes()
{
	return EXKEX_MSGBYTES;
}

static int init(unsigned char *pk, unsigned long long *pk_len, unsigned char *sk,
		unsigned long long *sk_len, unsigned long long *st_len)
{
	int rc = exkex_keypair(pk, sk);

	if (rc)
		return rc;
	*pk_len = EXKEX_PKBYTES;
	*sk_len = EXKEX_SKBYTES;
	*st_len = 0;
	return 0;
}

int kex_init_a(unsigned char *pka, unsigned long long *pka_len_bytes,
	       unsigned char *ska, unsigned long long *ska_len_bytes,
	       unsigned char *sta, unsigned long long *sta_len_bytes)
{
	(void)sta;
	return init(pka, pka_len_bytes, ska, ska_len_bytes, sta_len_bytes);
}

int kex_init_b(unsigned char *pkb, unsigned long long *pkb_len_bytes,
	       unsigned char *skb, unsigned long long *skb_len_bytes,
	       unsigned char *stb, unsigned long long *stb_len_bytes)
{
	(void)stb;
	return init(pkb, pkb_len_bytes, skb, skb_len_bytes, stb_len_bytes);
}

int kex_generate_pass1_msg_a(unsigned char *ska, unsigned long long ska_len_bytes,
			     unsigned char *pkb, unsigned long long pkb_len_bytes,
			     unsigned char *sta, unsigned long long *sta_len_bytes,
			     unsigned char *m1, unsigned long long *m1_len_bytes)
{
	int rc;

	(void)ska;
	if (ska_len_bytes != EXKEX_SKBYTES || pkb_len_bytes != EXKEX_PKBYTES)
		return -3;
	rc = exkex_start(pkb, sta, m1);
	if (rc)
		return rc;
	*sta_len_bytes = EXKEX_STABYTES;
	*m1_len_bytes = EXKEX_CTBYTES;
	return 0;
}

int kex_generate_pass2_msg_b(unsigned char *skb, unsigned long long skb_len_bytes,
			     unsigned char *pka, unsigned long long pka_len_bytes,
			     unsigned char *m1, unsigned long long m1_len_bytes,
			     unsigned char *stb, unsigned long long *stb_len_bytes,
			     unsigned char *m2, unsigned long long *m2_len_bytes)
{
	int rc;

#if defined(EXKEX_HOSTILE_CRASH_IN_PASS2)
	raise(SIGSEGV);
#endif
	if (skb_len_bytes != EXKEX_SKBYTES || pka_len_bytes != EXKEX_PKBYTES ||
	    m1_len_bytes != EXKEX_CTBYTES)
		return -3;
	rc = exkex_respond(skb, pka, m1, stb, m2);
	if (rc)
		return rc;
	*stb_len_bytes = EXKEX_STBBYTES;
	*m2_len_bytes = EXKEX_PASSES == 3 ? EXKEX_CTBYTES + EXKEX_TAGBYTES : EXKEX_CTBYTES;
	return EXKEX_PASSES == 2 ? FINISHED : 0;
}

int kex_generate_pass3_msg_a(unsigned char *ska, unsigned long long ska_len_bytes,
			     unsigned char *pkb, unsigned long long pkb_len_bytes,
			     unsigned char *m2, unsigned long long m2_len_bytes,
			     unsigned char *sta, unsigned long long *sta_len_bytes,
			     unsigned char *m3, unsigned long long *m3_len_bytes)
{
	int rc, bad_tag;

	(void)pkb;
	if (EXKEX_PASSES != 3)
		return -4;
	if (ska_len_bytes != EXKEX_SKBYTES || pkb_len_bytes != EXKEX_PKBYTES ||
	    m2_len_bytes != EXKEX_CTBYTES + EXKEX_TAGBYTES || *sta_len_bytes != EXKEX_STABYTES)
		return -3;
	rc = exkex_finish_a(ska, m2, sta, &bad_tag);
	if (rc)
		return rc;
	rc = exkex_tag('A', sta, m3);
	if (rc)
		return rc;
	*sta_len_bytes = EXKEX_HASHBYTES;
	*m3_len_bytes = EXKEX_TAGBYTES;
	/* FINISHED, or -1 when B's tag was wrong: arithmetic, not a branch
	 * on the secret comparison. */
	return FINISHED - bad_tag * (FINISHED + 1);
}

#if defined(EXKEX_HOSTILE_NEVER_FINISHES)
/* Found by name by harnesses that go past pass 3: echoes m3, never ends. */
int kex_generate_pass4_msg_b(unsigned char *skb, unsigned long long skb_len_bytes,
			     unsigned char *pka, unsigned long long pka_len_bytes,
			     unsigned char *m3, unsigned long long m3_len_bytes,
			     unsigned char *stb, unsigned long long *stb_len_bytes,
			     unsigned char *m4, unsigned long long *m4_len_bytes)
{
	(void)skb; (void)skb_len_bytes; (void)pka; (void)pka_len_bytes;
	(void)stb; (void)stb_len_bytes;
	memcpy(m4, m3, (size_t)m3_len_bytes);
	*m4_len_bytes = m3_len_bytes;
	return 0;
}
#endif

int kex_derive_ss_a(unsigned char *ska, unsigned long long ska_len_bytes,
		    unsigned char *pkb, unsigned long long pkb_len_bytes,
		    unsigned char *mb, unsigned long long mb_len_bytes,
		    unsigned char *sta, unsigned long long sta_len_bytes,
		    unsigned char *ssa, unsigned long long *ssa_len_bytes)
{
	int rc, bad_tag;

	(void)pkb;
	if (ska_len_bytes != EXKEX_SKBYTES || pkb_len_bytes != EXKEX_PKBYTES || !mb)
		return -3;
	if (EXKEX_PASSES == 2) {
		/* A learns B's share from m2 only now (no tag: bad_tag stays 0). */
		if (mb_len_bytes != EXKEX_CTBYTES || sta_len_bytes != EXKEX_STABYTES)
			return -3;
		rc = exkex_finish_a(ska, mb, sta, &bad_tag);
		if (rc)
			return rc;
	} else if (sta_len_bytes != EXKEX_HASHBYTES) {
		return -3;
	}
	rc = exkex_secret(sta, ssa);
	if (rc)
		return rc;
	*ssa_len_bytes = EXKEX_SSBYTES;
	return 0;
}

int kex_derive_ss_b(unsigned char *skb, unsigned long long skb_len_bytes,
		    unsigned char *pka, unsigned long long pka_len_bytes,
		    unsigned char *ma, unsigned long long ma_len_bytes,
		    unsigned char *stb, unsigned long long stb_len_bytes,
		    unsigned char *ssb, unsigned long long *ssb_len_bytes)
{
	unsigned char tag[EXKEX_TAGBYTES];
	int rc, bad_tag = 0;

	(void)skb;
	(void)pka;
	if (skb_len_bytes != EXKEX_SKBYTES || pka_len_bytes != EXKEX_PKBYTES ||
	    stb_len_bytes != EXKEX_STBBYTES || !ma)
		return -3;
	if (EXKEX_PASSES == 3) {
		/* Key confirmation: m3 must be A's tag on the session key. */
		if (ma_len_bytes != EXKEX_TAGBYTES)
			return -3;
		rc = exkex_tag('A', stb, tag);
		if (rc)
			return rc;
		bad_tag = exkex_tag_differs(tag, ma, EXKEX_TAGBYTES);
	}
	rc = exkex_secret(stb, ssb);
	if (rc)
		return rc;
#if defined(EXKEX_HOSTILE_SECRET_BRANCH)
	/* FLAW: extra work when the session key's first bit is set */
	if (stb[0] & 1) {
		rc = exkex_secret(stb, ssb);
		if (rc)
			return rc;
	}
#endif
#if defined(EXKEX_HOSTILE_DIFFERENT_SECRETS)
	ssb[EXKEX_SSBYTES - 1] ^= 0x01;
#endif
	*ssb_len_bytes = EXKEX_SSBYTES;
	/* -1 when A's tag was wrong (its secret is written, but the exchange
	 * failed): no branch on the secret comparison. */
	return -bad_tag;
}
