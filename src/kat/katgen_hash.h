/*
 * katgen_hash.h — our replay of the official hash KAT driver
 * (KAT_CryptHash.c, docs/iccs.md §4.5): the four files KAT_2_12, KAT_2_23,
 * KAT_2_33 and KAT_Loop, one at a time, each with its own DRNG, with guard
 * zones around the message and digest buffers.  Same text, byte for byte.
 */
#ifndef NGCC_KATGEN_HASH_H
#define NGCC_KATGEN_HASH_H

#include "kat/katgen.h"

/* In the official order. */
enum hash_kat_file {
	HASH_KAT_2_12,
	HASH_KAT_2_23,
	HASH_KAT_2_33,
	HASH_KAT_LOOP,
	HASH_KAT_NFILES,
};

/* The official KAT_Loop iteration count. */
#define KAT_HASH_LOOP_ITERATIONS 1000000UL

struct hash_api {
	int digest_bits; /* DIGEST_BIT_LENGTH, passed to every call */
	int (*hash)(int digest_len_bits, const unsigned char *msg,
		    unsigned long long msg_len_bits, unsigned char *digest);
	/* Optional: called now and then with the work done so far (records,
	 * or loop iterations) out of the total, e.g. to show progress. */
	void (*progress)(void *arg, unsigned long long done, unsigned long long total);
	void *progress_arg;
	/* 0 = the official KAT_HASH_LOOP_ITERATIONS; tests may use fewer
	 * (the text then is not the official file). */
	unsigned long loop_iterations;
	/* 0 = the official 2^33 bits of KAT_2_33; tests use a smaller
	 * stand-in (a multiple of 64 bits; the text is not the official
	 * file then). */
	unsigned long long kat_2_33_bits;
};

/* "KAT_2_12", "KAT_2_23", "KAT_2_33", "KAT_Loop" (also the file's DRNG
 * pattern); NULL for an unknown value. */
const char *katgen_hash_file_tag(enum hash_kat_file f);
/* The enum value of a tag, or -1. */
int katgen_hash_file_parse(const char *tag);
/* "<tag>_<instance>.txt" (malloc'd). */
char *katgen_hash_file_name(enum hash_kat_file f, const char *instance);
/* Bytes of message buffer file f needs (1 GiB for KAT_2_33; api may be
 * NULL for the official sizes). */
unsigned long long katgen_hash_file_msg_bytes(const struct hash_api *api, enum hash_kat_file f);

/*
 * Generate the whole of file f into text.  The candidate gets each message
 * in one call, as in the official driver (KAT_2_33: one 2^33-bit message in
 * a 1 GiB buffer, allocated here; exits with an error when that fails).
 * Returns KAT_PASS (text still to be compared), KAT_CRYPTOFAIL (CryptHash
 * returned non-zero outside the KAT_Loop iterations, whose returns the
 * official driver ignores; or a digest length it cannot print) or
 * KAT_OVERFLOW (a guard zone around the message or digest overwritten).
 * *detail (malloc'd, may be NULL) says which file, record and why.  The
 * text up to the failure is kept.
 */
enum kat_status katgen_hash(const struct hash_api *api, enum hash_kat_file f,
			    struct strbuf *text, char **detail);

/*
 * The ICCS baseline's self-test (docs/method.md §10.7): the text of
 * method/hashmsg.h, the library's CryptHash over every self-test message,
 * with guard zones around the message and the digest.  Returns KAT_PASS
 * (text to compare with the OpenSSL reference), KAT_CRYPTOFAIL or
 * KAT_OVERFLOW, with *detail as katgen_hash().
 */
enum kat_status katgen_hash_selftest(const struct hash_api *api, struct strbuf *text,
				     char **detail);

#endif
