/*
 * sampling.h — the fixed rules of the per-call sampling pass (docs/method.md
 * §14 R11): how many samples, which operations are sampled and how many
 * calls each sample brackets so that the counter bracket's own cost stays
 * under 1 % of a sample.  Pure functions: the driver chooses its batch with
 * them, the pass and the tests check the choice with the same code.
 */
#ifndef NGCC_METHOD_SAMPLING_H
#define NGCC_METHOD_SAMPLING_H

#define SAMPLING_SAMPLES 1000
/* NGCC_PERF_SAMPLES: another number of samples per operation (10 to
 * 1000000), for the tool's own test suite, which sets 100; each record
 * says how many it holds (plan.samples) and the pages show it. */
#define SAMPLING_SAMPLES_ENV "NGCC_PERF_SAMPLES"
#define SAMPLING_SAMPLES_MIN 10
#define SAMPLING_SAMPLES_MAX 1000000
/* Operations whose cold single call t1 (or mean call) is below this are
 * sampled. */
#define SAMPLING_MAX_T1_S 0.010
/* The bracket overhead a sample may carry, as a share of the sample. */
#define SAMPLING_OVERHEAD_SHARE 0.01
/* No sample brackets more calls than this (a call of a few ns). */
#define SAMPLING_MAX_BATCH 100000L

/* 1 when an operation is sampled: its cold single call t1_s, or its mean
 * time per timed call mean_s when that is lower, is under 10 ms.  The
 * mean counts as well because one cold call on a busy host can take far
 * longer than the operation does: the same operations are then sampled
 * on every run. */
int sampling_wanted(double t1_s, double mean_s);

/*
 * Calls per sample: the least B ≥ 1 with overhead_ns ≤ 1 % of B·call_ns,
 * that is ⌈overhead_ns / (0.01·call_ns)⌉, capped at SAMPLING_MAX_BATCH.
 * 1 when either figure is unknown (≤ 0) or when every call is bracketed
 * alone anyway (per_call_step: batching cannot lower the share).
 */
long sampling_batch(double overhead_ns, double call_ns, int per_call_brackets);

#endif
