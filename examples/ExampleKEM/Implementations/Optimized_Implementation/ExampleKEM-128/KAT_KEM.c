/*
 * KAT_KEM.c — a small stand-alone KAT writer for this instance, in the
 * spirit of the ICCS driver: drng_seed is instantiated with "seed" x 16,
 * each record draws a 64-byte seed, reseeds drng_algorithm and runs
 * keygen, enc and dec.  Output: output/KAT_KEM_<ALGORITHM_INSTANCE>.txt.
 *
 * Build with the ICCS drng.c and auxfunc.c (see the Makefile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "KEM_AlgorithmInstance.h"
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

int main(void)
{
	unsigned long long pk_len = kem_get_pk_len_bytes();
	unsigned long long sk_len = kem_get_sk_len_bytes();
	unsigned long long ct_len = kem_get_ct_len_bytes();
	unsigned long long ss_len = kem_get_ss_len_bytes();
	unsigned char *pk = calloc(pk_len, 1), *sk = calloc(sk_len, 1);
	unsigned char *ct = calloc(ct_len, 1), *ss = calloc(ss_len, 1);
	unsigned char *ss2 = calloc(ss_len, 1);
	unsigned char nonce[64], seed[64];
	DRNG_ctx drng_seed;
	char path[128];
	FILE *f;
	int i;

	if (!pk || !sk || !ct || !ss || !ss2)
		return -4;
	mkdir("output", 0755);
	snprintf(path, sizeof(path), "output/KAT_KEM_%s.txt", ALGORITHM_INSTANCE);
	f = fopen(path, "wb");
	if (!f)
		return -2;
	for (i = 0; i < 64; i += 4)
		memcpy(nonce + i, "seed", 4);
	init_random_number(&drng_seed, nonce, 64);
	for (i = 0; i < 10; i++) {
		fprintf(f, "Count = %d\n", i);
		get_random_number(&drng_seed, seed, 512);
		fprintf(f, "Seed_Len = %d\n", 64);
		put_hex(f, "Seed", seed, 64);
		init_random_number(&drng_algorithm, seed, 64);
		if (kem_keygen(pk, &pk_len, sk, &sk_len))
			return -3;
		fprintf(f, "PK_Len = %llu\n", pk_len);
		put_hex(f, "PK", pk, pk_len);
		fprintf(f, "SK_Len = %llu\n", sk_len);
		put_hex(f, "SK", sk, sk_len);
		if (kem_enc(pk, pk_len, ss, &ss_len, ct, &ct_len))
			return -3;
		fprintf(f, "CT_Len = %llu\n", ct_len);
		put_hex(f, "CT", ct, ct_len);
		fprintf(f, "SS_Len = %llu\n", ss_len);
		put_hex(f, "SS", ss, ss_len);
		if (kem_dec(sk, sk_len, ct, ct_len, ss2, &ss_len))
			return -3;
		if (memcmp(ss, ss2, ss_len))
			return -5;
		fprintf(f, "\n");
	}
	fclose(f);
	printf("Files have been saved in the 'output' folder within the working directory.\n");
	return 0;
}
