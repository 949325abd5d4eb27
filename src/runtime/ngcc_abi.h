/*
 * ngcc_abi.h — the uniform ABI every candidate library exports (docs/method.md §2.1).
 *
 * The shim (shim.c) is compiled into each lib<label>.so; a version script
 * makes these the only dynamic symbols, so candidates whose internal names
 * clash can be loaded side by side with RTLD_LOCAL.  Our child programs
 * (src/driver/) dlsym() them.  Candidate getters are called when
 * ngcc_meta() runs, so sizes are the API's claims.
 */
#ifndef NGCC_ABI_H
#define NGCC_ABI_H

#define NGCC_ABI_MAGIC 0x4e474343u /* "NGCC" */
/* 2: digest_bits and ngcc_hash; 3: the key-exchange sizes (sta_bytes …
 * passes) and the SIG and KEX forwarders.  A change of struct ngcc_meta
 * appends fields and bumps the version, so a library built before is
 * refused, not misread. */
#define NGCC_ABI_VERSION 3
/* Pass functions resolved by name: kex_generate_pass1_msg_a …
 * kex_generate_pass16_msg_b. */
#define NGCC_KEX_MAX_PASSES 16

enum ngcc_type {
	NGCC_TYPE_KEM = 1,
	NGCC_TYPE_SIG = 2,
	NGCC_TYPE_KEX = 3,
	NGCC_TYPE_HASH = 4,
};

struct ngcc_meta {
	unsigned int magic;       /* NGCC_ABI_MAGIC */
	unsigned int abi_version; /* NGCC_ABI_VERSION */
	int type;                 /* enum ngcc_type */
	const char *id;           /* candidate id, e.g. "kem-27" */
	const char *algorithm;    /* algorithm name */
	const char *label;        /* instance folder name, e.g. "Mito-1-128" */
	const char *instance;     /* ALGORITHM_INSTANCE, e.g. "MITO_1_128" */
	const char *variant;      /* "reference", "optimized-avx2", ... */
	const char *compiler;     /* first line of `cc --version` */
	const char *flags;        /* profile name: "guide" or "harness-default" */
	const char *runtime;      /* which ICCS copy: "ngcc-perf" or "package" */
	/* API sizes from the *_get_*_len_bytes() getters (0 when n/a).
	 * sig_bytes is the maximum signature length. */
	unsigned long long pk_bytes, sk_bytes, ct_bytes, ss_bytes, sig_bytes;
	/* Hash: DIGEST_BIT_LENGTH, the digest length every CryptHash call
	 * gets (0 for the other types). */
	int digest_bits;
	/* Key exchange: the maximum states of A and B, the size of every
	 * message buffer (kex_get_total_msg_len_bytes) and
	 * kex_get_passes_num(). */
	unsigned long long sta_bytes, stb_bytes, msg_bytes, passes;
};

/* Exported by every candidate library. */
const struct ngcc_meta *ngcc_meta(void);
/* Instantiate the candidate's drng_algorithm with seed (init_random_number). */
int ngcc_seed(const unsigned char *seed, unsigned long long seed_len);

/* KEM operations: plain forwarders to kem_keygen / kem_enc / kem_dec. */
int ngcc_kem_keygen(unsigned char *pk, unsigned long long *pk_len,
		    unsigned char *sk, unsigned long long *sk_len);
int ngcc_kem_enc(unsigned char *pk, unsigned long long pk_len,
		 unsigned char *ss, unsigned long long *ss_len,
		 unsigned char *ct, unsigned long long *ct_len);
int ngcc_kem_dec(unsigned char *sk, unsigned long long sk_len,
		 unsigned char *ct, unsigned long long ct_len,
		 unsigned char *ss, unsigned long long *ss_len);

/* Hash: a plain forwarder to CryptHash (docs/iccs.md §1.6). */
int ngcc_hash(int digest_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *digest);
/* Signature operations: forwarders to sig_keygen / sig_sign / sig_verify. */
int ngcc_sig_keygen(unsigned char *pk, unsigned long long *pk_len,
		    unsigned char *sk, unsigned long long *sk_len);
int ngcc_sig_sign(unsigned char *sk, unsigned long long sk_len,
		  unsigned char *m, unsigned long long m_len,
		  unsigned char *sn, unsigned long long *sn_len);
