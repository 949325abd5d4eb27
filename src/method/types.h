/*
 * types.h — the four candidate types of NGCC Round 1 and what every stage
 * needs to know about each, in one table (docs/method.md §1): the name used in
 * candidate.conf and on pages, the ABI number the shim exports, the API
 * header and KAT file prefixes of a package, the API functions that tell
 * a header's type, the shim's compile-time switch, the page title, and
 * the operation keys.
 *
 * Adding a type's support is a row here plus the stage code that handles
 * it (see docs/architecture.md, "Adding a candidate type"); code that
 * needs a type-dependent fact looks it up here instead of spelling a
 * string of its own.
 */
#ifndef NGCC_METHOD_TYPES_H
#define NGCC_METHOD_TYPES_H

#include <stddef.h>

/* The KEX pass family: pass1 … pass16 (kex_generate_pass16_msg_b). */
#define CAND_MAX_PASSES 16

struct cand_type {
	const char *name;          /* "kem", "sign", "kex", "hash" (candidate.conf, pages) */
	int abi;                   /* enum ngcc_type of runtime/ngcc_abi.h */
	const char *title;         /* "Key encapsulation", ... (summary sections) */
	const char *header_prefix; /* API header of an instance: "KEM_*.h" */
	const char *kat_prefix;    /* submitted KAT file: "KAT_KEM_<instance>.txt" */
	/* The tags of a type whose KATs are several files, in the official
	 * order, each file named "<tag>_<instance>.txt" (hash: KAT_2_12 ...
	 * KAT_Loop); NULL: one file, kat_prefix + instance. */
	const char *const *kat_files;
	const char *shim_define;   /* compiles runtime/shim.c for this API */
	/* API functions whose call in a header says the type (discovery) */
	const char *const *api_functions;
	/*
	 * Operation keys in page order (docs/method.md §1).  "<N>" at the end names a
	 * numbered family: pass<N> is pass1 … pass16, hash_<L> is hash_32 …
	 * hash_65536.
	 */
	const char *const *ops;
	/* The operations `measure` times for every instance of the type, or
	 * NULL while the type is not measured yet. */
	const char *const *timed_ops;
	/* The operation that is the whole flow when the others are its
	 * steps (KEX: exchange), else NULL.  A step is planned with a t1 of
	 * at least the whole flow's (docs/method.md §4.2 step 1), and only the whole
	 * flow is profiled (docs/method.md §2.6). */
	const char *whole_op;
	/* `check` has suites for the type (the check program's table,
	 * driver/check/suite.h); 0: its instances are listed as skipped. */
	int checked;
};

extern const struct cand_type cand_types[];
extern const size_t n_cand_types;

/* The row of a type name ("sig" is accepted for "sign"), or NULL. */
const struct cand_type *cand_type_find(const char *name);
/* The row of an ABI type number, or NULL. */
const struct cand_type *cand_type_by_abi(int abi);
/* Measured end to end (timed_ops set): discovery enables its instances
 * and measure times them.  NULL is not. */
int cand_type_supported(const struct cand_type *t);
/* The names of the types `check` has suites for, as "`kem`" or "`kem`,
 * `sign`" (code spans, for pages and messages); static storage. */
const char *cand_types_checked(void);
/* A public-key type (kem, sign, kex): the ICCS profile and survey are
 * theirs (docs/method.md §2.3); 0 for hash and NULL. */
int cand_type_public_key(const struct cand_type *t);
/* The type whose ops list op; NULL when none does, and NULL with *shared
 * set when several do (keygen). */
const struct cand_type *cand_type_of_op(const char *op, int *shared);

/* The whole flow op is a step of ("exchange" for "pass2"); NULL when op
 * is not a step (KEM, signature and hash operations, exchange itself). */
const char *cand_op_whole(const char *op);

/*
 * The position of an operation key in the page order of all types (kem,
 * sign, kex, hash, each in its ops order; a key listed twice keeps its
 * first place), and the number of a numbered family member (pass3 → 3,
 * hash_1024 → 1024; 0 otherwise).  Unknown keys get n_cand_types * 64.
 */
unsigned cand_op_rank(const char *op, unsigned long long *num);
/* Page order of two operation keys (cand_op_rank, then the family
 * number: pass2 before pass10): < 0, 0 (also for two unknown keys) or > 0. */
int cand_op_cmp(const char *a, const char *b);

#endif
