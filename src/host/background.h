/*
 * background.h — the host's background disturbance on a benchmark CPU, and
 * what it lets a trial show before the trial counts as disturbed (R7,
 * docs/method.md §4.4).
 *
 * On a virtual machine nearly every trial of a second sees involuntary
 * context switches that no rerun avoids: the hypervisor and the host's own
 * ticks cause them at a steady rate.  Retrying every such trial multiplies
 * a campaign's cost without choosing a better attempt.  So once per run the
 * background is measured: a thread pinned to the benchmark CPU spins in
 * user mode through fixed windows and counts its involuntary switches and
 * migrations, and the CPU time it got.  A window in which the thread got
 * less than BACKGROUND_MIN_SHARE of the CPU had a competitor — another
 * runnable task on the benchmark CPU, which is a disturbance, not the
 * host's background — and does not count.  The highest per-second rate
 * over the other windows is kept (with every window's counts, so the
 * figure can be recomputed), and a trial of s seconds is disturbed only
 * beyond
 *
 *     allowance(s) = base + ceil(r·s + 3·sqrt(r·s))
 *
 * (base: max_invol_switches_per_trial for switches, 0 for migrations; the
 * square-root term is a three-sigma margin for counts that arrive like
 * Poisson events at rate r).  On a quiet, fixed host r is 0 and the rule
 * is the plain R7 threshold.  When fewer than half of the windows were
 * free of competitors the CPU is busy: the probe says so (contended) and
 * the rates are 0, so the plain threshold applies and a busy process on
 * the benchmark CPU still causes retries.  The rule itself is plan_disturbance_allowance
 * (campaign/plan.h): it is part of the method, applied where records are
 * made.
 */
#ifndef NGCC_HOST_BACKGROUND_H
#define NGCC_HOST_BACKGROUND_H

#include <jansson.h>

#define BACKGROUND_WINDOWS 8
#define BACKGROUND_WINDOW_S 0.125
#define BACKGROUND_MIN_SHARE 0.9

struct background_window {
	double wall_s, cpu_s;        /* wall time, and the thread's CPU time */
	long invol_switches, migrations;
};

struct background {
	int cpu;
	char utc[32];
	double window_s;                 /* BACKGROUND_WINDOW_S × host_probe_scale() */
	int n_windows;
	struct background_window w[BACKGROUND_WINDOWS];
	char migrations_source[64];
	double invol_per_s_max;          /* max over quiet windows of count / wall_s */
	double migrations_per_s_max;
	int quiet_windows;               /* windows with the CPU share >= BACKGROUND_MIN_SHARE */
	int contended;                   /* fewer than half were: the rates are 0 */
};

/* Spin BACKGROUND_WINDOWS windows of BACKGROUND_WINDOW_S seconds (scaled by
 * NGCC_PERF_HOST_PROBE_SCALE, host/clock.h) on a
 * thread pinned to cpu (the caller holds the CPU's lock).  0, or -1 with
 * *err (malloc'd) when the thread cannot be pinned there. */
int background_measure(int cpu, struct background *out, char **err);

/* Recompute the maxima, quiet windows and contention from the windows. */
void background_rates(struct background *b);

/* {cpu, utc, method, window_s, min_cpu_share, windows [{wall_s, cpu_s,
 * invol_switches, migrations}], migrations_source, quiet_windows,
 * contended, invol_switches_per_s, migrations_per_s, rule} and back (0, or -1 when j is not such an
 * object). */
json_t *background_json(const struct background *b);
int background_from_json(const json_t *j, struct background *out);

#endif
