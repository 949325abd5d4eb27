/*
 * counter_arm64.c — the AArch64 decisions of the cycle counter
 * (docs/method.md §6.1, §6.2): may the PMU be read in user space, how the
 * perf mmap page gives the count, is a perf rate plausible, is the core
 * clock pinned (cpufreq, through host/hostfs.h), and cntvct_el0 ticks
 * scaled to core cycles.  No AArch64 instruction here: host/counter.c
 * supplies the register reads, so all of this is tested on any machine.
 */
#include "host/counter_arm64.h"

#include <stdlib.h>
#include <string.h>

#include "host/hostfs.h"
#include "util/util.h"

#define PLAUSIBLE_MIN_HZ 1e7
#define PLAUSIBLE_MAX_HZ 1e10
/* A page whose seqlock never settles is not read in user space. */
#define PAGE_READ_TRIES 1000
#define CPUFREQ_FILE "/sys/devices/system/cpu/cpu%d/cpufreq/%s"

int arm64_perf_user_access_allowed(const char *sysctl_text)
{
	return sysctl_text && !strcmp(sysctl_text, "1");
}

int arm64_perf_page_readable(const struct perf_event_mmap_page *pc)
{
	return pc && pc->cap_user_rdpmc && pc->index != 0 && pc->pmc_width >= 1 &&
	       pc->pmc_width <= 64;
}

/* The low `width` bits of v as a signed number. */
static int64_t sign_extend(uint64_t v, unsigned width)
{
	if (width >= 64)
		return (int64_t)v;
	uint64_t sign = 1ull << (width - 1), low = v & ((sign << 1) - 1);
	return (int64_t)(low ^ sign) - (int64_t)sign;
}

int arm64_perf_page_count(const volatile struct perf_event_mmap_page *pc,
			  uint64_t (*read_pmc)(unsigned counter), uint64_t *count)
{
	for (int i = 0; i < PAGE_READ_TRIES; i++) {
		uint32_t seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		uint32_t index = pc->index;
		int64_t offset = pc->offset;
		unsigned width = pc->pmc_width;
		int usable = pc->cap_user_rdpmc && index != 0 && width >= 1 && width <= 64;
		uint64_t v = usable ? (uint64_t)offset + (uint64_t)sign_extend(read_pmc(index - 1), width)
				    : 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (pc->lock != seq)
			continue;
		if (!usable)
			return -1;
		*count = v;
		return 0;
	}
	return -1;
}

int arm64_perf_rate_plausible(double cycles_per_second)
{
	return cycles_per_second > PLAUSIBLE_MIN_HZ && cycles_per_second < PLAUSIBLE_MAX_HZ;
}

/* One CPU's pinned clock in kHz, or 0 with *why set. */
static unsigned long long cpu_pinned_khz(int cpu, char **why)
{
	char *gov = hostfs_line(CPUFREQ_FILE, cpu, "scaling_governor");
	char *min = hostfs_line(CPUFREQ_FILE, cpu, "scaling_min_freq");
	char *max = hostfs_line(CPUFREQ_FILE, cpu, "scaling_max_freq");
	char *end = NULL;
	unsigned long long khz = max ? strtoull(max, &end, 10) : 0;

	if (!gov)
		*why = xasprintf("CPU %d has no cpufreq", cpu);
	else if (strcmp(gov, "performance"))
		*why = xasprintf("CPU %d: governor is %s", cpu, gov);
	else if (!min || !max || strcmp(min, max) || !khz || *end)
		*why = xasprintf("CPU %d: minimum %s kHz is not the maximum %s kHz", cpu,
				 min ? min : "unknown", max ? max : "unknown");
	free(gov);
	free(min);
	free(max);
	return *why ? 0 : khz;
}

double arm64_pinned_clock_hz(const cpu_set_t *cpus, char **why_out)
{
	char *boost = hostfs_line("/sys/devices/system/cpu/cpufreq/boost");
	char *why = NULL;
	unsigned long long khz = 0;

	if (boost && strcmp(boost, "0"))
		why = xasprintf("boost is on (cpufreq/boost %s)", boost);
	free(boost);
	for (int cpu = 0; cpu < CPU_SETSIZE && !why; cpu++) {
		if (!CPU_ISSET(cpu, cpus))
			continue;
		unsigned long long k = cpu_pinned_khz(cpu, &why);
		if (!why && khz && k != khz)
			why = xasprintf("CPU %d is pinned at %llu kHz, another at %llu kHz", cpu, k, khz);
		khz = k;
	}
	if (!why && !khz)
		why = xstrdup("no CPU");
	if (why_out)
		*why_out = why;
	else
		free(why);
	return why ? 0 : (double)khz * 1000.0;
}

uint64_t arm64_scale_ticks(uint64_t ticks, uint64_t to_hz, uint64_t from_hz)
{
	if (!from_hz)
		return 0;
	unsigned __int128 n = (unsigned __int128)ticks * to_hz + from_hz / 2;
	return (uint64_t)(n / from_hz);
}

enum arm64_ref_choice arm64_ref_choose(double pinned_hz, double cntfrq_hz)
{
	return pinned_hz > 0 && cntfrq_hz > 0 ? ARM64_REF_PINNED_CYCLES : ARM64_REF_TICKS;
}
