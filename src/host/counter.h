/*
 * counter.h — the cycle counter used by the timing driver and by the
 * profiling wrappers (docs/method.md §6).  Preference: perf_event_open user-mode
 * core cycles ("perf-user-cycles"); fallback: fenced TSC on x86_64
 * ("tsc-fenced") or cntvct_el0 on AArch64 ("cntvct"), calibrated against
 * CLOCK_MONOTONIC_RAW; else none (cycles are null).
 */
#ifndef NGCC_COUNTER_H
#define NGCC_COUNTER_H

#include <stdint.h>

enum counter_kind {
	COUNTER_NONE = 0,
	COUNTER_PERF = 1,    /* perf-user-cycles: core cycles, user mode */
	COUNTER_TSC = 2,     /* tsc-fenced: reference ticks */
	COUNTER_CNTVCT = 3,  /* cntvct: reference ticks */
};

struct counter {
	enum counter_kind kind;
	const char *name;    /* "perf-user-cycles", "tsc-fenced", "cntvct", "none" */
	int fd;              /* perf event fd, -1 otherwise */
	double hz;           /* ticks per second (calibrated for fallbacks;
	                        measured core clock for perf) */
	double resolution;   /* ticks per increment (1 for all we support) */
	const char *why_fallback; /* why perf was not used, or NULL */
};

/* Open the best available counter.  force_fallback: skip perf (tests).
 * Returns 0 (kind may be COUNTER_NONE). */
int counter_open(struct counter *c, int force_fallback);
void counter_close(struct counter *c);

/* Bracket a trial: start resets+enables (perf) or reads the TSC; stop
 * returns elapsed ticks.  Never a per-call read inside timed loops. */
void counter_start(struct counter *c, uint64_t *state);
uint64_t counter_stop(struct counter *c, const uint64_t *state);

/* Cheap raw read without a system call (wrappers): TSC/cntvct, or rdpmc
 * via the perf mmap page when available, else CLOCK_MONOTONIC_RAW ns. */
uint64_t counter_read_raw(void);
const char *counter_raw_source(void); /* name of what counter_read_raw reads */

/* Median over n empty start/stop brackets, in ticks and ns (R8). */
void counter_overhead(struct counter *c, int n, double *ticks_median, double *ns_median);

/* CLOCK_MONOTONIC_RAW in ns. */
uint64_t clock_raw_ns(void);

#endif
