/*
 * pool_json.h — the input-pool record "ngcc-perf/pool/1"
 * (pool/<ID>/<label>__<op>.json, docs/method.md §14 R2), which the pool
 * pass (campaign/pool.c) writes.  It changes no seed-format value: the
 * timing record beside it is made without the pool.
 *
 * A pool record repeats items 1–6 of the timing record (§11.5: identity;
 * plan — here the pool's {pool_size, rounds, calls_per_batch,
 * warmups_per_input, timeout_s, t1_s, setup_s} —; seed {mode
 * "per-input", rule}; inputs {mode "pool", pool_size}; KAT and library;
 * host and environment; the driver's counter), then:
 *
 *   process {status, exit_code, command, wall_s, error, stderr_tail,
 *     strays_killed},
 *   timing_record (path in the run),
 *   per_input [{input, seed_hex, batch_ns[], batch_cycles[] (null entries
 *     without a cycle counter), preempted_batches_redone (batches timed
 *     again after more involuntary context switches than the background
 *     allows, at most 3 per batch),
 *     median_ns_per_call}] (raw batches, one per round, of
 *     calls_per_batch calls each; the median derived),
 *   median_ns_per_call_min, median_ns_per_call_max, input_ratio (max/min
 *     of the per-input medians), ratio_threshold (POOL_FLAG_RATIO),
 *     input_dependent (input_ratio > ratio_threshold) — all derived, null
 *     (false) without a complete set of batches.
 */
#ifndef NGCC_EVIDENCE_POOL_JSON_H
#define NGCC_EVIDENCE_POOL_JSON_H

#include <jansson.h>

#include "evidence/unitfile.h"

#define POOL_KIND "pool"
#define POOL_VERSION 1
/* The "input-dependent timing" flag: the slowest input's median over the
 * fastest's above this (docs/method.md §14 R2 says why 1.5). */
#define POOL_FLAG_RATIO 1.5

/* The flag's rule, for the record and for validate. */
int pool_flag(double ratio, double threshold);
/* Fill the derived figures of rec (each input's median_ns_per_call, the
 * min, max, ratio, threshold and flag) from its raw batches. */
void pool_derive(json_t *rec);
/* Validation: recompute them; 0 when they agree, else -1 with *why
 * (malloc'd). */
int pool_recompute_check(const json_t *rec, char **why);
/* The record's fields against the format's table; 0, or -1 with *why. */
int pool_check(const json_t *doc, char **why);

/* The resume rule's view: the library's SHA-256 and the pool's size
 * (struct pool_fp), fields checked by pool_check. */
struct pool_fp {
	const char *library_sha256;
	long pool_size;
};
extern const struct unit_format pool_format;

#endif
