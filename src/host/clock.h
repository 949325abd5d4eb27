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

/* NGCC_PERF_HOST_PROBE_SCALE (docs/method.md §6.4): every probe of the host
 * — the clock probe's windows, the background probe's windows, the pause
 * between steady-clock probes — lasts this factor times its default length.
 * Read once; 1 when unset, or (with a warning) when not a number from 0.01
 * to 10.  The evidence records the lengths used, not the factor. */
#define HOST_PROBE_SCALE_ENV "NGCC_PERF_HOST_PROBE_SCALE"
double host_probe_scale(void);
/* The factor in v (0.01 to 10): 0, else -1 with *scale untouched. */
int host_probe_scale_parse(const char *v, double *scale);
/* ms × host_probe_scale(), at least 1 ms. */
int host_probe_scaled_ms(int ms);

struct clock_probe {
	double median, min, max, iqr; /* ticks (or cycles) per second */
	int windows;
	const char *source; /* "user-cycles" or "reference-ticks" (no hardware counter) */
};

/* Busy windows of counter ticks per second of CLOCK_MONOTONIC_RAW, on the
 * calling thread (pin it first).  -1 if the counter cannot count. */
int clock_probe_run(const struct counter *c, int windows, int window_ms, struct clock_probe *out);
/* The same, temporarily pinned to cpu (cpu < 0: where we are). */
int clock_probe_on_cpu(int cpu, const struct counter *c, int windows, int window_ms,
		       struct clock_probe *out);

#endif
