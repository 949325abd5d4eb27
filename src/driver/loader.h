/*
 * loader.h — load one candidate library in a child program: dlopen with
 * RTLD_NOW | RTLD_LOCAL, check the ngcc_meta magic and ABI version, resolve
 * the shim's symbols.  Only our child programs call this.
 */
#ifndef NGCC_LOADER_H
#define NGCC_LOADER_H

#include "runtime/ngcc_abi.h"

struct candidate_lib {
	void *handle;
	const struct ngcc_meta *meta;
	ngcc_seed_fn seed;
	ngcc_kem_keygen_fn kem_keygen;
	ngcc_kem_enc_fn kem_enc;
	ngcc_kem_dec_fn kem_dec;
	ngcc_hash_fn hash;
	ngcc_sig_keygen_fn sig_keygen;
	ngcc_sig_sign_fn sig_sign;
	ngcc_sig_verify_fn sig_verify;
	ngcc_kex_init_fn kex_init_a, kex_init_b;
	ngcc_kex_pass1_fn kex_pass1;
	/* kex_pass[k], k = 2 .. NGCC_KEX_MAX_PASSES: NULL when undefined. */
	ngcc_kex_pass_fn kex_pass[NGCC_KEX_MAX_PASSES + 1];
	ngcc_kex_derive_fn kex_derive_a, kex_derive_b;
};

/* 0 on success; -1 with *err (malloc'd) naming the library and the cause. */
int candidate_load(const char *path, struct candidate_lib *lib, char **err);
void candidate_unload(struct candidate_lib *lib);

#endif
