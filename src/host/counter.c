/*
 * counter.c — the cycle counter of docs/method.md §6.
 *
 * Preference is perf_event_open user-mode core cycles; when the event does
 * not open (no PMU, as in most VMs, or perf_event_paranoid too strict) we
 * fall back to reference ticks: fenced TSC on x86_64, cntvct_el0 on
 * AArch64, both calibrated over 100 ms (times the host probe scale,
 * host/probescale.h) against CLOCK_MONOTONIC_RAW.  The
 * reason for the fallback is kept in why_fallback so records can say it.
 *
 * A driver process given its phase's rate for the counter it opens takes
 * that rate instead of calibrating: the 100 ms were most of a short
 * process's life.  The rate is a property of the counter, not of the
 * process (the TSC and cntvct tick at a constant rate; no page turns
 * perf cycles into time with the perf rate), so one calibration per phase
 * serves all its processes.
 *
 * The bracket functions are plain (not inline) functions because the
 * header is fixed.  Their cost is not hidden: counter_overhead() measures
 * an empty bracket and every record publishes it (R8).
 */
#include "host/counter.h"
#include "host/counter_arm64.h"
#include "host/hostfs.h"
#include "host/probescale.h"
#include "host/spin.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define CALIBRATION_MS 100  /* docs/method.md §6.2 */
/* With a given rate a perf event still has to prove that it counts; 1 ms of
 * busy user-mode work is millions of cycles on any real core. */
#define COUNTS_CHECK_NS 1000000ull
#define PERF_NAME "perf-user-cycles"
#define PINNED_NAME "pinned-clock-cycles"


/* One reason per process is enough: every counter_open of a process meets
 * the same kernel and hardware. */
static char fallback_reason[256];

uint64_t clock_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
/* lfence keeps earlier instructions from drifting past the read. */
static inline uint64_t tsc_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdtscp waits for earlier instructions; lfence keeps later ones out. */
static inline uint64_t tsc_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence"
			     : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	(void)aux;
	return ((uint64_t)hi << 32) | lo;
}
#define HAVE_REF_TICKS 1
#define REF_NAME "tsc-fenced"
#define REF_KIND COUNTER_TSC
#define REF_RAW_SOURCE "tsc"
#elif defined(__aarch64__)
static inline uint64_t cntvct_read(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
static inline uint64_t tsc_begin(void) { return cntvct_read(); }
static inline uint64_t tsc_end(void) { return cntvct_read(); }

static uint64_t cntfrq_read(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

/* PMU counter n as the perf mmap page numbers it (index - 1): event
 * counters 0..30, the cycle counter 31.  mrs takes the register's name, so
 * one case per register. */
#define PMEVCNTR(n) case n: __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;
static uint64_t pmu_read(unsigned counter)
{
	uint64_t v = 0;

	switch (counter) {
	PMEVCNTR(0) PMEVCNTR(1) PMEVCNTR(2) PMEVCNTR(3) PMEVCNTR(4) PMEVCNTR(5)
	PMEVCNTR(6) PMEVCNTR(7) PMEVCNTR(8) PMEVCNTR(9) PMEVCNTR(10) PMEVCNTR(11)
	PMEVCNTR(12) PMEVCNTR(13) PMEVCNTR(14) PMEVCNTR(15) PMEVCNTR(16) PMEVCNTR(17)
	PMEVCNTR(18) PMEVCNTR(19) PMEVCNTR(20) PMEVCNTR(21) PMEVCNTR(22) PMEVCNTR(23)
	PMEVCNTR(24) PMEVCNTR(25) PMEVCNTR(26) PMEVCNTR(27) PMEVCNTR(28) PMEVCNTR(29)
	PMEVCNTR(30)
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		break;
	}
	return v;
}
#undef PMEVCNTR
#define HAVE_REF_TICKS 1
#define REF_NAME "cntvct"
#define REF_KIND COUNTER_CNTVCT
#define REF_RAW_SOURCE "cntvct"
#else
#define HAVE_REF_TICKS 0
#define REF_RAW_SOURCE "clock-monotonic-raw-ns"
#endif

/* config1: 0, or the arm64 PMU's user-access and 64-bit bits. */
static int perf_open_cycles(uint64_t config1)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.config1 = config1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0 /* this thread */,
			    -1 /* any CPU */, -1 /* no group */, 0UL);
}

