/*
 * exsig.h — ExampleSIG, a few-time hash-based signature (HORS-style: reveal
 * the secret values a message selects; repeated indices are revealed once,
 * so signatures vary in length).
 *
 * EXSIG_SET (1 or 2, set by the instance's SIG_AlgorithmInstance.h) picks
 * the parameters:  t = 2^LOGT secret values of N bytes, K indices per
 * message.
 */
#ifndef EXSIG_H
#define EXSIG_H

#include "../SIG_AlgorithmInstance.h" /* EXSIG_SET */

#if EXSIG_SET == 1
#define EXSIG_LOGT 8
#define EXSIG_K 32
#define EXSIG_N 16
#elif EXSIG_SET == 2
#define EXSIG_LOGT 10
#define EXSIG_K 24
#define EXSIG_N 24
#else
#error "EXSIG_SET must be 1 or 2"
#endif

#define EXSIG_T (1 << EXSIG_LOGT)
#define EXSIG_SEEDBYTES 32
#define EXSIG_RBYTES 32

/* pk = the t hashed secret values; sk = the seed they come from. */
#define EXSIG_PKBYTES (EXSIG_T * EXSIG_N)
#define EXSIG_SKBYTES EXSIG_SEEDBYTES
/* sig = R || the secret values of the distinct indices, in first-use order. */
#define EXSIG_MAXSIGBYTES (EXSIG_RBYTES + EXSIG_K * EXSIG_N)

/* All return 0, -1 (verify: invalid signature) or -2 (an ICCS primitive
 * failed). */
int exsig_keypair(unsigned char *pk, unsigned char *sk);
int exsig_sign(unsigned char *sig, unsigned long long *sig_len,
	       const unsigned char *m, unsigned long long m_len,
	       const unsigned char *sk);
int exsig_verify(const unsigned char *sig, unsigned long long sig_len,
		 const unsigned char *m, unsigned long long m_len,
		 const unsigned char *pk);

#endif
