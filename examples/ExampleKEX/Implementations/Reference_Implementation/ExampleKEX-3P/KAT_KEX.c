/*
 * KAT_KEX.c — a small stand-alone KAT writer for this instance, in the
 * spirit of the ICCS driver (not a copy of it): per record a seed from
 * drng_seed ("seed" x 16) reseeds drng_algorithm; init_a, init_b, the
 * passes until one returns 1, derive_a and derive_b follow.
 * Output: output/KAT_KEX_<ALGORITHM_INSTANCE>.txt.
 *
 * Build with the ICCS drng.c and auxfunc.c (see the Makefile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "KEX_AlgorithmInstance.h"
#include "drng.h"

DRNG_ctx drng_algorithm;

static void put(FILE *f, const char *name, const unsigned char *p, unsigned long long n)
{
	unsigned long long i;

	fprintf(f, "%s_Len = %llu\n%s = ", name, n, name);
	for (i = 0; i < n; i++)
		fprintf(f, "%02X", p[i]);
	fprintf(f, "\n");
}

int main(void)
{
	unsigned long long pk = kex_get_pk_len_bytes(), sk = kex_get_sk_len_bytes();
	unsigned long long msg = kex_get_total_msg_len_bytes();
	unsigned long long pka_len = pk, ska_len = sk, pkb_len = pk, skb_len = sk;
	unsigned long long sta_len = kex_get_sta_len_bytes(), stb_len = kex_get_stb_len_bytes();
	unsigned long long ssa_len = kex_get_ss_len_bytes(), ssb_len = ssa_len;
	unsigned long long m_len[4] = { 0, 0, 0, 0 }, ma_len = 0, mb_len = 0;
	unsigned char *pka = calloc(pk, 1), *ska = calloc(sk, 1), *pkb = calloc(pk, 1);
	unsigned char *skb = calloc(sk, 1), *sta = calloc(sta_len, 1), *stb = calloc(stb_len, 1);
	unsigned char *ssa = calloc(ssa_len, 1), *ssb = calloc(ssb_len, 1), *m[4], *ma = NULL, *mb = NULL;
	unsigned char nonce[64], seed[64];
	DRNG_ctx drng_seed;
	char path[128];
	FILE *f;
	int i, k, rc;

	for (k = 1; k <= 3; k++)
		m[k] = calloc(msg, 1);
	mkdir("output", 0755);
	snprintf(path, sizeof(path), "output/KAT_KEX_%s.txt", ALGORITHM_INSTANCE);
	f = fopen(path, "wb");
	if (!f)
		return -2;
	for (i = 0; i < 64; i += 4)
		memcpy(nonce + i, "seed", 4);
	init_random_number(&drng_seed, nonce, 64);
	for (i = 0; i < 10; i++) {
		fprintf(f, "Count = %d\n", i);
		get_random_number(&drng_seed, seed, 512);
		put(f, "Seed", seed, 64);
		init_random_number(&drng_algorithm, seed, 64);
		fprintf(f, "Pass_Num = %llu\n", kex_get_passes_num());
		if (kex_init_a(pka, &pka_len, ska, &ska_len, sta, &sta_len) < 0)
			return -3;
		put(f, "PKa", pka, pka_len);
		put(f, "SKa", ska, ska_len);
		put(f, "Init_Sta", sta, sta_len);
		if (kex_init_b(pkb, &pkb_len, skb, &skb_len, stb, &stb_len) < 0)
			return -3;
		put(f, "PKb", pkb, pkb_len);
		put(f, "SKb", skb, skb_len);
		put(f, "Init_Stb", stb, stb_len);
		rc = kex_generate_pass1_msg_a(ska, ska_len, pkb, pkb_len, sta, &sta_len, m[1], &m_len[1]);
		for (k = 1; rc >= 0; k++) {
			char name[16];

			snprintf(name, sizeof(name), "Pass%d_St%c", k, k % 2 ? 'a' : 'b');
			put(f, name, k % 2 ? sta : stb, k % 2 ? sta_len : stb_len);
			snprintf(name, sizeof(name), "M%d", k);
			put(f, name, m[k], m_len[k]);
			if (k % 2) {
				ma = m[k];
				ma_len = m_len[k];
			} else {
				mb = m[k];
				mb_len = m_len[k];
			}
			if (rc == 1 || k == 3)
				break;
			rc = k == 1 ? kex_generate_pass2_msg_b(skb, skb_len, pka, pka_len, m[1], m_len[1],
							       stb, &stb_len, m[2], &m_len[2])
				    : kex_generate_pass3_msg_a(ska, ska_len, pkb, pkb_len, m[2], m_len[2],
							       sta, &sta_len, m[3], &m_len[3]);
		}
		if (rc < 0)
			return -3;
		if (rc == 1 && (unsigned long long)k != kex_get_passes_num())
			return -5;
		if (kex_derive_ss_a(ska, ska_len, pkb, pkb_len, mb, mb_len, sta, sta_len, ssa, &ssa_len) < 0 ||
		    kex_derive_ss_b(skb, skb_len, pka, pka_len, ma, ma_len, stb, stb_len, ssb, &ssb_len) < 0)
			return -3;
		if (ssa_len != ssb_len || memcmp(ssa, ssb, ssa_len))
			return -6;
		put(f, "SS", ssa, ssa_len);
		fprintf(f, "\n");
	}
	fclose(f);
	printf("Files have been saved in the 'output' folder within the working directory.\n");
	return 0;
}