static const char *perf_errno_hint(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		return "no hardware cycle event (no PMU exposed, e.g. a VM)";
	case EACCES:
	case EPERM:
		return "not permitted (see /proc/sys/kernel/perf_event_paranoid)";
	case ENOSYS:
		return "kernel without perf events";
	default:
		return "cannot open the event";
	}
}

/*
 * Busy user-mode work between clock reads: where clock_gettime is a system
 * call (some VMs), user-mode cycles would otherwise miss most of the
 * window.
 */
void counter_busy_spin(unsigned iterations)
{
	volatile unsigned sink = 0;
	unsigned i;

	for (i = 0; i < iterations; i++)
		sink += i;
	(void)sink; /* read once more: clang counts a volatile store alone as unused */
}

/* The rate calibration's window: 100 ms, times the host probe scale. */
static uint64_t calibration_ns(void)
{
	return (uint64_t)host_probe_scaled_ms(CALIBRATION_MS) * 1000000ull;
}

/* Spin for about window_ns and return ticks per second. */
static double calibrate_hz(struct counter *c, uint64_t window_ns)
{
	uint64_t state, ticks, t0, t1;

	counter_start(c, &state);
	t0 = clock_raw_ns();
	do {
		counter_busy_spin(COUNTER_SPIN_CHUNK);
		t1 = clock_raw_ns();
	} while (t1 - t0 < window_ns);
	ticks = counter_stop(c, &state);
	return (double)ticks * 1e9 / (double)(t1 - t0);
}

static int given_for(const struct counter_rate *given, const char *name)
{
	return given && !strcmp(given->name, name);
}

static void set_none(struct counter *c)
{
	c->kind = COUNTER_NONE;
	c->name = "none";
	c->fd = -1;
	c->hz = 0;
	c->resolution = 1;
	c->hz_source = NULL;
	c->user_page = NULL;
	c->counter_frequency_hz = 0;
	c->pinned_clock_hz = 0;
}

#if defined(__aarch64__)
/* The event's count through its mmap page, else read() on its fd: both
 * give the same running total of the event, enabled once for good. */
static uint64_t user_count(const struct counter *c)
{
	uint64_t v = 0;

	if (arm64_perf_page_count(c->user_page, pmu_read, &v) == 0)
		return v;
	if (read(c->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = 0;
	return v;
}

static void unmap_user_page(struct counter *c)
{
	if (c->user_page)
		munmap(c->user_page, (size_t)sysconf(_SC_PAGESIZE));
	c->user_page = NULL;
}

/*
 * Where the kernel lets tasks read their own counters (the sysctl
 * perf_user_access = 1), open the event for user-space reads (a 64-bit
 * counter, else a 32-bit one), map its page and enable it for good: a
 * bracket then reads the counter with mrs, no system call.  The page must
 * say so (cap_user_rdpmc, a counter index).  Returns the fd with
 * c->user_page set, or -1 (then the event is opened the ordinary way).
 */
static int open_user_read(struct counter *c)
{
	char *sysctl = hostfs_line(ARM64_PERF_USER_ACCESS_SYSCTL);
	int allowed = arm64_perf_user_access_allowed(sysctl);
	uint64_t v;

	free(sysctl);
	if (!allowed)
		return -1;
	int fd = perf_open_cycles(ARM64_PERF_CONFIG1_USER_ACCESS | ARM64_PERF_CONFIG1_64BIT);
	if (fd < 0)
		fd = perf_open_cycles(ARM64_PERF_CONFIG1_USER_ACCESS);
	if (fd < 0)
		return -1;
	void *page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		close(fd);
		return -1;
	}
	c->user_page = page;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (!arm64_perf_page_readable(page) || arm64_perf_page_count(page, pmu_read, &v) < 0) {
		unmap_user_page(c);
		close(fd);
		return -1;
	}
	return fd;
}

/* Counting, and at a rate a core can have. */
static int perf_counts(double counted)
{
	return arm64_perf_rate_plausible(counted);
}

/*
 * The reference-tick counter on AArch64: cntvct_el0 at cntfrq_el0.  When
 * every CPU this process may run on has its clock pinned (host/
 * counter_arm64.h), the ticks are turned into core cycles at that clock
 * (pinned-clock-cycles); else they stay reference ticks and the reason is
 * added to why_fallback.
 */
static void open_reference(struct counter *c)
{
	double cntfrq = (double)cntfrq_read(), pinned = 0;
	cpu_set_t cpus;
	char *why = NULL;

	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0)
		pinned = arm64_pinned_clock_hz(&cpus, &why);
	else
		why = xasprintf("the CPU affinity cannot be read: %s", strerror(errno));
	if (!(cntfrq > 0)) {
		free(why);
		why = xasprintf("cntfrq_el0 reads 0");
	}
	c->counter_frequency_hz = cntfrq;
	if (arm64_ref_choose(pinned, cntfrq) == ARM64_REF_PINNED_CYCLES) {
		c->kind = COUNTER_PINNED;
		c->name = PINNED_NAME;
		c->pinned_clock_hz = pinned;
		c->resolution = pinned / cntfrq;
	} else {
		size_t n = strlen(fallback_reason);
		snprintf(fallback_reason + n, sizeof(fallback_reason) - n,
			 "; cntvct_el0 ticks stay reference ticks: %s", why ? why : "clock not pinned");
	}
	free(why);
}
#else
static int open_user_read(struct counter *c)
{
	(void)c;
	return -1;
}