int ngcc_sig_verify(unsigned char *pk, unsigned long long pk_len,
		    unsigned char *sn, unsigned long long sn_len,
		    unsigned char *m, unsigned long long m_len);

/* Key exchange: forwarders to kex_init_a/b, kex_generate_pass1_msg_a and
 * kex_derive_ss_a/b, and the candidate's pass k (2..NGCC_KEX_MAX_PASSES:
 * kex_generate_pass<k>_msg_b for even k, _msg_a for odd k) or NULL when
 * the library does not define it. */
int ngcc_kex_init_a(unsigned char *pka, unsigned long long *pka_len,
		    unsigned char *ska, unsigned long long *ska_len,
		    unsigned char *sta, unsigned long long *sta_len);
int ngcc_kex_init_b(unsigned char *pkb, unsigned long long *pkb_len,
		    unsigned char *skb, unsigned long long *skb_len,
		    unsigned char *stb, unsigned long long *stb_len);
int ngcc_kex_pass1(unsigned char *ska, unsigned long long ska_len,
		   unsigned char *pkb, unsigned long long pkb_len,
		   unsigned char *sta, unsigned long long *sta_len,
		   unsigned char *m1, unsigned long long *m1_len);
int ngcc_kex_derive_a(unsigned char *ska, unsigned long long ska_len,
		      unsigned char *pkb, unsigned long long pkb_len,
		      unsigned char *mb, unsigned long long mb_len,
		      unsigned char *sta, unsigned long long sta_len,
		      unsigned char *ssa, unsigned long long *ssa_len);
int ngcc_kex_derive_b(unsigned char *skb, unsigned long long skb_len,
		      unsigned char *pka, unsigned long long pka_len,
		      unsigned char *ma, unsigned long long ma_len,
		      unsigned char *stb, unsigned long long stb_len,
		      unsigned char *ssb, unsigned long long *ssb_len);
/* Pass k >= 2: (own sk, peer pk, peer's message in, own state in/out,
 * message out). */
typedef int (*ngcc_kex_pass_fn)(unsigned char *, unsigned long long,
				unsigned char *, unsigned long long,
				unsigned char *, unsigned long long,
				unsigned char *, unsigned long long *,
				unsigned char *, unsigned long long *);
ngcc_kex_pass_fn ngcc_kex_pass(int k);

typedef const struct ngcc_meta *(*ngcc_meta_fn)(void);
typedef int (*ngcc_seed_fn)(const unsigned char *, unsigned long long);
typedef int (*ngcc_kem_keygen_fn)(unsigned char *, unsigned long long *,
				  unsigned char *, unsigned long long *);
typedef int (*ngcc_kem_enc_fn)(unsigned char *, unsigned long long,
			       unsigned char *, unsigned long long *,
			       unsigned char *, unsigned long long *);
typedef int (*ngcc_kem_dec_fn)(unsigned char *, unsigned long long,
			       unsigned char *, unsigned long long,
			       unsigned char *, unsigned long long *);
typedef int (*ngcc_hash_fn)(int, const unsigned char *, unsigned long long,
			    unsigned char *);
typedef int (*ngcc_sig_keygen_fn)(unsigned char *, unsigned long long *,
				  unsigned char *, unsigned long long *);
typedef int (*ngcc_sig_sign_fn)(unsigned char *, unsigned long long,
				unsigned char *, unsigned long long,
				unsigned char *, unsigned long long *);
typedef int (*ngcc_sig_verify_fn)(unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long);
typedef int (*ngcc_kex_init_fn)(unsigned char *, unsigned long long *,
				unsigned char *, unsigned long long *,
				unsigned char *, unsigned long long *);
typedef int (*ngcc_kex_pass1_fn)(unsigned char *, unsigned long long,
				 unsigned char *, unsigned long long,
				 unsigned char *, unsigned long long *,
				 unsigned char *, unsigned long long *);
typedef int (*ngcc_kex_derive_fn)(unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long,
				  unsigned char *, unsigned long long *);
typedef ngcc_kex_pass_fn (*ngcc_kex_pass_lookup_fn)(int);

#endif
