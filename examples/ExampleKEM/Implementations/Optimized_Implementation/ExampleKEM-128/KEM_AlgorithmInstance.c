/*
 * KEM_AlgorithmInstance.c — ICCS KEM interface on top of src/kem.c.
 *
 * Return values: 0 success; -2 an ICCS primitive failed (memory);
 * -3 a length argument does not match this instance.
 */
#include "KEM_AlgorithmInstance.h"
#include "src/kem.h"
#include "src/params.h"

unsigned long long kem_get_pk_len_bytes()
{
	return EXKEM_PKBYTES;
}

unsigned long long kem_get_sk_len_bytes()
{
	return EXKEM_SKBYTES;
}

unsigned long long kem_get_ss_len_bytes()
{
	return EXKEM_SSBYTES;
}

unsigned long long kem_get_ct_len_bytes()
{
	return EXKEM_CTBYTES;
}

int kem_keygen(unsigned char *pk, unsigned long long *pk_len_bytes,
	       unsigned char *sk, unsigned long long *sk_len_bytes)
{
	int rc = exkem_keypair(pk, sk);

	if (rc)
		return rc;
	*pk_len_bytes = EXKEM_PKBYTES;
	*sk_len_bytes = EXKEM_SKBYTES;
	return 0;
}

int kem_enc(unsigned char *pk, unsigned long long pk_len_bytes,
	    unsigned char *ss, unsigned long long *ss_len_bytes,
	    unsigned char *ct, unsigned long long *ct_len_bytes)
{
	int rc;

	if (pk_len_bytes != EXKEM_PKBYTES)
		return -3;
	rc = exkem_encaps(ct, ss, pk);
	if (rc)
		return rc;
	*ss_len_bytes = EXKEM_SSBYTES;
	*ct_len_bytes = EXKEM_CTBYTES;
	return 0;
}

int kem_dec(unsigned char *sk, unsigned long long sk_len_bytes,
	    unsigned char *ct, unsigned long long ct_len_bytes,
	    unsigned char *ss, unsigned long long *ss_len_bytes)
{
	int rc;

	if (sk_len_bytes != EXKEM_SKBYTES || ct_len_bytes != EXKEM_CTBYTES)
		return -3;
	rc = exkem_decaps(ss, ct, sk);
	if (rc)
		return rc;
	*ss_len_bytes = EXKEM_SSBYTES;
	return 0;
}