static int perf_counts(double counted)
{
	return counted > 0;
}

static void open_reference(struct counter *c)
{
	(void)c;
}
#endif

static int try_perf(struct counter *c, const struct counter_rate *given)
{
	int fd = open_user_read(c);

	if (fd < 0)
		fd = perf_open_cycles(0);
	if (fd < 0) {
		int err = errno;
		snprintf(fallback_reason, sizeof(fallback_reason),
			 "perf_event_open(PERF_COUNT_HW_CPU_CYCLES, user mode) failed: %s: %s",
			 strerror(err), perf_errno_hint(err));
		return -1;
	}
	c->kind = COUNTER_PERF;
	c->name = PERF_NAME;
	c->fd = fd;
	c->resolution = 1;
	c->why_fallback = NULL;
	/* Some hypervisors accept the event but never count: treat that as
	 * not opening, since the check is that the event actually works.  With
	 * the phase's rate given, a short window is enough for that check. */
	int adopt = given_for(given, PERF_NAME);
	uint64_t window = adopt ? COUNTS_CHECK_NS : calibration_ns();
	double counted = calibrate_hz(c, window);
	if (!perf_counts(counted)) {
		snprintf(fallback_reason, sizeof(fallback_reason), counted <= 0 ?
			 "perf_event_open(PERF_COUNT_HW_CPU_CYCLES) opened but counted no cycles in %llu ms" :
			 "perf_event_open(PERF_COUNT_HW_CPU_CYCLES) opened but counted an implausible rate in %llu ms",
			 (unsigned long long)(window / 1000000));
		counter_close(c);
		set_none(c);
		return -1;
	}
	c->hz = adopt ? given->hz : counted;
	c->hz_source = adopt ? COUNTER_HZ_PHASE : COUNTER_HZ_PROCESS;
	return 0;
}

int counter_open_given(struct counter *c, int force_fallback, const struct counter_rate *given)
{
	set_none(c);
	c->why_fallback = NULL;
	if (force_fallback)
		snprintf(fallback_reason, sizeof(fallback_reason),
			 "perf-user-cycles skipped on request (forced fallback)");
	else if (try_perf(c, given) == 0)
		return 0;
	c->why_fallback = fallback_reason;
#if HAVE_REF_TICKS
	c->kind = REF_KIND;
	c->name = REF_NAME;
	open_reference(c);
	if (given_for(given, c->name)) {
		c->hz = given->hz;
		c->hz_source = COUNTER_HZ_PHASE;
	} else {
		c->hz = calibrate_hz(c, calibration_ns());
		c->hz_source = COUNTER_HZ_PROCESS;
	}
#endif
	return 0;
}

int counter_open(struct counter *c, int force_fallback)
{
	return counter_open_given(c, force_fallback, NULL);
}

/* The names a rate may be given for: every counter that has one. */
static int known_counter_name(const char *name)
{
	return !strcmp(name, PERF_NAME) || !strcmp(name, "tsc-fenced") || !strcmp(name, "cntvct") ||
	       !strcmp(name, PINNED_NAME);
}

int counter_rate_parse(const char *text, struct counter_rate *r)
{
	const char *eq = strchr(text, '=');
	size_t len = eq ? (size_t)(eq - text) : 0;
	char *end;
	double hz;

	if (!len || len >= sizeof r->name || !isdigit((unsigned char)eq[1]))
		return -1;
	memcpy(r->name, text, len);
	r->name[len] = '\0';
	errno = 0;
	hz = strtod(eq + 1, &end);
	/* The range excludes NaN and infinity too. */
	if (!known_counter_name(r->name) || *end || errno || !(hz > 0 && hz <= 1e13))
		return -1;
	r->hz = hz;
	return 0;
}

