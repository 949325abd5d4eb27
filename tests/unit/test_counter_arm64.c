/*
 * test_counter_arm64.c — the AArch64 counter decisions (docs/method.md §6,
 * host/counter_arm64.h, host/counter_unit.h), checked on any machine:
 * the user-access sysctl, reading the perf mmap page (offset plus a
 * sign-extended hardware counter under a seqlock) with a fake page and a
 * fake register read, the plausible-rate rule, the pinned clock from a
 * fake /sys tree (hostfs_set_root), the exact tick-to-cycle conversion,
 * the choice between converted cycles and reference ticks, and the unit
 * facts and words that records, pages and the clock probe carry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "evidence/json.h"
#include "host/clock.h"
#include "host/counter_arm64.h"
#include "host/counter_unit.h"
#include "host/hostfs.h"
#include "util/util.h"

/* ---- the perf mmap page ------------------------------------------------ */

static struct perf_event_mmap_page *fake_page;
static unsigned asked[4];
static int reads;
static uint64_t pmc_value;
static int bump_lock_on_first_read;

static uint64_t fake_pmc(unsigned counter)
{
	if (reads < 4)
		asked[reads] = counter;
	reads++;
	if (bump_lock_on_first_read && reads == 1)
		fake_page->lock++; /* the kernel updated the page meanwhile */
	return pmc_value;
}

static int page_setup(void **state)
{
	(void)state;
	fake_page = xcalloc(1, sizeof(*fake_page));
	fake_page->cap_user_rdpmc = 1;
	fake_page->index = 32; /* the cycle counter: pmccntr_el0 */
	fake_page->pmc_width = 64;
	fake_page->offset = 100;
	reads = 0;
	bump_lock_on_first_read = 0;
	pmc_value = 5000;
	return 0;
}

static int page_teardown(void **state)
{
	(void)state;
	free(fake_page);
	fake_page = NULL;
	return 0;
}

static void test_user_access_sysctl(void **state)
{
	(void)state;
	assert_true(arm64_perf_user_access_allowed("1"));
	assert_false(arm64_perf_user_access_allowed("0"));
	assert_false(arm64_perf_user_access_allowed("2"));
	assert_false(arm64_perf_user_access_allowed(""));
	assert_false(arm64_perf_user_access_allowed(NULL)); /* kernel without it */
}

static void test_page_count_cycle_counter(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_true(arm64_perf_page_readable(fake_page));
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), 0);
	assert_int_equal(v, 5100);
	assert_int_equal(asked[0], 31); /* index - 1 */
	assert_int_equal(reads, 1);
}

/* A 32-bit counter that wrapped below the kernel's offset: the low 32 bits
 * are a signed difference. */
static void test_page_count_sign_extends(void **state)
{
	uint64_t v = 0;

	(void)state;
	fake_page->index = 3;
	fake_page->pmc_width = 32;
	fake_page->offset = 1000;
	pmc_value = 0xdeadbeeffffffff0ull; /* bits above the width are ignored */
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), 0);
	assert_int_equal(v, 984);
	assert_int_equal(asked[0], 2);
}

static void test_page_count_retries_on_seqlock(void **state)
{
	uint64_t v = 0;

	(void)state;
	bump_lock_on_first_read = 1;
	pmc_value = 7;
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), 0);
	assert_int_equal(reads, 2);
	assert_int_equal(v, 107);
}

static void test_page_not_readable(void **state)
{
	uint64_t v = 42;

	(void)state;
	fake_page->index = 0; /* not on a counter now */
	assert_false(arm64_perf_page_readable(fake_page));
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), -1);
	fake_page->index = 32;
	fake_page->cap_user_rdpmc = 0; /* the kernel refused user access */
	assert_false(arm64_perf_page_readable(fake_page));
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), -1);
	fake_page->cap_user_rdpmc = 1;
	fake_page->pmc_width = 0;
	assert_false(arm64_perf_page_readable(fake_page));
	assert_int_equal(arm64_perf_page_count(fake_page, fake_pmc, &v), -1);
	assert_int_equal(v, 42);
	assert_int_equal(reads, 0);
	assert_false(arm64_perf_page_readable(NULL));
}

static void test_plausible_rate(void **state)
{
	(void)state;
	assert_true(arm64_perf_rate_plausible(2.71e9));
	assert_true(arm64_perf_rate_plausible(5e8));
	assert_false(arm64_perf_rate_plausible(0));
	assert_false(arm64_perf_rate_plausible(-1));
	assert_false(arm64_perf_rate_plausible(1e6));   /* counts almost nothing */
	assert_false(arm64_perf_rate_plausible(5e10));  /* no core runs at 50 GHz */
}

/* ---- conversion and choice --------------------------------------------- */

