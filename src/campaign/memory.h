/*
 * memory.h — the memory pass (docs/method.md §2.3 "extension passes", §8, §14 R5
 * and R6): after measure, for every complete timing record, one
 * bin/ngcc-perf-memory process per operation, pinned to the benchmark CPU,
 * writing <run>/memory/<ID>/<label>__<op>.json ("ngcc-perf/memory/1").
 *
 * The record's format, its derived figures and its table of fields are
 * evidence/memory_json.h's.
 *
 * Resume: a complete record of the same library (SHA-256) is kept; others
 * move to attempts/memory/ and are redone, at most 3 attempts.
 */
#ifndef NGCC_CAMPAIGN_MEMORY_H
#define NGCC_CAMPAIGN_MEMORY_H

#include <jansson.h>

#include "campaign/engine.h"
#include "evidence/memory_json.h"

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
