/*
 * memory.h — the memory pass (docs/method.md §2.3 "extension passes", §8, §14 R5
 * and R6): after measure, for every complete timing record, one
 * bin/ngcc-perf-memory process per operation, pinned to the benchmark CPU,
 * writing <run>/memory/<ID>/<label>__<op>.json ("ngcc-perf/memory/1").
 *
 * A memory record repeats items 1–6 of the timing record (§11.5: identity,
 * plan — here the memory program's —, seed and inputs, KAT and library,
 * host and environment, counter), then:
 *
 *   process {status, exit_code, command, wall_s, error, stderr_tail},
 *   timing_record (path in the run),
 *   per_call {stack_peak_bytes[], heap_peak_bytes[], allocations[]}
 *     (raw, one entry per call; stack figures already minus the empty
 *     function's),
 *   calls, stack_peak_bytes (max), heap_peak_bytes (max),
 *   allocations_per_call (mean), heap_table_overflow, heap_counting,
 *   loaded_rss_bytes, baseline_rss_bytes, op_peak_rss_bytes,
 *   op_peak_method, empty_stack_bytes, stack_bytes;
 *   and where the type observes more (signatures' sign: the lengths of
 *   MEMORY_SIGNATURES signatures, docs/method.md §9):
 *   observed_lengths {<object>_bytes[]} (raw), observed {<object>:
 *   {count, min, mean, max}} (derived).
 *
 * Statistics are null without calls.  Resume: a complete record of the
 * same library (SHA-256) is kept; others move to attempts/memory/ and are
 * redone, at most 3 attempts.
 */
#ifndef NGCC_CAMPAIGN_MEMORY_H
#define NGCC_CAMPAIGN_MEMORY_H

#include <jansson.h>

#include "campaign/engine.h"

#define MEMORY_KIND "memory"
#define MEMORY_VERSION 1
#define MEMORY_PROGRAM_NAME "ngcc-perf-memory"
#define MEMORY_MAX_CALLS 20
#define MEMORY_CALL_BUDGET_S 2.0
#define MEMORY_NO_PASS_OPTION "--no-memory-pass"
/* Signatures the memory program makes for the observed lengths (sign). */
#define MEMORY_SIGNATURES 100

/* Calls per process: 20, fewer when t1 says 20 would take over 2 s (at
 * least 1).  Each call is made twice (RSS, then painted stack). */
long memory_calls(double t1_s);
/* 3 × 2 × calls × t1 + 3 S + 120 s */
double memory_timeout_s(long calls, double t1_s, double setup_s);

/* Fill the derived statistics of rec from its per_call arrays (keys
 * calls, stack_peak_bytes, heap_peak_bytes, allocations_per_call) and,
 * when it has observed_lengths, its observed ranges. */
void memory_derive(json_t *rec);
/* Validation: recompute them from the raw arrays; 0 when they agree, else
 * -1 with *why (malloc'd). */
int memory_recompute_check(const json_t *rec, char **why);
/* The record's fields against the format's table (evidence/check.h); 0,
 * or -1 with *why (malloc'd).  Every reader calls it. */
int memory_check(const json_t *doc, char **why);

/* Remove --no-memory-pass from argv (before getopt); returns 1 if it was
 * there. */
int memory_strip_option(int *argc, char **argv);
/* Record options.memory_pass in the run's campaign.json. */
void memory_record_option(const struct engine_opts *o, int enabled);

/*
 * Run the pass with the measuring phases' options (candidate ids; empty:
 * every built candidate).  measure and campaign call it after timing.
 * Returns EXIT_OK when every memory record is complete, EXIT_FAILED when
 * some is not, EXIT_USAGE on refusal, EXIT_SYSTEM when the program is
 * missing.
 */
int memory_phase(const struct engine_opts *o);

#endif
