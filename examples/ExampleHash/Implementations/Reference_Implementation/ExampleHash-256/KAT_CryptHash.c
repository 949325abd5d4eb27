/*
 * KAT_CryptHash.c — a small stand-alone writer of the four hash KAT files
 * of this instance, in the spirit of the ICCS driver (not a copy of it):
 *   KAT_2_12  L = 0..4096 bits, one DRNG draw of L bits per record;
 *   KAT_2_23, KAT_2_33  three 2^23 / 2^33-bit messages (zeros, 0xFF,
 *             random), shown by their first and last 8 bytes;
 *   KAT_Loop  an 8192-bit m0, then 10^6 chained hashes.
 * Each file has its own DRNG, seeded with its 8-character tag x 8.
 * Output: output/<tag>_<ALGORITHM_INSTANCE>.txt.  Build with the ICCS
 * drng.c (see the Makefile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "CryptHash_AlgorithmInstance.h"
#include "drng.h"

static void put_hex(FILE *f, const char *name, const unsigned char *p, size_t n)
{
	size_t i;

	fprintf(f, "%s = ", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%02X", p[i]);
	fprintf(f, "\n");
}

static FILE *open_file(const char *tag, DRNG_ctx *drng)
{
	unsigned char seed[64];
	char path[160];
	int i;

	for (i = 0; i < 64; i++)
		seed[i] = (unsigned char)tag[i % 8];
	init_random_number(drng, seed, 64);
	snprintf(path, sizeof(path), "output/%s_%s.txt", tag, ALGORITHM_INSTANCE);
	return fopen(path, "wb");
}

static int put_digest(FILE *f, const unsigned char *msg, unsigned long long bits)
{
	unsigned char digest[(DIGEST_BIT_LENGTH + 7) / 8];

	if (CryptHash(DIGEST_BIT_LENGTH, msg, bits, digest))
		return -3;
	fprintf(f, "Dst_Len = %d\n", DIGEST_BIT_LENGTH);
	put_hex(f, "Dst", digest, DIGEST_BIT_LENGTH / 8);
	fprintf(f, "\n");
	return 0;
}

static int kat_2_12(void)
{
	unsigned char msg[512];
	unsigned long long bits;
	DRNG_ctx drng;
	FILE *f = open_file("KAT_2_12", &drng);

	if (!f)
		return -1;
	for (bits = 0; bits <= 4096; bits++) {
		memset(msg, 0, sizeof(msg));
		get_random_number(&drng, msg, bits);
		fprintf(f, "Msg_Len = %llu\n", bits);
		put_hex(f, "Msg", msg, (size_t)((bits + 7) / 8));
		if (put_digest(f, msg, bits))
			return -3;
	}
	return fclose(f) ? -1 : 0;
}

static int kat_long(const char *tag, unsigned long long bits)
{
	size_t bytes = (size_t)(bits / 8), i;
	unsigned char *msg = calloc(bytes, 1);
	DRNG_ctx drng;
	FILE *f;
	int record, j;

	if (!msg)
		return -2;
	f = open_file(tag, &drng);
	if (!f)
		return -1;
	for (record = 1; record <= 3; record++) {
		if (record == 2)
			memset(msg, 0xFF, bytes);
		if (record == 3)
			get_random_number(&drng, msg, bits);
		fprintf(f, "Msg_Len = %llu\nMsg_Seed = ", bits);
		for (j = 0; record == 3 && j < 64; j++)
			fprintf(f, "%02X", (unsigned char)tag[j % 8]);
		fprintf(f, "\nMsg_Exp = ");
		for (i = 0; i < 8; i++)
			fprintf(f, "%02X", msg[i]);
		fprintf(f, " .... ");
		for (i = bytes - 8; i < bytes; i++)
			fprintf(f, "%02X", msg[i]);
		fprintf(f, "\n");
		if (put_digest(f, msg, bits))
			return -3;
	}
	free(msg);
	return fclose(f) ? -1 : 0;
}

static int kat_loop(void)
{
	unsigned char msg[1024], saved[1024], h[(DIGEST_BIT_LENGTH + 7) / 8];
	size_t d = DIGEST_BIT_LENGTH / 8, moved = (8192 - DIGEST_BIT_LENGTH) / 8, i;
	DRNG_ctx drng;
	FILE *f = open_file("KAT_Loop", &drng);
	long n;

	if (!f)
		return -1;
	get_random_number(&drng, msg, 8192);
	fprintf(f, "Msg_Len = 8192\n");
	put_hex(f, "Msg", msg, sizeof(msg));
	if (CryptHash(DIGEST_BIT_LENGTH, msg, 8192, h))
		return -3;
	for (n = 0; n < 1000000; n++) {
		memcpy(saved, msg, d);
		memmove(msg, msg + d, moved);
		memcpy(msg + moved, saved, d);
		for (i = 0; i < d; i++)
			msg[i] ^= h[i];
		CryptHash(DIGEST_BIT_LENGTH, msg, 8192, h);
	}
	fprintf(f, "Dst_Len = %d\n", DIGEST_BIT_LENGTH);
	put_hex(f, "Dst", h, DIGEST_BIT_LENGTH / 8);
	fprintf(f, "\n");
	return fclose(f) ? -1 : 0;
}

int main(void)
{
	int rc;

	mkdir("output", 0755);
	if ((rc = kat_2_12()) || (rc = kat_long("KAT_2_23", 1ULL << 23)) ||
	    (rc = kat_long("KAT_2_33", 1ULL << 33)) || (rc = kat_loop()))
		return rc;
	printf("Files have been saved in the 'output' folder within the working directory.\n");
	return 0;
}