static void test_scale_ticks(void **state)
{
	(void)state;
	/* 24 MHz counter, 2.71 GHz core: 1000 ticks = 112916.67 cycles */
	assert_int_equal(arm64_scale_ticks(1000, 2710000000u, 24000000u), 112917);
	assert_int_equal(arm64_scale_ticks(24000000u, 2710000000u, 24000000u), 2710000000u);
	assert_int_equal(arm64_scale_ticks(0, 2710000000u, 24000000u), 0);
	/* 1 GHz counter (Armv8.6 and later) at 1.8 GHz */
	assert_int_equal(arm64_scale_ticks(5, 1800000000u, 1000000000u), 9);
	/* ticks x clock overflows 64 bits; the result does not */
	assert_int_equal(arm64_scale_ticks(6000000000000000000ull, 3000000000u, 1000000000u),
			 18000000000000000000ull);
	assert_int_equal(arm64_scale_ticks(1000, 2710000000u, 0), 0);
}

static void test_choice(void **state)
{
	(void)state;
	assert_int_equal(arm64_ref_choose(2.71e9, 24e6), ARM64_REF_PINNED_CYCLES);
	assert_int_equal(arm64_ref_choose(0, 24e6), ARM64_REF_TICKS);     /* not pinned */
	assert_int_equal(arm64_ref_choose(2.71e9, 0), ARM64_REF_TICKS);   /* cntfrq_el0 unset */
	assert_int_equal(arm64_ref_choose(0, 0), ARM64_REF_TICKS);
}

/* ---- the pinned clock from a fake /sys ----------------------------------- */

static char *fake_root;

static void put(const char *rel, const char *content)
{
	char *path = xasprintf("%s%s", fake_root, rel);
	char *dir = path_dirname(path);

	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file(path, content, strlen(content)), 0);
	free(dir);
	free(path);
}

static void put_cpufreq(int cpu, const char *gov, const char *min, const char *max)
{
	char *g = xasprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	char *lo = xasprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_min_freq", cpu);
	char *hi = xasprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_max_freq", cpu);

	put(g, gov);
	put(lo, min);
	put(hi, max);
	free(g);
	free(lo);
	free(hi);
}

static int tree_setup(void **state)
{
	char tmpl[] = "/tmp/ngcc-test-counter-arm64.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	fake_root = xstrdup(tmpl);
	/* Two pinned cores at 2.71 GHz, the seed's arm_1 clock. */
	put_cpufreq(2, "performance\n", "2710000\n", "2710000\n");
	put_cpufreq(3, "performance\n", "2710000\n", "2710000\n");
	hostfs_set_root(fake_root);
	return 0;
}

static int tree_teardown(void **state)
{
	(void)state;
	hostfs_set_root(NULL);
	rm_rf(fake_root);
	free(fake_root);
	fake_root = NULL;
	return 0;
}

static cpu_set_t cpus_2_3(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(2, &s);
	CPU_SET(3, &s);
	return s;
}

/* Not pinned: 0 Hz and the reason, which must contain `want`. */
static void assert_not_pinned(const cpu_set_t *cpus, const char *want)
{
	char *why = NULL;

	assert_true(arm64_pinned_clock_hz(cpus, &why) == 0);
	assert_non_null(why);
	if (!strstr(why, want))
		fail_msg("reason '%s' lacks '%s'", why, want);
	free(why);
}

static void test_pinned(void **state)
{
	cpu_set_t s = cpus_2_3();
	char *why = NULL;

	(void)state;
	assert_true(arm64_pinned_clock_hz(&s, &why) == 2.71e9);
	assert_null(why);
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	assert_true(arm64_pinned_clock_hz(&s, NULL) == 2.71e9);
	/* one CPU alone, as a driver pinned to it sees it */
	CPU_CLR(2, &s);
	assert_true(arm64_pinned_clock_hz(&s, NULL) == 2.71e9);
}

