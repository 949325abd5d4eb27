/*
 * counter_probe — open the cycle counter the way every measuring process
 * does (host/counter.h), with /sys and /proc read under ROOT, and print
 * what it chose, one "key=value" line each, then check one bracket against
 * the unfenced reference reads around it.  tests/e2e/aarch64.sh compiles
 * it for AArch64 and runs it under qemu-user with fake cpufreq trees, so
 * that the cntvct_el0 path (reference ticks, or core cycles at a pinned
 * clock) runs emulated; no AArch64 hardware is needed.
 *
 *   counter_probe ROOT
 *
 * Lines: name, pinned_clock_hz, counter_frequency_hz, resolution,
 * why_fallback, then bracket=ok or bracket=bad with the figures.  Exit 0,
 * 1 when the bracket is bad, 2 on usage.
 */
#include <stdint.h>
#include <stdio.h>

#include "host/counter.h"
#include "host/counter_arm64.h"
#include "host/hostfs.h"
#include "host/spin.h"

/* A bracket's figure must lie between 0 (exclusive) and what the raw
 * reads taken just outside it give, converted the same way (+1 for the
 * rounding of each side). */
static int bracket_ok(struct counter *c)
{
	uint64_t state, raw0, raw1, count, most;

	raw0 = counter_read_raw();
	counter_start(c, &state);
	counter_busy_spin(100 * COUNTER_SPIN_CHUNK);
	count = counter_stop(c, &state);
	raw1 = counter_read_raw();
	if (c->kind == COUNTER_PINNED)
		most = arm64_scale_ticks(raw1 - raw0, (uint64_t)c->pinned_clock_hz,
					 (uint64_t)c->counter_frequency_hz) + 1;
	else if (c->kind == COUNTER_PERF)
		most = UINT64_MAX; /* core cycles: not comparable with the ticks */
	else
		most = raw1 - raw0;
	printf("bracket=%s count=%llu at_most=%llu\n", count > 0 && count <= most ? "ok" : "bad",
	       (unsigned long long)count, (unsigned long long)most);
	return count > 0 && count <= most;
}

int main(int argc, char **argv)
{
	struct counter c;
	int ok;

	if (argc != 2) {
		fprintf(stderr, "usage: counter_probe ROOT\n");
		return 2;
	}
	hostfs_set_root(argv[1]);
	counter_open(&c, 0);
	printf("name=%s\npinned_clock_hz=%.0f\ncounter_frequency_hz=%.0f\nresolution=%.6f\n"
	       "why_fallback=%s\n", c.name, c.pinned_clock_hz, c.counter_frequency_hz, c.resolution,
	       c.why_fallback ? c.why_fallback : "");
	ok = bracket_ok(&c);
	counter_close(&c);
	return ok ? 0 : 1;
}
