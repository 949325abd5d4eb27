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

#include "util/util.h"

/* KAT statuses; the value is also the KAT child's exit code (docs/method.md §2.2). */
enum kat_status {
	KAT_PASS = 0,
	KAT_MISMATCH = 1,
	KAT_NOKAT = 2,
	KAT_CRYPTOFAIL = 3,
	KAT_OVERFLOW = 4,
	KAT_LOADFAIL = 5,
	KAT_TIMEOUT = 6,
	KAT_CRASH = 7,
	KAT_BUILDFAIL = 8,
};
const char *kat_status_name(enum kat_status s);
int kat_status_parse(const char *name); /* -1 if unknown */

#define KAT_SEED_BYTES 64
#define KAT_GUARD_BYTES 64
#define KAT_GUARD_BYTE 0xA5
#define KAT_DEFAULT_RECORDS 10

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
