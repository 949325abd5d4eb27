/*
 * kem_ops.h — the KEM operation code shared by every child program that
 * runs a candidate's KEM (timing driver, profile driver, memory program):
 * buffers at API capacity + 64 bytes, the untimed setup of docs/method.md §5.2
 * (enc on a fixed pk; dec on a fixed ct after an honest decapsulation),
 * single checked calls with lengths reset to capacity, the timed loops and
 * the output validation (R3).  Only libc and the loader: the timing driver
 * must stay small.
 */
#ifndef NGCC_KEM_OPS_H
#define NGCC_KEM_OPS_H

#include "driver/loader.h"

#include <stddef.h>

#define KEM_MAX_CAPACITY (512ull << 20)
#define KEM_BUF_SLACK 64
#define KEM_SEED_LEN 48

enum kem_op { KEM_OP_KEYGEN, KEM_OP_ENC, KEM_OP_DEC };
extern const char *const kem_op_names[3];

/* One KEM object: buffer, its API capacity and the lengths we saw. */
struct kem_obj {
	unsigned char *buf;
	unsigned long long cap, len;
	unsigned long long seen_min, seen_max;
};

struct kem_state {
	struct candidate_lib lib;
	struct kem_obj pk, sk, ct, ss;
	unsigned char *ss_ref;  /* enc's ss from setup (dec's expected) */
	unsigned long long ss_ref_len;
	unsigned char *ct_ref;  /* ct from setup (dec's fixed input) */
	unsigned long long ct_ref_len;
};

/* The cause of the last failure of any function below (static buffer). */
const char *kem_failure(void);

/* ---- command line helpers shared by the child programs ---- */
/* Decimal >= min; -1 otherwise. */
int kem_parse_long(const char *s, long min, long *out);

/* The options every KEM child program takes: --lib PATH, --op OP,
 * --cpu N, --seed-hex HEX (getopt_long table entries below). */
struct kem_opts {
	const char *lib;
	enum kem_op op;
	int have_op;
	int cpu;                 /* -1: no pinning */
	unsigned char seed[KEM_SEED_LEN];
	size_t seed_len;
};
#define KEM_LONG_OPTIONS \
	{ "lib", required_argument, NULL, 'l' }, \
	{ "op", required_argument, NULL, 'o' }, \
	{ "cpu", required_argument, NULL, 'c' }, \
	{ "seed-hex", required_argument, NULL, 's' }
/* No library, no operation, no pinning, the default seed. */
void kem_opts_init(struct kem_opts *o);
/* Handle getopt_long's c: 1 if it was one of ours, 0 if not, -1 on a bad
 * value. */
int kem_opt(struct kem_opts *o, int c, const char *arg);
/* 1 when --lib and --op were given. */
int kem_opts_complete(const struct kem_opts *o);

/* Load path and check it is a KEM with all three operations.  0, or -1
 * with the cause in kem_failure(). */
int kem_open(const char *path, struct kem_state *k);

/* Zero-allocated buffers at API capacity + KEM_BUF_SLACK.  0 or -1. */
int kem_alloc_buffers(struct kem_state *k);
void kem_free_buffers(struct kem_state *k);

/* Untimed setup (docs/method.md §5.2).  0 or -1. */
int kem_setup(struct kem_state *k, enum kem_op op);

/* One call exactly as in the timed loops (lengths reset to capacity, the
 * fixed pk for enc, the fixed ct and sk for dec); returns the candidate's
 * return code, unchecked. */
int kem_raw_call(struct kem_state *k, enum kem_op op);
/* The checks of a call that returned rc (return code, lengths); records
 * the lengths seen.  0 or -1. */
int kem_check_call(struct kem_state *k, enum kem_op op, int rc);
/* kem_raw_call then kem_check_call. */
int kem_call_once(struct kem_state *k, enum kem_op op);

/* iters checked calls in a tight loop; returns how many succeeded. */
long kem_run_loop(struct kem_state *k, enum kem_op op, long iters);

/* R3: the outputs of the last call are right.  0 or -1. */
int kem_validate(struct kem_state *k, enum kem_op op);

#endif
