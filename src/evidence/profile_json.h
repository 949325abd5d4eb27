/*
 * profile_json.h — the profile record "ngcc-perf/profile/1"
 * (profile/<cand>/<label>__<opkey>.json, docs/method.md §11.6) and the pure
 * derivation of its shares, calls per operation and corrected shares from
 * the raw `calls` (docs/method.md §10.4–§10.5), which `validate` reuses.
 *
 * Key order (extensions marked +):
 *   schema, status, +status_detail, candidate, label, operation, op_key,
 *   input_bytes,
 *   library_instrumented, library_instrumented_sha256, +library,
 *   +library_sha256, wrapped_symbols, command, stderr_tail, +strays_killed,
 *   meta {tick_source, tick_hz, +tick_hz_source, warmups, iterations,
 *         overflow_calls},
 *   total {operations, ticks},
 *   calls [{fn, in_bits, out_bits, calls, ticks}],
 *   share {fn: fraction}, hash_share, drng_share,
 *   calls_per_operation {fn: calls / operations},
 *   overhead {o_in, o_out},
 *   corrected {share {fn: fraction}, hash_share},
 *   crosscheck {ticks_per_op, timing_mean_cycles, ratio, +flagged, +basis},
 *   coverage {status, hits}.
 *
 * Function names are "drng", "pseudoXOF", "pseudohash", "sm3hash"; maps
 * are in byte order of the names.  Fractions, not percent.  A record is
 * `complete` only if the driver exited 0 and reported its total.
 */
#ifndef NGCC_PROFILE_JSON_H
#define NGCC_PROFILE_JSON_H

#include <jansson.h>

#include "evidence/unitfile.h"
#include <stdint.h>

#define PROFILE_KIND "profile"
#define PROFILE_VERSION 1
#define PROFILE_CROSSCHECK_LIMIT 0.15   /* |ratio - 1| above this is flagged */

/*
 * The derived values of a profile from its raw data: returns an object
 * {share, hash_share, drng_share, calls_per_operation, corrected}, in that
 * order, where corrected = {share, hash_share}.  With no operations or no
 * ticks every value is null.
 *
 *   share[fn] = Σ ticks of fn / total_ticks
 *   hash_share = Σ share[fn], fn ≠ drng;  drng_share = share[drng] or 0
 *   calls_per_operation[fn] = Σ calls of fn / operations
 *   corrected share[fn] = (T_fn − n_fn·o_in) / (T_total − n_all·(o_in + o_out)),
 *   clamped at 0, n_all counting overflow_calls too.
 */
json_t *profile_derive(const json_t *calls, long long operations, long long total_ticks,
		       long long overflow_calls, double o_in, double o_out);

/*
 * Recompute the derived values of a record from its raw data and compare
 * (doubles to 1e-12 relative).  0 when they agree; else 1 with *why
 * (malloc'd).
 */
int profile_check(const json_t *record, char **why);

/* Cross-check against the timing record (docs/method.md §10.5, R12).  timing may
 * be NULL (no complete record): the values are then null. */
json_t *profile_crosscheck(long long operations, long long total_ticks, const char *tick_source,
			   double tick_hz, const json_t *timing);

/* What the campaign knows besides the driver's result. */
struct spawn_res;
struct profile_input {
	const char *candidate, *label, *operation;
	const char *library_instrumented, *library_instrumented_sha256;
	const char *library, *library_sha256;
	json_t *wrapped_symbols;   /* array, borrowed */
	json_t *command;           /* array, borrowed */
	const char *stderr_tail;
	const struct spawn_res *process; /* how the driver ended; NULL: not started */
	int exited_ok;             /* the driver exited 0 */
	const char *detail;        /* why it failed, when the result says nothing */
	const json_t *result;      /* the driver's fd-3 object, or NULL */
	const json_t *timing;      /* the complete timing record, or NULL */
	json_t *coverage;          /* {status, hits}, borrowed */
};

/* The whole record in the order above. */
json_t *profile_build(const struct profile_input *in);

/* "complete" when the driver exited 0 and reported operations and total. */
const char *profile_status(int exited_ok, const json_t *result);

/* A profile's inputs (docs/method.md §11.2): the timed library and the
 * instrumented relink it was measured on. */
struct profile_fp {
	const char *library_sha256;
	const char *instrumented_sha256;
};
/* The profile record as a unit file (evidence/unitfile.h); its context is
 * a struct profile_fp. */
extern const struct unit_format profile_format;
/* The profile's fields against the format's table (evidence/check.h);
 * 0, or -1 with *why (malloc'd).  Every reader calls it. */
int profile_check_fields(const json_t *doc, char **why);

#endif
