/*
 * baseline.h — the ICCS baseline's instances (docs/method.md §10.7): the
 * auxiliary functions sm3hash (256 bits), pseudohash (512, 768, 1024) and
 * pseudoXOF (at 256 and at every digest width a hash candidate uses),
 * measured as hash instances of candidate `iccs`.  An instance label is
 * `<function>-<bits>` for our runtime's copy and `<function>-<bits>.<ID>`
 * for the differing copy that candidate <ID> ships; pages read labels back
 * with baseline_label_parse().  Pure functions, no I/O.
 */
#ifndef NGCC_METHOD_BASELINE_H
#define NGCC_METHOD_BASELINE_H

#define BASELINE_ID "iccs"
#define BASELINE_VARIANT "iccs-baseline"
#define BASELINE_XOF_DEFAULT_BITS 256

enum iccs_fn {
	ICCS_SM3HASH,
	ICCS_PSEUDOHASH,
	ICCS_PSEUDOXOF,
	ICCS_NFN,
};

/* "sm3hash", "pseudohash", "pseudoXOF"; NULL for another value. */
const char *iccs_fn_name(enum iccs_fn fn);

/* The fixed instances before the pseudoXOF widths, in page order. */
struct baseline_fixed {
	enum iccs_fn fn;
	int bits;
};
extern const struct baseline_fixed baseline_fixed[];
extern const int n_baseline_fixed;

/* "<function>-<bits>", or "<function>-<bits>.<copy_of>" when copy_of is
 * set (malloc'd). */
char *baseline_label(enum iccs_fn fn, int bits, const char *copy_of);

struct baseline_label {
	enum iccs_fn fn;
	int bits;
	char copy_of[128]; /* "" for our runtime's copy */
};
/* 0, or -1 when label is not a baseline label. */
int baseline_label_parse(const char *label, struct baseline_label *out);

#endif