static void test_not_pinned(void **state)
{
	cpu_set_t s = cpus_2_3();

	(void)state;
	put_cpufreq(3, "schedutil\n", "2710000\n", "2710000\n");
	assert_not_pinned(&s, "CPU 3: governor is schedutil");
	put_cpufreq(3, "performance\n", "600000\n", "2710000\n");
	assert_not_pinned(&s, "CPU 3: minimum 600000 kHz is not the maximum 2710000 kHz");
	put_cpufreq(3, "performance\n", "1800000\n", "1800000\n");
	assert_not_pinned(&s, "CPU 3 is pinned at 1800000 kHz, another at 2710000 kHz");
	put_cpufreq(3, "performance\n", "2710000\n", "2710000\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	assert_not_pinned(&s, "boost is on");
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	CPU_SET(5, &s); /* no cpufreq there */
	assert_not_pinned(&s, "CPU 5 has no cpufreq");
	CPU_ZERO(&s);
	assert_not_pinned(&s, "no CPU");
}

/* ---- what records and pages say ------------------------------------------ */

static struct counter counter_of(enum counter_kind kind, const char *name)
{
	struct counter c;

	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.name = name;
	c.fd = -1;
	return c;
}

static char *unit_of(const struct counter *c)
{
	json_t *j = json_pack("{ss}", "name", c->name);
	char *text;

	counter_unit_json(c, j);
	text = counter_unit_text(j);
	json_decref(j);
	return text;
}

static void test_unit_facts(void **state)
{
	struct counter pinned = counter_of(COUNTER_PINNED, "pinned-clock-cycles");
	struct counter ticks = counter_of(COUNTER_CNTVCT, "cntvct");
	struct counter tsc = counter_of(COUNTER_TSC, "tsc-fenced");
	struct counter perf = counter_of(COUNTER_PERF, "perf-user-cycles");
	json_t *j = json_object();
	char *text;

	(void)state;
	pinned.counter_frequency_hz = ticks.counter_frequency_hz = 24e6;
	pinned.pinned_clock_hz = 2.71e9;
	counter_unit_json(&pinned, j);
	assert_true(jget_real(j, "pinned_clock_hz", 0) == 2.71e9);
	assert_true(jget_real(j, "counter_frequency_hz", 0) == 24e6);
	assert_int_equal(json_object_size(j), 2);
	json_decref(j);

	text = unit_of(&pinned);
	assert_string_equal(text, "core cycles converted from cntvct_el0 at the pinned 2.71 GHz "
			    "clock, cntvct_el0 at 24 MHz");
	free(text);
	ticks.counter_frequency_hz = 62.5e6;
	text = unit_of(&ticks);
	assert_string_equal(text, "reference ticks of cntvct_el0 at 62.5 MHz, not core cycles");
	free(text);
	perf.user_page = &perf; /* any non-NULL page: read in user space */
	text = unit_of(&perf);
	assert_string_equal(text, "core cycles from the PMU, read in user space");
	free(text);
	/* The x86-64 counters and the PMU read through its fd: the name says
	 * it, the pages keep their words. */
	perf.user_page = NULL;
	assert_null(unit_of(&perf));
	assert_null(unit_of(&tsc));
	j = json_object();
	counter_unit_json(&tsc, j);
	assert_int_equal(json_object_size(j), 0);
	counter_unit_json(&perf, j);
	assert_string_equal(jget_str(j, "read", ""), "event-fd");
	json_decref(j);
}

static void test_ticks_or_cycles(void **state)
{
	(void)state;
	assert_true(counter_name_counts_ticks("cntvct"));
	assert_true(counter_name_counts_ticks("tsc-fenced"));
	assert_false(counter_name_counts_ticks("pinned-clock-cycles"));
	assert_false(counter_name_counts_ticks("perf-user-cycles"));
	assert_false(counter_name_counts_ticks("none"));
}

/* The clock probe over converted ticks measures the pinned clock it was
 * given, not the core: its source says so. */
static void test_probe_source(void **state)
{
	struct counter pinned = counter_of(COUNTER_PINNED, "pinned-clock-cycles");
	struct counter tsc = counter_of(COUNTER_TSC, "tsc-fenced");
	struct clock_probe p;

	(void)state;
	assert_int_equal(clock_probe_run(&pinned, 1, 1, &p), 0);
	assert_string_equal(p.source, "pinned-clock-cycles");
	assert_int_equal(clock_probe_run(&tsc, 1, 1, &p), 0);
	assert_string_equal(p.source, "reference-ticks");
}

static void test_rate_names(void **state)
{
	struct counter_rate r;

	(void)state;
	assert_int_equal(counter_rate_parse("pinned-clock-cycles=2710000000", &r), 0);
	assert_string_equal(r.name, "pinned-clock-cycles");
	assert_true(r.hz == 2.71e9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_access_sysctl),
		cmocka_unit_test_setup_teardown(test_page_count_cycle_counter, page_setup, page_teardown),
		cmocka_unit_test_setup_teardown(test_page_count_sign_extends, page_setup, page_teardown),
		cmocka_unit_test_setup_teardown(test_page_count_retries_on_seqlock, page_setup,
						page_teardown),
		cmocka_unit_test_setup_teardown(test_page_not_readable, page_setup, page_teardown),
		cmocka_unit_test(test_plausible_rate),
		cmocka_unit_test(test_scale_ticks),
		cmocka_unit_test(test_choice),
		cmocka_unit_test_setup_teardown(test_pinned, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_not_pinned, tree_setup, tree_teardown),
		cmocka_unit_test(test_unit_facts),
		cmocka_unit_test(test_ticks_or_cycles),
		cmocka_unit_test(test_probe_source),
		cmocka_unit_test(test_rate_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
