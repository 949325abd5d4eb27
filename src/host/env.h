/*
 * env.h — the environment block (docs/method.md §3, R15) with its clock probe
 * (host/clock.h), the reference clock, the report's clock text (docs/report-format.md §5.2) and
 * environment equality (R10).
 */
#ifndef NGCC_HOST_ENV_H
#define NGCC_HOST_ENV_H

#include <jansson.h>

#include "host/clock.h"
#include "host/counter.h"
#include "util/util.h"

struct env_opts {
	int probe_windows;   /* 0: no clock probe (core_clock_hz null) */
	int probe_window_ms;
	int overhead_brackets; /* empty brackets for the counter overhead (R8) */
};
#define ENV_OPTS_DEFAULT { CLOCK_PROBE_WINDOWS, CLOCK_PROBE_WINDOW_MS, 31 }

/*
 * The environment block for benchmark CPU `cpu`, with the counter c (NULL:
 * open one here).  The full probe takes about 1.1 s, so capture it once per
 * phase (orchestrator side), not in every timing process.  Keys, in order:
 *
 *   hostname, architecture, cpu_model, machine (aarch64 devicetree model,
 *   else null), cpu_number (int), logical_cpus_online (int), virtualized
 *   (bool), microcode, memory_total_kib (int), os, kernel, compiler,
 *   build_tool, perf_event_paranoid, cpufreq_governor, cpufreq_driver,
 *   cpufreq_min_khz, cpufreq_max_khz, intel_pstate_no_turbo, cpufreq_boost,
 *   smt_control                       -- strings or null (sysfs as read)
 *   core_clock_hz: {median, min, max, iqr, windows, window_ms, source} or
 *     null; source "user-cycles", or "reference-ticks" when there is no
 *     hardware counter (then it is the TSC/cntvct rate, not the core clock),
 *     or "pinned-clock-cycles" (cntvct_el0 ticks converted at the pinned
 *     clock: that clock, not a measurement of the core)
 *   core_clock_mhz: 50 × round(median / 50e6) or null
 *   counter: {name, hz, resolution, reference_ticks, why_fallback,
 *     overhead_brackets, overhead_ticks_median, overhead_ns_median,
 *     raw_source}
 *   recorded only: isolcpus, nohz_full, irq_default_affinity,
 *   deepest_cstate, thp, aslr (strings or null), load_average ([1, 5, 15]
 *   or null), other_runnable_tasks_on_cpu (int or null)
 */
json_t *env_capture(int cpu, const struct counter *c);
json_t *env_capture_opts(int cpu, const struct counter *c, const struct env_opts *o);

/* cpufreq_max_khz × 1000, else core_clock_hz.median, else 0. */
double env_reference_clock_hz(const json_t *env);
/* 50 × round(hz / 50e6) */
long env_clock_mhz(double hz);
/* The `clock` row of the assessment-environment table; caller frees. */
char *env_clock_text(const json_t *env);
/* smt_control as pages show it: notsupported/notimplemented → none. */
const char *env_smt_text(const json_t *env);
/* "on", "off" or "unknown" (no_turbo = 1 → off, else from boost). */
const char *env_turbo_text(const json_t *env);

/* Compare the R10 keys (plus cpu_number when same_cpu); each difference
 * is pushed as "<key>: <a> -> <b>".  Returns 1 if equal, 0 if not. */
int env_equal(const json_t *a, const json_t *b, int same_cpu, struct strlist *diffs);

#endif
