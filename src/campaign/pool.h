/*
 * pool.h — the input-pool pass (docs/method.md §14 R2): inside measure,
 * after the timing records, for every complete timing record whose t1 is
 * under POOL_MAX_T1_S, one ngcc-perf-driver --input-pool process, pinned to
 * the benchmark CPU,
 * writing <run>/pool/<ID>/<label>__<op>.json ("ngcc-perf/pool/1",
 * evidence/pool_json.h).  records/ is untouched: the pool changes no
 * seed-format value.
 *
 * The plan of one unit: P inputs (--input-pool P, default POOL_DEFAULT_SIZE;
 * 0 turns the pass off), POOL_ROUNDS rounds of one batch per input, each
 * batch of calls_per_batch calls aiming at trial_target_s / 100 seconds (at
 * least one call, at most max_iters_per_trial), one warm-up call per input.
 *
 * Resume: a complete record of the same library and pool size is kept;
 * others move to attempts/pool/ and are redone, at most 3 attempts.
 */
#ifndef NGCC_CAMPAIGN_POOL_H
#define NGCC_CAMPAIGN_POOL_H

#include "campaign/engine.h"
#include "evidence/pool_json.h"

#define POOL_DEFAULT_SIZE ENGINE_INPUT_POOL_DEFAULT
#define POOL_ROUNDS 5
#define POOL_WARMUPS 1
#define POOL_MAX_T1_S 0.010
/* A batch aims at trial_target_s / POOL_BATCH_DIVISOR seconds. */
#define POOL_BATCH_DIVISOR 100.0

/* Calls per batch for a unit of t1 seconds under the planning constants. */
long pool_calls_per_batch(const struct planning *p, double t1_s);
/* 3 × P × (rounds × calls + warm-ups) × t1 + 3 × P × S + 120 s */
double pool_timeout_s(long pool, long calls, double t1_s, double setup_s);

/* Record options.input_pool (0: off) and options.seed_mode in the run's
 * campaign.json. */
void pool_record_options(const struct engine_opts *o);

/*
 * Run the pass over the units of a measure phase, after their timing and
 * in the same phase (its host check, lock and environment: the pass adds
 * no phase of its own to campaign.json), with its own summary line
 * ("pool: …").  Returns EXIT_OK when every pool record is complete (or the
 * pass is off), EXIT_FAILED when some is not, EXIT_USAGE on refusal,
 * EXIT_INTERRUPTED after a signal.
 */
int pool_in_measure(struct engine *e);

#endif
