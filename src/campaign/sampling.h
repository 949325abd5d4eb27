/*
 * sampling.h — the per-call sampling pass (docs/method.md §7.2, §14 R11):
 * after measure, for every complete timing record whose operation's cold
 * call t1 (or mean call) is under 10 ms, one timing driver process in sampling mode
 * (driver/timing_sampling.h), pinned to the benchmark CPU, writing
 * <run>/samples/<ID>/<label>__<op>.json ("ngcc-perf/samples/1",
 * evidence/samples_json.h): 1000 samples of a batch of calls large enough
 * that the bracket overhead stays under 1 % of a sample, and the robust
 * statistics of the per-call times.
 *
 * On by default; `--no-sampling` turns it off, recorded in campaign.json
 * as options.sampling.  Resume: a complete record of the same library
 * (SHA-256) is kept; others move to attempts/samples/ and are redone, at
 * most 3 attempts.
 */
#ifndef NGCC_CAMPAIGN_SAMPLING_H
#define NGCC_CAMPAIGN_SAMPLING_H

#include "campaign/engine.h"
#include "evidence/samples_json.h"

#define SAMPLING_NO_PASS_OPTION "--no-sampling"

/* Samples per operation: SAMPLING_SAMPLES, or NGCC_PERF_SAMPLES when it
 * is a whole number in range (else a warning, once). */
long sampling_samples_per_operation(void);

/* Hard timeout of a sampling process: 3 × samples × batch × call +
 * 3 S + 120 s. */
double sampling_timeout_s(long samples, long batch, double call_s, double setup_s);

/* Remove --no-sampling from argv (before getopt); returns 1 if it was
 * there. */
int sampling_strip_option(int *argc, char **argv);
/* Record options.sampling in the run's campaign.json. */
void sampling_record_option(const struct engine_opts *o, int enabled);

/*
 * Run the pass with the measuring phases' options.  measure and campaign
 * call it after timing (and before the memory pass).  Returns EXIT_OK when
 * every sample record is complete, EXIT_FAILED when some is not,
 * EXIT_USAGE on refusal.
 */
int sampling_phase(const struct engine_opts *o);
/* The hook of measure and campaign after timing (exit code rc): record
 * options.sampling and run the pass unless o->no_sampling; the worse of
 * rc and the pass's exit code. */
int sampling_after_measure(const struct engine_opts *o, int rc);

#endif
