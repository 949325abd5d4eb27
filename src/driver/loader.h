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
};

/* 0 on success; -1 with *err (malloc'd) naming the library and the cause. */
int candidate_load(const char *path, struct candidate_lib *lib, char **err);
void candidate_unload(struct candidate_lib *lib);

#endif
