/*
 * record.h — the timing record "ngcc-perf/record/1"
 * (records/<cand>/<label>__<opkey>.json, docs/method.md §11.5) and the per-process
 * entries it is made of.  This file owns the format; the measure engine
 * (src/campaign/measure.c) gathers the inputs and the report and validate
 * commands read what is written here.
 *
 * Key order of a record (extensions marked +):
 *   schema, status, +status_detail, candidate, label, instance, variant,
 *   flags, operation, op_key, input_bytes,
 *   plan {trials, iterations_per_trial, warmups, separate_processes,
 *         estimated_s, timeout_per_process_s, t1_s, setup_s,
 *         reused_calibration},
 *   seed {mode, bytes_hex}, inputs {mode, pool_size},
 *   kat, kat_not_passed, library, library_sha256, kat_log, kat_log_sha256,
 *   host {unfixed, problems, override_reason}, started_utc, ended_utc,
 *   load_average_start, load_average_end, environment, +cpu,
 *   +concurrent_cpus,
 *   counter {name, hz, +hz_source, resolution, overhead_cycles_median,
 *            overhead_ns_median},
 *   processes [ {status, exit_code, attempt, disturbed_reasons, command,
 *                wall_s, +error, +seed_hex, meta, trials, rss, validation,
 *                +observed, +counter, stderr_tail, +strays_killed} ],
 *   trials [ {calls, ns, cycles, invol_switches, vol_switches, migrations,
 *             minor_faults, major_faults} ]   (flattened, execution order),
 *   measurements, guide_100_measurements_met, mean_seconds, mean_cycles,
 *   operations_per_second, median_trial_seconds, min_trial_seconds,
 *   max_trial_seconds, median_trial_cycles, throughput_MB_per_second,
 *   dispersion {sd_trial_seconds, cv_trial_seconds, spread_trial_seconds,
 *               sd_trial_cycles, cv_trial_cycles, spread_trial_cycles},
 *   disturbed_retries, +retries [{process, attempt, reasons, file}],
 *   +background {invol_switches_per_s, migrations_per_s, cpu, utc}, noisy,
 *   sizes {pk_bytes, sk_bytes, ct_bytes, ss_bytes, signature_bytes,
 *          digest_bytes, observed {pk|sk|ct|ss: {min, max}}},
 *   kex, build_flags, baseline_rss_bytes, peak_rss_bytes, timing_scope.
 *
 * Statistics are null when there is no trial; cycles are null without a
 * counter.  RSS values are bytes.
 */
#ifndef NGCC_RECORD_H
#define NGCC_RECORD_H

#include <jansson.h>
#include <stddef.h>

#include "evidence/unitfile.h"
#include "method/plan.h"
#include "proc/spawn.h"
#include "stats/stats.h"

#define RECORD_KIND "record"
#define RECORD_VERSION 1

/* Statuses of a process and of a record (docs/method.md §7.1). */
#define ST_COMPLETE "complete"
#define ST_PARTIAL "partial"
#define ST_FAILED "failed"
#define ST_HARD_TIMEOUT "hard_timeout"
#define ST_INVALID "invalid_output"

/* What the engine knows about one process it ran. */
struct process_run {
	const struct spawn_res *res; /* how it ended */
	double timeout_s;
	int attempt;                 /* 1.. */
	json_t *command;             /* array of strings, stolen */
};

/* Build one "processes" entry from a finished driver run (parses the
 * driver's fd-3 JSON; a missing or corrupt result makes it failed). */
json_t *record_process_entry(const struct process_run *run);
const char *record_process_status(const json_t *entry);
/* Why this process failed, for status_detail: "" when complete. */
const char *record_process_error(const json_t *entry);

/* Disturbance rules (docs/method.md §4.4, R7 with the run's background). */
struct disturb_rule {
	int max_invol_switches;      /* planning constant, the base allowance */
	double ref_clock_hz;         /* rule (a); <= 0 switches it off */
	double invol_per_s;          /* background rates of the benchmark CPU */
	double migrations_per_s;     /* (0: none measured: the plain rule) */
};
/* Returns a JSON array of reasons (empty when not disturbed): per trial,
 * involuntary switches or migrations beyond plan_disturbance_allowance for
 * the trial's seconds, and rule (a) — only with the perf-user-cycles
 * counter. */
json_t *record_disturbed_reasons(const json_t *entry, const struct disturb_rule *rule);

/* Flatten the trials of the given process entries, in order.  Returns the
 * count; *out is malloc'd (NULL when 0). */
size_t record_flatten_trials(const json_t *processes, struct trial **out);

struct record_input {
	const char *candidate, *label, *instance, *variant, *flags, *op;
	const struct plan *plan;      /* NULL when there is none */
	const char *seed_mode, *seed_hex;
	const char *input_mode;
	const char *kat;
	int kat_not_passed;
	const char *library, *library_sha256, *kat_log, *kat_log_sha256;
	json_t *host;                 /* {unfixed, problems, override_reason}, borrowed */
	const char *started_utc, *ended_utc;
	json_t *load_average_start, *load_average_end, *environment; /* borrowed */
	int cpu;
	json_t *processes;            /* kept entries, borrowed */
	int disturbed_retries;
	json_t *retries;              /* [{process, attempt, reasons, file}] of the
				       * discarded attempts, borrowed (NULL: []) */
	json_t *background;           /* the rates the rule allowed for, borrowed (NULL: null) */
	json_t *concurrent_cpus;      /* CPUs measuring at the time, borrowed (NULL: [cpu]) */
	const char *detail;           /* cause when no process says it (e.g. calibration) */
};

/* The whole record, keys in §11.5 order; status derived from the processes
 * and the plan. */
json_t *record_build(const struct record_input *in);

/* Status rule: complete only if every process is complete and the number
 * of trials equals the plan's. */
const char *record_status(const json_t *processes, int planned_trials);

/* Load loadavg as [1, 5, 15] (null on failure). */
json_t *record_load_average(void);

/* ---- resume (R9, §11.2) ---- */
struct record_fp {
	const char *library_sha256;
	const struct plan *plan;
	const char *seed_mode;
	const char *input_mode;
};

/* The timing record as a unit file (evidence/unitfile.h); its context is
 * a struct record_fp. */
extern const struct unit_format record_format;
/* Classify an existing record file; *why gets a malloc'd explanation for
 * STALE, REDO and CORRUPT. */
enum unit_state record_classify(const char *path, const struct record_fp *fp, char **why);
/* 1 if rec matches fp; otherwise 0 and *why (malloc'd). */
int record_fp_matches(const json_t *rec, const struct record_fp *fp, char **why);

/* The record's fields against the format's table (evidence/check.h): types,
 * ranges, words.  0, or -1 with *why (malloc'd).  Every reader calls it. */
int record_check(const json_t *doc, char **why);

/* JSON for a plan, §11.5 item 2 order. */
json_t *record_plan_json(const struct plan *p);

#endif
