/*
 * memory_json.h — the memory record "ngcc-perf/memory/1"
 * (memory/<ID>/<label>__<op>.json, docs/method.md §8, R5, R6), which the
 * memory pass (campaign/memory.c) writes.
 *
 * A memory record repeats items 1–6 of the timing record (§11.5: identity,
 * plan — here the memory program's —, seed and inputs, KAT and library,
 * host and environment, counter), then:
 *
 *   process {status, exit_code, command, wall_s, error, stderr_tail,
 *     strays_killed (evidence/json.h; absent from records made before)},
 *   timing_record (path in the run),
 *   per_call {stack_peak_bytes[], heap_peak_bytes[], allocations[]}
 *     (raw, one entry per call; stack figures already minus the empty
 *     function's),
 *   calls, stack_peak_bytes (max), heap_peak_bytes (max),
 *   allocations_per_call (mean), heap_table_overflow, heap_counting,
 *   loaded_rss_bytes, baseline_rss_bytes, op_peak_rss_bytes,
 *   op_peak_method, empty_stack_bytes, stack_bytes, stack_scan (how the
 *   deepest changed word was looked for: from the written pages or in the
 *   whole stack, the same figure either way; absent from records made
 *   before it was kept);
 *   and where the type observes more (signatures' sign: the lengths of
 *   the signatures the memory program makes, MEMORY_SIGNATURES of
 *   campaign/memory.h, docs/method.md §9):
 *   observed_lengths {<object>_bytes[]} (raw), observed {<object>:
 *   {count, min, mean, max}} (derived).
 *
 * Statistics are null without calls.
 */
#ifndef NGCC_EVIDENCE_MEMORY_JSON_H
#define NGCC_EVIDENCE_MEMORY_JSON_H

#include <jansson.h>

#include "evidence/unitfile.h"

#define MEMORY_KIND "memory"
#define MEMORY_VERSION 1

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

/* The resume rule's view (evidence/unitfile.h): fingerprint the library's
 * SHA-256, fields checked by memory_check. */
extern const struct unit_format memory_format;

#endif
