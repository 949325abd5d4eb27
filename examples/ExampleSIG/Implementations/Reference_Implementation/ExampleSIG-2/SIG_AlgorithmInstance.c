/*
 * SIG_AlgorithmInstance.c — ICCS signature interface on top of src/exsig.c.
 *
 * Return values: 0 success; verify -1 for an invalid signature; -2 an ICCS
 * primitive failed (memory); -3 a length argument does not match this
 * instance.  sig_get_sn_len_bytes() is the longest signature; most are
 * shorter (a repeated index is revealed once).
 *
 * Test switches (never set in this package; see the ngcc-perf sources,
 * tests/fixtures/schemes/README.md) make it deliberately wrong for the
 * tool's own tests:
 *   EXSIG_HOSTILE_ACCEPT_ALL         verify accepts every signature
 *   EXSIG_HOSTILE_SIGN_FAILS_ONE_IN N sign returns -7 when the first byte of
 *                                    its randomizer is a multiple of N
 *   EXSIG_HOSTILE_LONG_SIGNATURE     sign writes and reports 16 bytes more
 *                                    than the getter's maximum
 */
#include <string.h>

#include "SIG_AlgorithmInstance.h"
#include "src/exsig.h"

unsigned long long sig_get_pk_len_bytes()
{
	return EXSIG_PKBYTES;
}

unsigned long long sig_get_sk_len_bytes()
{
	return EXSIG_SKBYTES;
}

unsigned long long sig_get_sn_len_bytes()
{
	return EXSIG_MAXSIGBYTES;
}

int sig_keygen(unsigned char *pk, unsigned long long *pk_len_bytes,
	       unsigned char *sk, unsigned long long *sk_len_bytes)
{
	int rc = exsig_keypair(pk, sk);

	if (rc)
		return rc;
	*pk_len_bytes = EXSIG_PKBYTES;
	*sk_len_bytes = EXSIG_SKBYTES;
	return 0;
}

int sig_sign(unsigned char *sk, unsigned long long sk_len_bytes,
	     unsigned char *m, unsigned long long m_len_bytes,
	     unsigned char *sn, unsigned long long *sn_len_bytes)
{
	int rc;

	if (sk_len_bytes != EXSIG_SKBYTES)
		return -3;
	rc = exsig_sign(sn, sn_len_bytes, m, m_len_bytes, sk);
#if defined(EXSIG_HOSTILE_SIGN_FAILS_ONE_IN)
	if (!rc && sn[0] % (EXSIG_HOSTILE_SIGN_FAILS_ONE_IN) == 0)
		return -7;
#endif
#if defined(EXSIG_HOSTILE_LONG_SIGNATURE)
	if (!rc) {
		memset(sn + *sn_len_bytes, 0x5A, (size_t)(EXSIG_MAXSIGBYTES + 16 - *sn_len_bytes));
		*sn_len_bytes = EXSIG_MAXSIGBYTES + 16;
	}
#endif
	return rc;
}

int sig_verify(unsigned char *pk, unsigned long long pk_len_bytes,
	       unsigned char *sn, unsigned long long sn_len_bytes,
	       unsigned char *m, unsigned long long m_len_bytes)
{
#if defined(EXSIG_HOSTILE_ACCEPT_ALL)
	(void)pk;
	(void)pk_len_bytes;
	(void)sn;
	(void)sn_len_bytes;
	(void)m;
	(void)m_len_bytes;
	return 0;
#else
	if (pk_len_bytes != EXSIG_PKBYTES)
		return -3;
	return exsig_verify(sn, sn_len_bytes, m, m_len_bytes, pk);
#endif
}
