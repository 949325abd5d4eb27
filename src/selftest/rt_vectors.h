/*
 * rt_vectors.h — the test vectors of docs/iccs.md §8 for the clean-room ICCS
 * runtime, shared by `ngcc-perf selftest` and tests/unit/test_runtime.c.
 * Hex strings are as the spec prints them (either case).
 */
#ifndef NGCC_SELFTEST_RT_VECTORS_H
#define NGCC_SELFTEST_RT_VECTORS_H

#include <stddef.h>

enum rtv_func {
	RTV_SM3HASH,
	RTV_PSEUDOXOF,
	RTV_PSEUDOHASH,
};

/* One call of an auxiliary function and its expected output. */
struct rtv_vector {
	const char *name;
	enum rtv_func func;
	const char *msg;                /* bytes; bits past msg_bits are junk */
	unsigned long long msg_bits;
	unsigned long long out_bits;    /* digest or output length in bits */
	const char *expected;
};

extern const struct rtv_vector rtv_vectors[];
extern const size_t rtv_nvectors;

/* Call v's function writing to out (at least (out_bits + 7) / 8 bytes);
 * returns the function's return code. */
int rtv_call(const struct rtv_vector *v, unsigned char *out);

/* pseudohash's key K (§3.4). */
extern const char rtv_pseudohash_key[];

/* §8.5: "seed" x 16, then ten 512-bit draws. */
#define RTV_NSEEDS 10
extern const char *const rtv_drng_seeds[RTV_NSEEDS];
/* §8.6: V and C after instantiating with "seed" x 16. */
extern const char rtv_drng_v[], rtv_drng_c[];
/* §8.7: "msg" x 21 || "m", then 56 and 64 bytes. */
#define RTV_NSIG_MSGS 2
extern const char *const rtv_sig_msgs[RTV_NSIG_MSGS];
/* §8.8: KAT_2_12 messages for L = 0..16. */
#define RTV_NHASHKAT_MSGS 17
extern const char *const rtv_hashkat_msgs[RTV_NHASHKAT_MSGS];
/* §8.8: Msg_Exp of the random KAT_2_23 / KAT_2_33 records. */
extern const char rtv_kat_2_23_first[], rtv_kat_2_23_last[];
extern const char rtv_kat_2_33_first[], rtv_kat_2_33_last[];
/* §8.8: start (32 bytes) and end (16 bytes) of the KAT_Loop m0. */
extern const char rtv_kat_loop_m0_start[], rtv_kat_loop_m0_end[];

/* Fill seed with the first `unit` bytes of s repeated to len bytes. */
void rtv_repeat(unsigned char *seed, size_t len, const char *s, size_t unit);

/* Decode hex (either case, even length) into out (room for maxlen bytes);
 * returns the byte count, or -1 if malformed or too long. */
long rtv_unhex(const char *hex, unsigned char *out, size_t maxlen);
/* Uppercase hex of n bytes into out (2n + 1 chars with the NUL). */
void rtv_hex(const unsigned char *data, size_t n, char *out);

#endif
