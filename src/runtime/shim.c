/*
 * shim.c — the ABI shim compiled into every candidate library (docs/method.md §2.1,
 * ngcc_abi.h).  `ngcc-perf build` compiles it once per instance with the
 * instance's flags and these defines (string literals):
 *
 *   NGCC_META_ID, NGCC_META_ALGORITHM, NGCC_META_LABEL, NGCC_META_INSTANCE,
 *   NGCC_META_VARIANT, NGCC_META_COMPILER, NGCC_META_FLAGS, NGCC_META_RUNTIME
 *
 * and one of NGCC_SHIM_KEM, NGCC_SHIM_SIG, NGCC_SHIM_KEX, NGCC_SHIM_HASH;
 * a hash library also gets NGCC_META_DIGEST_BITS (DIGEST_BIT_LENGTH, an
 * integer, from candidate.conf's digest_bits).
 * NGCC_SHIM_NO_DRNG_DEF leaves drng_algorithm to a candidate that defines
 * it itself.
 *
 * <drng.h> is included with angle brackets on purpose: the include path
 * puts the package's directories first, so a package that ships its own
 * drng.h gets the DRNG_ctx its own drng.c was written against; ours (next
 * to this file) is only found when the package has none.
 *
 * The candidate API is declared here with the official signatures instead
 * of including the candidate's header, whose name varies between packages.
 * Written to compile cleanly under -std=c99 -Wpedantic.
 */
#include <drng.h>

#include "ngcc_abi.h"

#ifndef NGCC_META_ID
#define NGCC_META_ID ""
#endif
#ifndef NGCC_META_ALGORITHM
#define NGCC_META_ALGORITHM ""
#endif
#ifndef NGCC_META_LABEL
#define NGCC_META_LABEL ""
#endif
#ifndef NGCC_META_INSTANCE
#define NGCC_META_INSTANCE ""
#endif
#ifndef NGCC_META_VARIANT
#define NGCC_META_VARIANT ""
#endif
#ifndef NGCC_META_COMPILER
#define NGCC_META_COMPILER ""
#endif
#ifndef NGCC_META_FLAGS
#define NGCC_META_FLAGS ""
#endif
#ifndef NGCC_META_RUNTIME
#define NGCC_META_RUNTIME ""
#endif
#ifndef NGCC_META_DIGEST_BITS
#define NGCC_META_DIGEST_BITS 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifdef NGCC_SHIM_NO_DRNG_DEF
extern DRNG_ctx drng_algorithm;
#else
/* The global every candidate draws its randomness from (docs/iccs.md §1.7);
 * ngcc_seed() instantiates it before any API call. */
DRNG_ctx drng_algorithm;
#endif

#if defined(NGCC_SHIM_KEM)
unsigned long long kem_get_pk_len_bytes();
unsigned long long kem_get_sk_len_bytes();
unsigned long long kem_get_ss_len_bytes();
unsigned long long kem_get_ct_len_bytes();
int kem_keygen(unsigned char *pk, unsigned long long *pk_len_bytes,
	       unsigned char *sk, unsigned long long *sk_len_bytes);
int kem_enc(unsigned char *pk, unsigned long long pk_len_bytes,
	    unsigned char *ss, unsigned long long *ss_len_bytes,
	    unsigned char *ct, unsigned long long *ct_len_bytes);
int kem_dec(unsigned char *sk, unsigned long long sk_len_bytes,
	    unsigned char *ct, unsigned long long ct_len_bytes,
	    unsigned char *ss, unsigned long long *ss_len_bytes);
#elif defined(NGCC_SHIM_SIG)
unsigned long long sig_get_pk_len_bytes();
unsigned long long sig_get_sk_len_bytes();
unsigned long long sig_get_sn_len_bytes();
#elif defined(NGCC_SHIM_KEX)
unsigned long long kex_get_pk_len_bytes();
unsigned long long kex_get_sk_len_bytes();
unsigned long long kex_get_ss_len_bytes();
#elif defined(NGCC_SHIM_HASH)
int CryptHash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest);
#endif

static struct ngcc_meta meta;
static int meta_ready;

static void fill_sizes(struct ngcc_meta *m)
{
#if defined(NGCC_SHIM_KEM)
	m->pk_bytes = kem_get_pk_len_bytes();
	m->sk_bytes = kem_get_sk_len_bytes();
	m->ct_bytes = kem_get_ct_len_bytes();
	m->ss_bytes = kem_get_ss_len_bytes();
#elif defined(NGCC_SHIM_SIG)
	m->pk_bytes = sig_get_pk_len_bytes();
	m->sk_bytes = sig_get_sk_len_bytes();
	m->sig_bytes = sig_get_sn_len_bytes();
#elif defined(NGCC_SHIM_KEX)
	m->pk_bytes = kex_get_pk_len_bytes();
	m->sk_bytes = kex_get_sk_len_bytes();
	m->ss_bytes = kex_get_ss_len_bytes();
#else
	m->digest_bits = NGCC_META_DIGEST_BITS;
#endif
}

static int shim_type(void)
{
#if defined(NGCC_SHIM_KEM)
	return NGCC_TYPE_KEM;
#elif defined(NGCC_SHIM_SIG)
	return NGCC_TYPE_SIG;
#elif defined(NGCC_SHIM_KEX)
	return NGCC_TYPE_KEX;
#else
	return NGCC_TYPE_HASH;
#endif
}

/* Filled at first use, so the getters run in the child that loaded us. */
const struct ngcc_meta *ngcc_meta(void)
{
	if (!meta_ready) {
		meta.magic = NGCC_ABI_MAGIC;
		meta.abi_version = NGCC_ABI_VERSION;
		meta.type = shim_type();
		meta.id = NGCC_META_ID;
		meta.algorithm = NGCC_META_ALGORITHM;
		meta.label = NGCC_META_LABEL;
		meta.instance = NGCC_META_INSTANCE;
		meta.variant = NGCC_META_VARIANT;
		meta.compiler = NGCC_META_COMPILER;
		meta.flags = NGCC_META_FLAGS;
		meta.runtime = NGCC_META_RUNTIME;
		fill_sizes(&meta);
		meta_ready = 1;
	}
	return &meta;
}

int ngcc_seed(const unsigned char *seed, unsigned long long seed_len)
{
	return init_random_number(&drng_algorithm, seed, seed_len);
}

#if defined(NGCC_SHIM_KEM)
int ngcc_kem_keygen(unsigned char *pk, unsigned long long *pk_len,
		    unsigned char *sk, unsigned long long *sk_len)
{
	return kem_keygen(pk, pk_len, sk, sk_len);
}

int ngcc_kem_enc(unsigned char *pk, unsigned long long pk_len,
		 unsigned char *ss, unsigned long long *ss_len,
		 unsigned char *ct, unsigned long long *ct_len)
{
	return kem_enc(pk, pk_len, ss, ss_len, ct, ct_len);
}

int ngcc_kem_dec(unsigned char *sk, unsigned long long sk_len,
		 unsigned char *ct, unsigned long long ct_len,
		 unsigned char *ss, unsigned long long *ss_len)
{
	return kem_dec(sk, sk_len, ct, ct_len, ss, ss_len);
}
#elif defined(NGCC_SHIM_HASH)
int ngcc_hash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest)
{
	return CryptHash(digest_len_bits, msg, msg_len_bits, digest);
}
#endif

#ifdef __cplusplus
}
#endif
