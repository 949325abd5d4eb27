/*
 * iccs_openssl.h — the ICCS auxiliary functions (docs/iccs.md §3) computed
 * with OpenSSL's SM3 and HMAC, as an independent reference for byte-aligned
 * input below 2^32 bits: `selftest` compares our runtime with it, and the
 * ICCS baseline's self-test compares the built baseline libraries with the
 * text it writes.  Only in the orchestrator, never in candidate libraries.
 */
#ifndef NGCC_SELFTEST_ICCS_OPENSSL_H
#define NGCC_SELFTEST_ICCS_OPENSSL_H

#include <stddef.h>

#include "method/baseline.h"
#include "util/util.h"

/* 1 when this OpenSSL has SM3. */
int iccs_openssl_available(void);
/* SM3(a || b) into out[32].  0, or -1 when OpenSSL cannot. */
int iccs_openssl_sm3(const unsigned char *a, size_t an, const unsigned char *b, size_t bn,
		     unsigned char out[32]);
/* pseudohash(bits, msg) rebuilt from SM3 and HMAC(EVP_sm3, K, 64); bits is
 * 512, 768 or 1024.  0 or -1. */
int iccs_openssl_pseudohash(int bits, const unsigned char *msg, size_t len, unsigned char *out);
/* pseudoXOF(bits, msg): SM3(msg || counter) for counters 1, 2, ..., the
 * unused low bits of the last byte cleared.  0 or -1. */
int iccs_openssl_pseudoxof(int bits, const unsigned char *msg, size_t len, unsigned char *out);
/* fn at bits (sm3hash: 256 only).  0 or -1. */
int iccs_openssl_eval(enum iccs_fn fn, int bits, const unsigned char *msg, size_t len,
		      unsigned char *out);

/* The baseline self-test text (method/hashmsg.h) of fn at bits, computed
 * here: what the baseline library must write.  0, or -1 when OpenSSL
 * cannot compute it. */
int iccs_openssl_selftest_text(enum iccs_fn fn, int bits, struct strbuf *text);

#endif
