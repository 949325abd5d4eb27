/*
 * samples_json.h — the sample record "ngcc-perf/samples/1"
 * (samples/<ID>/<label>__<op>.json, docs/method.md §7.2 and §14 R11), which
 * the sampling pass (campaign/sampling.c) writes.
 *
 * A sample record repeats items 1–6 of the timing record (§11.5: identity,
 * plan — here the sampling driver's —, seed and inputs, KAT and library,
 * host and environment, counter as the sampling process opened it), then:
 *
 *   process {status, exit_code, command, wall_s, error, stderr_tail,
 *     strays_killed},
 *   timing_record (path in the run),
 *   batch (calls per sample), brackets_per_sample (1, or batch when each
 *   call is bracketed alone: per_call_step), overhead_subtracted_ns
 *   (brackets_per_sample × counter.overhead_ns_median, taken off every
 *   sample before dividing by batch),
 *   batch_ns[] and batch_cycles[] (raw: one entry per sample, the bracketed
 *   nanoseconds and counter ticks of batch calls; batch_cycles empty
 *   without a counter),
 *   and derived from them: overhead_share (overhead_subtracted_ns over the
 *   median of batch_ns) and robust {n, median_s, iqm_s, p1_s, p5_s, p25_s,
 *   p75_s, p95_s, p99_s, mad_s, outliers, ci95_low_s, ci95_high_s,
 *   bootstrap_seed} over the per-call seconds
 *   (batch_ns[i] − overhead_subtracted_ns) / batch / 10⁹ (stats/robust.h),
 *   the bootstrap seeded from "<candidate>/<label>/<op_key>".
 *
 * robust is null without samples.  A complete record holds exactly
 * plan.samples samples.
 */
#ifndef NGCC_EVIDENCE_SAMPLES_JSON_H
#define NGCC_EVIDENCE_SAMPLES_JSON_H

#include <jansson.h>

#include "evidence/unitfile.h"

#define SAMPLES_KIND "samples"
#define SAMPLES_VERSION 1

/* Fill overhead_share and robust of rec from its raw fields. */
void samples_derive(json_t *rec);
/* Validation: the raw fields are whole (a complete record has plan.samples
 * samples, batch ≥ 1, the subtracted overhead is brackets × the counter's
 * median), and every derived figure recomputes (integers exactly, doubles
 * to 10⁻¹² relative); 0, or -1 with *why (malloc'd). */
int samples_recompute_check(const json_t *rec, char **why);
/* The record's fields against the format's table; 0, or -1 with *why. */
int samples_check(const json_t *doc, char **why);

/* The per-call seconds of rec's samples (malloc'd, *n set); NULL when the
 * raw fields are malformed. */
double *samples_per_call_seconds(const json_t *rec, size_t *n);

/* The resume rule's view: fingerprint the library's SHA-256. */
extern const struct unit_format samples_format;

#endif
