/*
 * clock.h — the clock probe (docs/method.md §6.4): how fast the counter ticks
 * against CLOCK_MONOTONIC_RAW while the CPU is busy.
 */
#ifndef NGCC_HOST_CLOCK_H
#define NGCC_HOST_CLOCK_H

#include "host/counter.h"

/* Method §6.4: one warm-up window, then 21 busy windows of 50 ms. */
#define CLOCK_PROBE_WINDOWS 21
#define CLOCK_PROBE_WINDOW_MS 50

struct clock_probe {
	double median, min, max, iqr; /* ticks (or cycles) per second */
	int windows;
	const char *source; /* "user-cycles", "reference-ticks" (no hardware counter)
	                       or "pinned-clock-cycles" (AArch64: cntvct_el0
	                       ticks converted at the pinned clock) */
};

/* Busy windows of counter ticks per second of CLOCK_MONOTONIC_RAW, on the
 * calling thread (pin it first).  -1 if the counter cannot count. */
int clock_probe_run(const struct counter *c, int windows, int window_ms, struct clock_probe *out);
/* The same, temporarily pinned to cpu (cpu < 0: where we are). */
int clock_probe_on_cpu(int cpu, const struct counter *c, int windows, int window_ms,
		       struct clock_probe *out);

#endif