int counter_rate_format(const struct counter *c, char *buf, size_t n)
{
	char text[96];

	if (c->kind == COUNTER_NONE || !(c->hz > 0))
		return -1;
	int len = snprintf(text, sizeof text, "%s=%.17g", c->name, c->hz);
	if (len <= 0 || (size_t)len >= n || (size_t)len >= sizeof text)
		return -1;
	memcpy(buf, text, (size_t)len + 1);
	return 0;
}

void counter_close(struct counter *c)
{
#if defined(__aarch64__)
	unmap_user_page(c);
#endif
	if (c->kind == COUNTER_PERF && c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->kind = COUNTER_NONE;
	c->name = "none";
}

void counter_start(struct counter *c, uint64_t *state)
{
	switch (c->kind) {
	case COUNTER_PERF:
#if defined(__aarch64__)
		if (c->user_page) {
			*state = user_count(c);
			break;
		}
#endif
		*state = 0;
		ioctl(c->fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
		break;
#if defined(__aarch64__)
	case COUNTER_PINNED:
#endif
#if HAVE_REF_TICKS
	case REF_KIND:
		*state = tsc_begin();
		break;
#endif
	default:
		*state = 0;
		break;
	}
}

uint64_t counter_stop(struct counter *c, const uint64_t *state)
{
	uint64_t v = 0;

	(void)state;
	switch (c->kind) {
#if defined(__aarch64__)
	case COUNTER_PINNED:
		return arm64_scale_ticks(tsc_end() - *state, (uint64_t)c->pinned_clock_hz,
					 (uint64_t)c->counter_frequency_hz);
#endif
	case COUNTER_PERF:
#if defined(__aarch64__)
		if (c->user_page)
			return user_count(c) - *state;
#endif
		ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(c->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			v = 0;
		return v;
#if HAVE_REF_TICKS
	case REF_KIND:
		return tsc_end() - *state;
#endif
	default:
		return 0;
	}
}

/* For perf-user-cycles we do not read the PMU via rdpmc on the mmap'ed
 * page: wrappers get the reference ticks below, which is what
 * counter_raw_source() names. */
uint64_t counter_read_raw(void)
{
#if HAVE_REF_TICKS
	return tsc_begin();
#else
	return clock_raw_ns();
#endif
}

const char *counter_raw_source(void)
{
	return REF_RAW_SOURCE;
}

double counter_raw_hz(const struct counter_rate *given, const char **source)
{
#if HAVE_REF_TICKS
	/* counter_read_raw reads the fallback counter's ticks, unfenced. */
	if (given_for(given, REF_NAME)) {
		*source = COUNTER_HZ_PHASE;
		return given->hz;
	}
#else
	(void)given;
#endif
	uint64_t window = calibration_ns();
	uint64_t n0 = clock_raw_ns(), c0 = counter_read_raw(), n1, c1;

	do {
		n1 = clock_raw_ns();
		c1 = counter_read_raw();
	} while (n1 - n0 < window);
	*source = COUNTER_HZ_PROCESS;
	return (double)(c1 - c0) * 1e9 / (double)(n1 - n0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * An empty bracket is exactly a trial with no calls (docs/method.md §5.1 step 8):
 * start the counter, read the clock twice, stop the counter.  So the ticks
 * and ns reported here are what every trial's figures include.
 */
void counter_overhead(struct counter *c, int n, double *ticks_median, double *ns_median)
{
	double *ticks, *ns;
	uint64_t state, t0, t1;
	int i;

	if (n < 1)
		n = 1;
	ticks = calloc((size_t)n, sizeof(*ticks));
	ns = calloc((size_t)n, sizeof(*ns));
	if (!ticks || !ns) {
		free(ticks);
		free(ns);
		*ticks_median = *ns_median = 0;
		return;
	}
	for (i = 0; i < n; i++) {
		counter_start(c, &state);
		t0 = clock_raw_ns();
		t1 = clock_raw_ns();
		ticks[i] = (double)counter_stop(c, &state);
		ns[i] = (double)(t1 - t0);
	}
	*ticks_median = median_of(ticks, n);
	*ns_median = median_of(ns, n);
	free(ticks);
	free(ns);
}
