/*
 * counter_arm64.h — the AArch64 side of the cycle counter (docs/method.md
 * §6): reading the PMU's cycle counter in user space through the perf
 * event's mmap page, and turning cntvct_el0 ticks into core cycles when the
 * core clock is pinned.  The decisions and the arithmetic are plain
 * functions of facts (a sysctl's text, an mmap page, cpufreq files read
 * through host/hostfs.h, two frequencies), compiled on every machine so
 * that unit tests check them on x86-64 too; host/counter.c calls them on
 * AArch64 only.
 */
#ifndef NGCC_HOST_COUNTER_ARM64_H
#define NGCC_HOST_COUNTER_ARM64_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* perf_event_attr.config1 bits of the arm64 PMU driver: user-space access
 * to the counter (rdpmc) and a 64-bit counter. */
#define ARM64_PERF_CONFIG1_64BIT 0x1u
#define ARM64_PERF_CONFIG1_USER_ACCESS 0x2u

/* The arm64 sysctl that lets tasks read their own PMU counters. */
#define ARM64_PERF_USER_ACCESS_SYSCTL "/proc/sys/kernel/perf_user_access"

/* Does the kernel let tasks read their counters in user space?  The
 * sysctl's text ("1" allows; "0", missing or anything else does not). */
int arm64_perf_user_access_allowed(const char *sysctl_text);

/* Can this mmap page be read in user space right now: cap_user_rdpmc set,
 * the event on a hardware counter (index != 0) of a sane width (1..64)? */
int arm64_perf_page_readable(const struct perf_event_mmap_page *pc);

/* The event's count read through its mmap page: the kernel's offset plus
 * the hardware counter read by read_pmc(index - 1), sign-extended from
 * pmc_width bits, retried while the page's seqlock moves.  0 and *count
 * set, or -1 when the page cannot be read in user space (then read() the
 * event's fd instead). */
int arm64_perf_page_count(const volatile struct perf_event_mmap_page *pc,
			  uint64_t (*read_pmc)(unsigned counter), uint64_t *count);

/* Is a perf count over a busy window plausible for a core: more than
 * 10 MHz and less than 10 GHz of user cycles per second?  (A hypervisor
 * may accept the event and count nothing or nonsense.) */
int arm64_perf_rate_plausible(double cycles_per_second);

/* The pinned core clock of every CPU in `cpus`, in Hz, read through
 * host/hostfs.h: each CPU has cpufreq with governor "performance" and
 * scaling_min_freq = scaling_max_freq, all the same frequency, and boost
 * is not on (cpufreq/boost absent or 0).  0 when not pinned; *why (may be
 * NULL) then gets the first reason (caller frees). */
double arm64_pinned_clock_hz(const cpu_set_t *cpus, char **why);

/* ticks × to_hz / from_hz, rounded to the nearest integer, exact for any
 * 64-bit tick count (128-bit intermediate); 0 when from_hz is 0. */
uint64_t arm64_scale_ticks(uint64_t ticks, uint64_t to_hz, uint64_t from_hz);

/* Which counter the reference-tick path gives: core cycles converted from
 * cntvct_el0 when the clock is pinned and the counter's frequency known,
 * else the ticks themselves. */
enum arm64_ref_choice { ARM64_REF_TICKS = 0, ARM64_REF_PINNED_CYCLES = 1 };
enum arm64_ref_choice arm64_ref_choose(double pinned_hz, double cntfrq_hz);

#endif
