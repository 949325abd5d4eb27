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
#define NGCC_ABI_VERSION 2 /* 2: digest_bits, ngcc_hash */

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
	/* API sizes from the *_get_*_len_bytes() getters (0 when n/a). */
	unsigned long long pk_bytes, sk_bytes, ct_bytes, ss_bytes, sig_bytes;
	/* Hash: DIGEST_BIT_LENGTH, the digest length every CryptHash call
	 * gets (0 for the other types). */
	int digest_bits;
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

#endif
