/*
 * SIG_AlgorithmInstance.h — ICCS signature interface of ExampleSIG-1.
 */
#ifndef SIG_ALGORITHMINSTANCE_H
#define SIG_ALGORITHMINSTANCE_H

#define OUTPUT_BLANK_TEST_VECTORS 0
#define ALGORITHM_INSTANCE "EXAMPLESIG_1"
#define EXSIG_SET 1 /* parameter set, see src/exsig.h */

#ifdef __cplusplus
extern "C" {
#endif

unsigned long long sig_get_pk_len_bytes();
unsigned long long sig_get_sk_len_bytes();
unsigned long long sig_get_sn_len_bytes();

int sig_keygen(unsigned char *pk, unsigned long long *pk_len_bytes,
	       unsigned char *sk, unsigned long long *sk_len_bytes);
int sig_sign(unsigned char *sk, unsigned long long sk_len_bytes,
	     unsigned char *m, unsigned long long m_len_bytes,
	     unsigned char *sn, unsigned long long *sn_len_bytes);
int sig_verify(unsigned char *pk, unsigned long long pk_len_bytes,
	       unsigned char *sn, unsigned long long sn_len_bytes,
	       unsigned char *m, unsigned long long m_len_bytes);

#ifdef __cplusplus
}
#endif

#endif
