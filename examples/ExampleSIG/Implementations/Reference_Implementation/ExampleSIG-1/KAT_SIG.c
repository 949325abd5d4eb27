/*
 * KAT_SIG.c — a small stand-alone KAT writer for this instance, in the
 * spirit of the ICCS driver (not a copy of it): drng_seed ("seed" x 16)
 * gives each record's seed, drng_msg ("msg" x 21 || "m") its 56 + 8i-byte
 * message, drawn before the seed is used; keygen, sign and verify follow.
 * Output: output/KAT_SIG_<ALGORITHM_INSTANCE>.txt.
 *
 * Build with the ICCS drng.c and auxfunc.c (see the Makefile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "SIG_AlgorithmInstance.h"
#include "drng.h"

DRNG_ctx drng_algorithm;

static void put_hex(FILE *f, const char *name, const unsigned char *p,
		    unsigned long long n)
{
	unsigned long long i;

	fprintf(f, "%s = ", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%02X", p[i]);
	fprintf(f, "\n");
}

static void nonce(unsigned char out[64], const char *pattern)
{
	size_t n = strlen(pattern), i;

	for (i = 0; i < 64; i++)
		out[i] = (unsigned char)pattern[i % n];
}

int main(void)
{
	unsigned long long pk_len = sig_get_pk_len_bytes();
	unsigned long long sk_len = sig_get_sk_len_bytes();
	unsigned long long sn_len = sig_get_sn_len_bytes();
	unsigned char *pk = calloc(pk_len, 1), *sk = calloc(sk_len, 1);
	unsigned char *sn = calloc(sn_len, 1), m[128] = { 0 };
	unsigned char n64[64], seed[64];
	DRNG_ctx drng_seed, drng_msg;
	char path[128];
	FILE *f;
	int i, m_len;

	if (!pk || !sk || !sn)
		return -4;
	mkdir("output", 0755);
	snprintf(path, sizeof(path), "output/KAT_SIG_%s.txt", ALGORITHM_INSTANCE);
	f = fopen(path, "wb");
	if (!f)
		return -2;
	nonce(n64, "seed");
	init_random_number(&drng_seed, n64, 64);
	nonce(n64, "msg");
	init_random_number(&drng_msg, n64, 64);
	for (i = 0; i < 10; i++) {
		m_len = 56 + 8 * i;
		fprintf(f, "Count = %d\n", i);
		get_random_number(&drng_seed, seed, 512);
		get_random_number(&drng_msg, m, 8ULL * m_len);
		fprintf(f, "Seed_Len = %d\n", 64);
		put_hex(f, "Seed", seed, 64);
		init_random_number(&drng_algorithm, seed, 64);
		if (sig_keygen(pk, &pk_len, sk, &sk_len))
			return -3;
		fprintf(f, "PK_Len = %llu\n", pk_len);
		put_hex(f, "PK", pk, pk_len);
		fprintf(f, "SK_Len = %llu\n", sk_len);
		put_hex(f, "SK", sk, sk_len);
		fprintf(f, "M_Len = %d\n", m_len);
		put_hex(f, "M", m, (unsigned long long)m_len);
		if (sig_sign(sk, sk_len, m, (unsigned long long)m_len, sn, &sn_len))
			return -3;
		fprintf(f, "Sn_Len = %llu\n", sn_len);
		put_hex(f, "Sn", sn, sn_len);
		if (sig_verify(pk, pk_len, sn, sn_len, m, (unsigned long long)m_len))
			return -3;
		fprintf(f, "\n");
	}
	fclose(f);
	printf("Files have been saved in the 'output' folder within the working directory.\n");
	return 0;
}
