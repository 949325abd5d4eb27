/*
 * ops.h — the operation interface of the measuring child programs: the
 * timing driver, the profile driver and the memory program (docs/method.md §5,
 * §8, §10.3).  Each candidate type implements it once, in
 * driver/<type>_ops.c, as one `struct op_type`; the programs load the
 * library, pick the row of op_types[] (op_types.c) whose `abi` is the
 * library's ngcc_meta type, and do everything else through the ops_*()
 * functions below.  None of the three programs knows a type.
 *
 * ADDING A TYPE:
 *   1. write driver/<type>_ops.{c,h}: a state struct of your own, the
 *      functions of struct op_type over it (the members documented as
 *      optional may be NULL), and
 *      `extern const struct op_type <type>_op_type;` in the header;
 *   2. add `&<type>_op_type` to op_types[] in op_types.c — one line;
 *   3. nothing else: every .c file of driver/ but the *_main.c ones is linked
 *      into all child programs (Makefile DRIVER_COMMON, mk/memory.mk).
 * kem_ops.c is the smallest complete example.  An operation whose timed
 * call is one step of a longer flow (a KEX step) says OPS_SCOPE_STEP,
 * does the earlier steps in prepare() and brackets only the step in
 * run_loop() through the struct op_bracket it is given.
 *
 * The life of one operation in every program:
 *   ops_open()       load, check magic and ABI, find the type, parse --op
 *   ops_setup()      buffers at API capacity + OPS_BUF_SLACK, the untimed
 *                    setup of docs/method.md §5.2 (fixed inputs, honest outputs)
 *   ops_call_once()  one checked call exactly as timed (warm-ups, memory)
 *   ops_run_loop()   the timed loop of one trial (timing driver)
 *   ops_validate()   R3: the outputs of the last call are right
 *   ops_close()
 * The profile and memory programs bracket single calls themselves:
 * ops_prepare() (untimed, before each call), ops_raw_call() (only the
 * measured call), ops_check_call() (untimed, after it).
 *
 * Only libc, jansson and the loader: the timing driver must stay small.
 */
#ifndef NGCC_DRIVER_OPS_H
#define NGCC_DRIVER_OPS_H

#include "driver/loader.h"

#include <jansson.h>
#include <stddef.h>

#define OPS_MAX_CAPACITY (512ull << 20)
#define OPS_BUF_SLACK 64
#define OPS_SEED_LEN 48
#define OPS_KEY_MAX 24

/* Timing scopes (docs/method.md §5.2, record field timing_scope). */
#define OPS_SCOPE_LOOP "per_call_loop"
#define OPS_SCOPE_STEP "per_call_step"

struct op_ctx;

/*
 * A per-call bracket for per_call_step operations: run_loop calls begin()
 * right before and end() right after the one measured call of each
 * iteration, so the caller's counter covers only that call.
 */
struct op_bracket {
	void (*begin)(void *arg);
	void (*end)(void *arg);
	void *arg;
};

struct op_type {
	int abi;                /* enum ngcc_type of runtime/ngcc_abi.h */
	const char *name;       /* "kem", "sign", ... (messages) */
	const char *op_usage;   /* "keygen|enc|dec" (usage text) */
	/* The operations by name, NULL-terminated: an operation's code is its
	 * index.  NULL when parse_op decides instead. */
	const char *const *op_names;
	/* The type's code for operation key (>= 0), or -1 when the library
	 * has no such operation (m: e.g. a KEX's pass count); NULL when
	 * op_names lists the operations. */
	int (*parse_op)(const struct ngcc_meta *m, const char *key);
	/* OPS_SCOPE_LOOP (the whole loop is bracketed) or OPS_SCOPE_STEP
	 * (run_loop brackets each call through a struct op_bracket); NULL:
	 * every operation is OPS_SCOPE_LOOP. */
	const char *(*timing_scope)(int op);
	/* Allocate the state and its buffers at API capacity + OPS_BUF_SLACK
	 * (c->st).  0, or -1 with ops_failure() set. */
	int (*alloc)(struct op_ctx *c);
	void (*release)(struct op_ctx *c);
	/* Untimed setup of c->op (docs/method.md §5.2).  0 or -1. */
	int (*setup)(struct op_ctx *c);
	/* Untimed work before every measured call; NULL when there is none. */
	int (*prepare)(struct op_ctx *c);
	/* The measured call, lengths reset as in the timed loop; returns the
	 * candidate's code unchecked. */
	int (*raw_call)(struct op_ctx *c);
	/* The checks of a call that returned rc (and, for a step, the rest of
	 * its flow); records the lengths seen.  0 or -1. */
	int (*check_call)(struct op_ctx *c, int rc);
	/* iters calls in a tight loop; returns how many succeeded.  step is
	 * NULL for OPS_SCOPE_LOOP operations. */
	long (*run_loop)(struct op_ctx *c, long iters, const struct op_bracket *step);
	/* R3 after the trials.  0 or -1. */
	int (*validate)(struct op_ctx *c);
	/* Adds the API sizes and the type's counters to the result's meta
	 * (c->lib.meta is set; c->st may still be NULL). */
	void (*meta_json)(const struct op_ctx *c, json_t *meta);
	/* {object: {min, max}} of the lengths returned so far; NULL when the
	 * type observes no lengths (an empty object). */
	json_t *(*observed_json)(const struct op_ctx *c);
	/* What the memory pass observes beyond the measured calls (SIG: the
	 * lengths of 100 signatures) into *out (left NULL for nothing); NULL
	 * when the type observes nothing more.  0 or -1. */
	int (*memory_extra)(struct op_ctx *c, json_t **out);
	/* R2 (driver/pool.h): make the fixed inputs of a freshly allocated
	 * state those of pool input k (k = 0: the fixed inputs themselves),
	 * between alloc and setup; NULL when the type's inputs all come from
	 * the DRNG seed (KEM, KEX), which the pool sets per input. */
	void (*pool_input)(struct op_ctx *c, unsigned k);
};

