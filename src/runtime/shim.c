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
int sig_keygen(unsigned char *pk, unsigned long long *pk_len_bytes,
	       unsigned char *sk, unsigned long long *sk_len_bytes);
int sig_sign(unsigned char *sk, unsigned long long sk_len_bytes,
	     unsigned char *m, unsigned long long m_len_bytes,
	     unsigned char *sn, unsigned long long *sn_len_bytes);
int sig_verify(unsigned char *pk, unsigned long long pk_len_bytes,
	       unsigned char *sn, unsigned long long sn_len_bytes,
	       unsigned char *m, unsigned long long m_len_bytes);
#elif defined(NGCC_SHIM_KEX)
unsigned long long kex_get_passes_num();
unsigned long long kex_get_pk_len_bytes();
unsigned long long kex_get_sk_len_bytes();
unsigned long long kex_get_sta_len_bytes();
unsigned long long kex_get_stb_len_bytes();
unsigned long long kex_get_ss_len_bytes();
unsigned long long kex_get_total_msg_len_bytes();
int kex_init_a(unsigned char *pka, unsigned long long *pka_len_bytes,
	       unsigned char *ska, unsigned long long *ska_len_bytes,
	       unsigned char *sta, unsigned long long *sta_len_bytes);
int kex_init_b(unsigned char *pkb, unsigned long long *pkb_len_bytes,
	       unsigned char *skb, unsigned long long *skb_len_bytes,
	       unsigned char *stb, unsigned long long *stb_len_bytes);
int kex_generate_pass1_msg_a(unsigned char *ska, unsigned long long ska_len_bytes,
			     unsigned char *pkb, unsigned long long pkb_len_bytes,
			     unsigned char *sta, unsigned long long *sta_len_bytes,
			     unsigned char *m1, unsigned long long *m1_len_bytes);
int kex_derive_ss_a(unsigned char *ska, unsigned long long ska_len_bytes,
		    unsigned char *pkb, unsigned long long pkb_len_bytes,
		    unsigned char *mb, unsigned long long mb_len_bytes,
		    unsigned char *sta, unsigned long long sta_len_bytes,
		    unsigned char *ssa, unsigned long long *ssa_len_bytes);
int kex_derive_ss_b(unsigned char *skb, unsigned long long skb_len_bytes,
		    unsigned char *pka, unsigned long long pka_len_bytes,
		    unsigned char *ma, unsigned long long ma_len_bytes,
		    unsigned char *stb, unsigned long long stb_len_bytes,
		    unsigned char *ssb, unsigned long long *ssb_len_bytes);
/* Passes 2 to 16 are weak references: a package defines as many as its
 * protocol has, and the ones it lacks are NULL (ngcc_kex_pass). */
#define NGCC_KEX_PASS_DECL(name)                                              \
	int name(unsigned char *sk, unsigned long long sk_len_bytes,          \
		 unsigned char *pk, unsigned long long pk_len_bytes,          \
		 unsigned char *m_in, unsigned long long m_in_len_bytes,      \
		 unsigned char *st, unsigned long long *st_len_bytes,         \
		 unsigned char *m_out, unsigned long long *m_out_len_bytes)   \
		__attribute__((weak))
NGCC_KEX_PASS_DECL(kex_generate_pass2_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass3_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass4_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass5_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass6_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass7_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass8_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass9_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass10_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass11_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass12_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass13_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass14_msg_b);
NGCC_KEX_PASS_DECL(kex_generate_pass15_msg_a);
NGCC_KEX_PASS_DECL(kex_generate_pass16_msg_b);
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
	m->sta_bytes = kex_get_sta_len_bytes();
	m->stb_bytes = kex_get_stb_len_bytes();
	m->msg_bytes = kex_get_total_msg_len_bytes();
	m->passes = kex_get_passes_num();
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
#elif defined(NGCC_SHIM_SIG)
int ngcc_sig_keygen(unsigned char *pk, unsigned long long *pk_len,
		    unsigned char *sk, unsigned long long *sk_len)
{
	return sig_keygen(pk, pk_len, sk, sk_len);
}

int ngcc_sig_sign(unsigned char *sk, unsigned long long sk_len,
		  unsigned char *m, unsigned long long m_len,
		  unsigned char *sn, unsigned long long *sn_len)
{
	return sig_sign(sk, sk_len, m, m_len, sn, sn_len);
}

int ngcc_sig_verify(unsigned char *pk, unsigned long long pk_len,
		    unsigned char *sn, unsigned long long sn_len,
		    unsigned char *m, unsigned long long m_len)
{
	return sig_verify(pk, pk_len, sn, sn_len, m, m_len);
}
#elif defined(NGCC_SHIM_KEX)
int ngcc_kex_init_a(unsigned char *pka, unsigned long long *pka_len,
		    unsigned char *ska, unsigned long long *ska_len,
		    unsigned char *sta, unsigned long long *sta_len)
{
	return kex_init_a(pka, pka_len, ska, ska_len, sta, sta_len);
}

int ngcc_kex_init_b(unsigned char *pkb, unsigned long long *pkb_len,
		    unsigned char *skb, unsigned long long *skb_len,
		    unsigned char *stb, unsigned long long *stb_len)
{
	return kex_init_b(pkb, pkb_len, skb, skb_len, stb, stb_len);
}

int ngcc_kex_pass1(unsigned char *ska, unsigned long long ska_len,
		   unsigned char *pkb, unsigned long long pkb_len,
		   unsigned char *sta, unsigned long long *sta_len,
		   unsigned char *m1, unsigned long long *m1_len)
{
	return kex_generate_pass1_msg_a(ska, ska_len, pkb, pkb_len, sta, sta_len, m1, m1_len);
}

ngcc_kex_pass_fn ngcc_kex_pass(int k)
{
	/* Index k; NULL where the package defines no such pass. */
	static const ngcc_kex_pass_fn passes[NGCC_KEX_MAX_PASSES + 1] = {
		0, 0, kex_generate_pass2_msg_b, kex_generate_pass3_msg_a,
		kex_generate_pass4_msg_b, kex_generate_pass5_msg_a,
		kex_generate_pass6_msg_b, kex_generate_pass7_msg_a,
		kex_generate_pass8_msg_b, kex_generate_pass9_msg_a,
		kex_generate_pass10_msg_b, kex_generate_pass11_msg_a,
		kex_generate_pass12_msg_b, kex_generate_pass13_msg_a,
		kex_generate_pass14_msg_b, kex_generate_pass15_msg_a,
		kex_generate_pass16_msg_b,
	};
	return k >= 2 && k <= NGCC_KEX_MAX_PASSES ? passes[k] : 0;
}

int ngcc_kex_derive_a(unsigned char *ska, unsigned long long ska_len,
		      unsigned char *pkb, unsigned long long pkb_len,
		      unsigned char *mb, unsigned long long mb_len,
		      unsigned char *sta, unsigned long long sta_len,
		      unsigned char *ssa, unsigned long long *ssa_len)
{
	return kex_derive_ss_a(ska, ska_len, pkb, pkb_len, mb, mb_len, sta, sta_len, ssa, ssa_len);
}

int ngcc_kex_derive_b(unsigned char *skb, unsigned long long skb_len,
		      unsigned char *pka, unsigned long long pka_len,
		      unsigned char *ma, unsigned long long ma_len,
		      unsigned char *stb, unsigned long long stb_len,
		      unsigned char *ssb, unsigned long long *ssb_len)
{
	return kex_derive_ss_b(skb, skb_len, pka, pka_len, ma, ma_len, stb, stb_len, ssb, ssb_len);
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
