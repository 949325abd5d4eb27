/*
 * katgen.h — our replay of the official KAT drivers (docs/iccs.md §4), run in
 * the KAT child program against a loaded candidate.  Same seed schedule, same
 * text, byte for byte; plus the harness's safety: every length out-param is
 * pre-set from the getters before each call, every buffer has 64 guard bytes
 * of 0xA5 per side checked after every call, returned lengths above the
 * getters are flagged.
 */
#ifndef NGCC_KATGEN_H
#define NGCC_KATGEN_H

#include "kat/katstatus.h"
#include "util/util.h"

struct kem_api {
	unsigned long long pk_bytes, sk_bytes, ct_bytes, ss_bytes;
	int (*seed)(const unsigned char *seed, unsigned long long len);
	int (*keygen)(unsigned char *pk, unsigned long long *pk_len,
		      unsigned char *sk, unsigned long long *sk_len);
	int (*enc)(unsigned char *pk, unsigned long long pk_len,
		   unsigned char *ss, unsigned long long *ss_len,
		   unsigned char *ct, unsigned long long *ct_len);
	int (*dec)(unsigned char *sk, unsigned long long sk_len,
		   unsigned char *ct, unsigned long long ct_len,
		   unsigned char *ss, unsigned long long *ss_len);
};

/*
 * Generate records Count = 0 .. records-1 of KAT_KEM_<inst>.txt into text.
 * Returns KAT_PASS when the text was generated (it still has to be compared),
 * KAT_CRYPTOFAIL (an API call failed, or dec's secret differs),
 * KAT_OVERFLOW (a guard zone was overwritten or a returned length exceeds
 * the getter).  *detail (malloc'd) says which Count, call and why.
 * The text generated up to the failure is kept.
 */
enum kat_status katgen_kem(const struct kem_api *api, int records,
			   struct strbuf *text, char **detail);

/* The official seed schedule: the 64-byte seed of record `count`
 * (drng_seed instantiated with "seed" x 16, one 512-bit draw per record). */
void katgen_seed_for_count(int count, unsigned char seed[KAT_SEED_BYTES]);

#endif
