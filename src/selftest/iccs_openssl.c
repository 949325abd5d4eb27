/* iccs_openssl.c — see iccs_openssl.h. */
#include "selftest/iccs_openssl.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "method/hashmsg.h"
#include "selftest/rt_vectors.h"

int iccs_openssl_sm3(const unsigned char *a, size_t an, const unsigned char *b, size_t bn,
		     unsigned char out[32])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok = md && EVP_DigestInit_ex(md, EVP_sm3(), NULL) &&
		 EVP_DigestUpdate(md, a, an) && EVP_DigestUpdate(md, b, bn) &&
		 EVP_DigestFinal_ex(md, out, NULL);

	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

static int hmac_sm3(const unsigned char key[64], const unsigned char *a, size_t an,
		    const unsigned char *b, size_t bn, unsigned char out[32])
{
	unsigned char *data = xmalloc(an + bn + 1);
	unsigned int len = 0;
	int ok;

	if (an)
		memcpy(data, a, an);
	if (bn)
		memcpy(data + an, b, bn);
	ok = HMAC(EVP_sm3(), key, 64, data, an + bn, out, &len) != NULL && len == 32;
	free(data);
	return ok ? 0 : -1;
}

int iccs_openssl_available(void)
{
	unsigned char out[32];

	return iccs_openssl_sm3(NULL, 0, NULL, 0, out) == 0;
}

/* docs/iccs.md §3.4: k1 = HMAC(T || msg), h1 = SM3(msg || T), h2 =
 * SM3(k1 || h1); then h3 and h4 for the longer digests. */
int iccs_openssl_pseudohash(int bits, const unsigned char *msg, size_t len, unsigned char *out)
{
	unsigned char key[64], tag[2] = { (unsigned char)(bits / 256), 0 };
	unsigned char k1[32], k2[32], k3[32], k4[32], h34[96];
	int rc = 0;

	if (bits != 512 && bits != 768 && bits != 1024)
		return -1;
	rtv_unhex(rtv_pseudohash_key, key, sizeof(key));
	rc |= hmac_sm3(key, tag, 2, msg, len, k1);
	rc |= iccs_openssl_sm3(msg, len, tag, 2, out);                 /* h1 */
	rc |= iccs_openssl_sm3(k1, 32, out, 32, out + 32);             /* h2 */
	if (bits >= 768) {
		rc |= hmac_sm3(key, out, 32, NULL, 0, k2);
		rc |= iccs_openssl_sm3(out + 32, 32, k2, 32, out + 64);     /* h3 */
	}
	if (bits == 1024) {
		rc |= hmac_sm3(key, out + 32, 32, NULL, 0, k3);
		rc |= hmac_sm3(key, out + 64, 32, NULL, 0, k4);
		memcpy(h34, k3, 32);
		memcpy(h34 + 32, out + 64, 32);
		memcpy(h34 + 64, k4, 32);
		rc |= iccs_openssl_sm3(h34, 96, NULL, 0, out + 96);         /* h4 */
	}
	return rc ? -1 : 0;
}

int iccs_openssl_pseudoxof(int bits, const unsigned char *msg, size_t len, unsigned char *out)
{
	size_t bytes = ((size_t)bits + 7) / 8;
	unsigned char block[32];

	if (bits < 1)
		return -1;
	for (unsigned long c = 1; 32 * (c - 1) < bytes; c++) {
		unsigned char ctr[4] = { (unsigned char)(c >> 24), (unsigned char)(c >> 16),
					 (unsigned char)(c >> 8), (unsigned char)c };
		size_t at = 32 * (c - 1), n = bytes - at < 32 ? bytes - at : 32;
		if (iccs_openssl_sm3(msg, len, ctr, 4, block) != 0)
			return -1;
		memcpy(out + at, block, n);
	}
	if (bits % 8)
		out[bytes - 1] &= (unsigned char)(0xFF << (8 - bits % 8));
	return 0;
}

int iccs_openssl_eval(enum iccs_fn fn, int bits, const unsigned char *msg, size_t len,
		      unsigned char *out)
{
	switch (fn) {
	case ICCS_SM3HASH:
		return bits == 256 ? iccs_openssl_sm3(msg, len, NULL, 0, out) : -1;
	case ICCS_PSEUDOHASH:
		return iccs_openssl_pseudohash(bits, msg, len, out);
	case ICCS_PSEUDOXOF:
		return iccs_openssl_pseudoxof(bits, msg, len, out);
	default:
		return -1;
	}
}

int iccs_openssl_selftest_text(enum iccs_fn fn, int bits, struct strbuf *text)
{
	unsigned char *msg = xmalloc(hash_selftest_max() + 1);
	unsigned char *out = xmalloc((size_t)bits / 8 + 32);
	int rc = 0;

	for (size_t i = 0; i < hash_selftest_count() && !rc; i++) {
		size_t len = hash_selftest_len(i);
		hash_message(msg, len);
		rc = iccs_openssl_eval(fn, bits, msg, len, out);
		if (!rc)
			hash_selftest_record(text, len, bits, out);
	}
	free(msg);
	free(out);
	return rc;
}