/* The rows, one per measured type (op_types.c), NULL-terminated. */
extern const struct op_type *const op_types[];

/* One open library and one of its operations. */
struct op_ctx {
	struct candidate_lib lib;
	const struct op_type *type;
	int op;                      /* type->parse_op(key) */
	char op_key[OPS_KEY_MAX];
	void *st;                    /* the type's state */
};

/* The cause of the last failure (static buffer), and setting it. */
const char *ops_failure(void);
void ops_set_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Load path and prepare op_key.  0; -1 when the library does not load
 * (its cause in ops_failure()); -2 when it loaded but its type has no
 * ops row or lacks op_key (c->lib stays loaded: the caller reports its
 * meta, then candidate_unload()s it). */
int ops_open(const char *path, const char *op_key, struct op_ctx *c);
/* Buffers and the untimed setup.  0 or -1. */
int ops_setup(struct op_ctx *c);
const char *ops_timing_scope(const struct op_ctx *c);
int ops_prepare(struct op_ctx *c);
int ops_raw_call(struct op_ctx *c);
int ops_check_call(struct op_ctx *c, int rc);
/* prepare, raw call, check. */
int ops_call_once(struct op_ctx *c);
long ops_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step);
int ops_validate(struct op_ctx *c);
void ops_meta_json(const struct op_ctx *c, json_t *meta);
json_t *ops_observed_json(const struct op_ctx *c);
/* type->memory_extra; *out NULL when there is nothing.  0 or -1. */
int ops_memory_extra(struct op_ctx *c, json_t **out);
/* Frees the state; the library stays loaded (no dlclose: a candidate's
 * destructors must not change the exit status of a finished run). */
void ops_close(struct op_ctx *c);

/* Helpers for the types' files. */
/* The type's zeroed state of size bytes, as c->st; NULL with the failure
 * set ("cannot allocate the <what> state"). */
void *ops_new_state(struct op_ctx *c, size_t size, const char *what);
/* calloc(cap + extra + OPS_BUF_SLACK) after checking 1 <= cap <=
 * OPS_MAX_CAPACITY; NULL with the failure set ("API capacity of <what>
 * ...").  extra: room a type tolerates beyond the API's claim. */
unsigned char *ops_buffer(const char *what, unsigned long long cap, unsigned long long extra);
/* A {min, max} pair of observed lengths (nulls when none was seen). */
struct ops_seen {
	unsigned long long min, max;
	int any;
};
void ops_seen_add(struct ops_seen *s, unsigned long long len);
json_t *ops_seen_json(const struct ops_seen *s);

/* ---- the options every measuring child program takes ------------------ */
/* --lib PATH, --op KEY, --cpu N, --seed-hex HEX (getopt_long entries). */
struct op_opts {
	const char *lib;
	const char *op;
	int cpu;                 /* -1: no pinning */
	unsigned char seed[OPS_SEED_LEN];
	size_t seed_len;
};
#define OPS_LONG_OPTIONS \
	{ "lib", required_argument, NULL, 'l' }, \
	{ "op", required_argument, NULL, 'o' }, \
	{ "cpu", required_argument, NULL, 'c' }, \
	{ "seed-hex", required_argument, NULL, 's' }
/* No library, no operation, no pinning, the default seed 00..2f. */
void op_opts_init(struct op_opts *o);
/* Handle getopt_long's c: 1 if it was one of ours, 0 if not, -1 on a bad
 * value. */
int op_opt(struct op_opts *o, int c, const char *arg);
/* 1 when --lib and --op were given. */
int op_opts_complete(const struct op_opts *o);
/* "keygen|enc|dec (kem), ..." for usage texts (static buffer). */
const char *ops_usage_list(void);

#endif
