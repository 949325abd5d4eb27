/*
 * clock.c — the clock probe (docs/method.md §6.4): busy windows of counter ticks
 * per second of CLOCK_MONOTONIC_RAW, on the calling thread or pinned to a
 * CPU.  The environment block records it; the host check's steady-clock
 * rule judges it.
 */
#include "host/clock.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "host/spin.h"
#include "util/util.h"

static double window_rate(struct counter *c, int window_ms)
{
	uint64_t state, ticks, t0, t1, span = (uint64_t)window_ms * 1000000ull;

	counter_start(c, &state);
	t0 = clock_raw_ns();
	do {
		counter_busy_spin(COUNTER_SPIN_CHUNK);
		t1 = clock_raw_ns();
	} while (t1 - t0 < span);
	ticks = counter_stop(c, &state);
	return (double)ticks * 1e9 / (double)(t1 - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int clock_probe_run(const struct counter *c, int windows, int window_ms, struct clock_probe *out)
{
	struct counter copy = *c;
	double *rates;
	int i;

	memset(out, 0, sizeof(*out));
	if (c->kind == COUNTER_NONE || windows < 1 || window_ms < 1)
		return -1;
	rates = xcalloc((size_t)windows, sizeof(*rates));
	window_rate(&copy, window_ms); /* warm-up: wake the core up to speed */
	for (i = 0; i < windows; i++)
		rates[i] = window_rate(&copy, window_ms);
	qsort(rates, (size_t)windows, sizeof(*rates), cmp_double);
	out->windows = windows;
	out->min = rates[0];
	out->max = rates[windows - 1];
	out->median = windows % 2 ? rates[windows / 2]
				  : (rates[windows / 2 - 1] + rates[windows / 2]) / 2;
	out->iqr = rates[3 * windows / 4] - rates[windows / 4];
	/* Converted ticks run at the pinned clock by construction: say so. */
	out->source = c->kind == COUNTER_PERF     ? "user-cycles"
		      : c->kind == COUNTER_PINNED ? "pinned-clock-cycles"
						  : "reference-ticks";
	free(rates);
	return 0;
}

int clock_probe_on_cpu(int cpu, const struct counter *c, int windows, int window_ms,
		       struct clock_probe *out)
{
	cpu_set_t saved, one;
	int have_saved, rc;

	have_saved = sched_getaffinity(0, sizeof(saved), &saved) == 0;
	if (cpu >= 0 && cpu < CPU_SETSIZE) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* If pinning fails the affinity check reports it; the probe
		 * then describes whichever CPU we run on. */
		sched_setaffinity(0, sizeof(one), &one);
	}
	rc = clock_probe_run(c, windows, window_ms, out);
	if (have_saved)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}
