/*
 * sha256.c — SHA-256 through OpenSSL.  Kept apart from util.c so programs
 * that need util.c but no digest (the timing driver, whose RSS is part of
 * the published figures) do not pull in libcrypto.
 */
#include "util/util.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

void sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	for (int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
}

int sha256_file_hex(const char *path, char hex[65])
{
	char *data;
	size_t len;
	if (read_file(path, &data, &len))
		return -1;
	sha256_hex(data, len, hex);
	free(data);
	return 0;
}
