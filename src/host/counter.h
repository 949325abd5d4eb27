/*
 * counter.h — the cycle counter used by the timing driver and by the
 * profiling wrappers (docs/method.md §6).  Preference: perf_event_open user-mode
 * core cycles ("perf-user-cycles"); fallback: fenced TSC on x86_64
 * ("tsc-fenced") or cntvct_el0 on AArch64 ("cntvct"), calibrated against
 * CLOCK_MONOTONIC_RAW; else none (cycles are null).  On AArch64 the perf
 * event is read in user space where the kernel allows it, and cntvct_el0
 * ticks become core cycles ("pinned-clock-cycles") when the clock is
 * pinned (host/counter_arm64.h).
 *
 * A measuring phase calibrates its counter once and hands the rate to each
 * of its driver processes ("NAME=HZ", struct counter_rate), which take it
 * instead of calibrating for 100 ms when they open the same counter
 * (docs/method.md §6.2).  hz_source says which happened.
 */
#ifndef NGCC_COUNTER_H
#define NGCC_COUNTER_H

#include <stddef.h>
#include <stdint.h>

enum counter_kind {
	COUNTER_NONE = 0,
	COUNTER_PERF = 1,    /* perf-user-cycles: core cycles, user mode */
	COUNTER_TSC = 2,     /* tsc-fenced: reference ticks */
	COUNTER_CNTVCT = 3,  /* cntvct: reference ticks */
	COUNTER_PINNED = 4,  /* pinned-clock-cycles: cntvct_el0 ticks x pinned
	                        core clock / cntfrq_el0 (AArch64) */
};

struct counter {
	enum counter_kind kind;
	const char *name;    /* "perf-user-cycles", "tsc-fenced", "cntvct",
	                        "pinned-clock-cycles", "none" */
	int fd;              /* perf event fd, -1 otherwise */
	double hz;           /* ticks per second (calibrated for fallbacks;
	                        measured core clock for perf) */
	double resolution;   /* ticks per increment (1, except pinned-clock-cycles:
	                        pinned clock / cntfrq_el0 cycles per tick) */
	const char *why_fallback; /* why perf was not used, or NULL */
	const char *hz_source;    /* COUNTER_HZ_PROCESS, COUNTER_HZ_PHASE, or
	                             NULL without a counter */
	/* AArch64 only (0/NULL elsewhere): */
	void *user_page;          /* perf: the event's mmap page when the PMU
	                             is read in user space, else NULL */
	double counter_frequency_hz; /* cntvct, pinned-clock-cycles: cntfrq_el0 */
	double pinned_clock_hz;   /* pinned-clock-cycles: the pinned core clock */
};

#define COUNTER_HZ_PROCESS "process" /* calibrated by the process itself */
#define COUNTER_HZ_PHASE "phase"     /* the phase's rate, given to the process */

/* A counter's name and rate as one process hands them to another. */
struct counter_rate {
	char name[32];
	double hz;
};

/* Open the best available counter.  force_fallback: skip perf (tests).
 * Returns 0 (kind may be COUNTER_NONE). */
int counter_open(struct counter *c, int force_fallback);
/* The same, but when given (may be NULL) names the counter this process
 * opens, its rate is taken (hz_source "phase") instead of calibrating for
 * 100 ms; perf-user-cycles must still count cycles over a 1 ms spin.  A
 * different name (the phase had perf and this process has not, or the
 * other way round) leaves the process to calibrate as counter_open does. */
int counter_open_given(struct counter *c, int force_fallback, const struct counter_rate *given);
void counter_close(struct counter *c);

/* "NAME=HZ" (NAME one of our counters' names, HZ > 0 and finite) into *r:
 * 0, or -1 when the text is not that. */
int counter_rate_parse(const char *text, struct counter_rate *r);
/* "NAME=HZ" of an open counter, HZ with 17 significant digits so that it
 * parses back to the same double: 0, or -1 (nothing written) for no
 * counter or a buffer too small. */
int counter_rate_format(const struct counter *c, char *buf, size_t n);

/* Bracket a trial: start resets+enables (perf) or reads the TSC; stop
 * returns elapsed ticks.  Never a per-call read inside timed loops. */
void counter_start(struct counter *c, uint64_t *state);
uint64_t counter_stop(struct counter *c, const uint64_t *state);

/* Cheap raw read without a system call (wrappers): TSC/cntvct, or rdpmc
 * via the perf mmap page when available, else CLOCK_MONOTONIC_RAW ns. */
uint64_t counter_read_raw(void);
const char *counter_raw_source(void); /* name of what counter_read_raw reads */
/* Ticks per second of counter_read_raw: given's rate when given (may be
 * NULL) names the counter whose ticks counter_read_raw reads (tsc-fenced,
 * cntvct), else measured over 100 ms against CLOCK_MONOTONIC_RAW.
 * *source: COUNTER_HZ_PHASE or COUNTER_HZ_PROCESS. */
double counter_raw_hz(const struct counter_rate *given, const char **source);

/* Median over n empty start/stop brackets, in ticks and ns (R8). */
void counter_overhead(struct counter *c, int n, double *ticks_median, double *ns_median);

/* CLOCK_MONOTONIC_RAW in ns. */
uint64_t clock_raw_ns(void);

#endif
