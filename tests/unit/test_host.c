/*
 * test_host.c — host checks, environment block, clock text, reference
 * clock, environment equality and the override evidence (docs/method.md §3,
 * docs/report-format.md §5.2).  Host checks run against a fake /sys + /proc tree
 * under /tmp (hostfs_set_root), with the counter, affinity and clock probe
 * injected, so the exact problem strings are checked on any machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "evidence/json.h"
#include "host/env.h"
#include "host/hostcheck.h"
#include "host/hostfs.h"
#include "host/probescale.h"
#include "util/util.h"

/* ---- fake host tree ------------------------------------------------- */

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

static const char *CPUINFO_CLEAN =
	"processor\t: 0\nmodel name\t: Fake CPU @ 3.00GHz\nmicrocode\t: 0xaa\nflags\t\t: fpu tsc lm\n\n"
	"processor\t: 2\nmodel name\t: Fake CPU @ 3.00GHz\nmicrocode\t: 0xbb\nflags\t\t: fpu tsc lm\n\n";
static const char *CPUINFO_HV =
	"processor\t: 2\nmodel name\t: Fake CPU\nflags\t\t: fpu tsc hypervisor lm\n\n";

static int setup_tree(void **state)
{
	char tmpl[] = "/tmp/ngcc-test-host.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	fake_root = xstrdup(tmpl);
	put("/proc/cpuinfo", CPUINFO_CLEAN);
	put("/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "2\n");
	put("/sys/devices/system/cpu/online", "0-3\n");
	hostfs_set_root(fake_root);
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	hostfs_set_root(NULL);
	rm_rf(fake_root);
	free(fake_root);
	fake_root = NULL;
	return 0;
}

/* A fixed host as far as the tree goes: counter and affinity pretended. */
static struct host_check_opts fixed_opts(void)
{
	struct host_check_opts o = HOST_CHECK_OPTS_DEFAULT;

	o.arch = "x86_64";
	o.counter_opens = 1;
	o.affinity_ok = 1;
	o.steady_spacing_ms = 0;
	return o;
}

struct fake_probe {
	int calls;
	int steady_from; /* first call (1-based) that is steady; 0: never */
};

static int fake_probe_fn(void *ctx, int cpu, struct clock_probe *out)
{
	struct fake_probe *f = ctx;

	(void)cpu;
	f->calls++;
	memset(out, 0, sizeof(*out));
	out->median = 2.5e9;
	out->windows = 21;
	if (f->steady_from && f->calls >= f->steady_from) {
		out->min = 2.49e9;
		out->max = 2.51e9;
		out->iqr = 1e6;
	} else {
		out->min = 2.0e9 + 1e7 * f->calls;
		out->max = 2.6e9;
		out->iqr = 2e8;
	}
	return 0;
}

static void assert_problems(const struct strlist *got, const char *const *want, size_t n)
{
	size_t i;

	for (i = 0; i < got->n && i < n; i++)
		assert_string_equal(got->items[i], want[i]);
	assert_int_equal(got->n, n);
}

/* ---- problem detection on the fake tree ----------------------------- */

static void test_every_tree_problem(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	struct fake_probe probe = { 0, 0 };
	json_t *facts = NULL;
	static const char *const want[] = {
		"hardware cycle counter unavailable",
		"turbo/boost is enabled",
		"governor is powersave",
		"shares its core (SMT on)",
		"not a performance core",
		"CPU 2 cannot be used",
	};

	(void)state;
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_min_freq", "800000\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_max_freq", "3000000\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "2-3\n");
	put("/sys/devices/cpu_core/cpus", "0-1\n");
	o.counter_opens = 0;
	o.affinity_ok = 0;
	o.probe = fake_probe_fn;
	o.probe_ctx = &probe;
	assert_int_equal(host_check_opts(2, &o, &problems, &facts), 6);
	assert_problems(&problems, want, 6);
	assert_int_equal(probe.calls, 0); /* cpufreq present: no steady probe */
	assert_string_equal(jget_str(facts, "thread_siblings_list", ""), "2-3");
	assert_string_equal(jget_str(facts, "cpufreq_governor", ""), "powersave");
	json_decref(facts);
	sl_free(&problems);
}

static void test_fixed_tree_has_no_problem(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	struct fake_probe probe = { 0, 1 };

	(void)state;
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/cpu_core/cpus", "0-3\n");
	o.probe = fake_probe_fn;
	o.probe_ctx = &probe;
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
	assert_int_equal(problems.n, 0);
	assert_int_equal(probe.calls, 0);
	/* boost = 0 also disables turbo even with no_turbo = 0 */
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 1);
	assert_string_equal(problems.items[0], "turbo/boost is enabled");
	sl_free(&problems);
}

static void test_architecture_and_pinned_clock(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	static const char *const riscv[] = { "no guide configuration" };
	static const char *const arm[] = { "clock not pinned" };

	(void)state;
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_min_freq", "1000000\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_max_freq", "2000000\n");
	o.arch = "riscv64";
	host_check_opts(2, &o, &problems, NULL);
	assert_problems(&problems, riscv, 1);
	sl_free(&problems);
	/* min ≠ max only matters on aarch64 */
	o.arch = "x86_64";
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
	o.arch = "aarch64";
	host_check_opts(2, &o, &problems, NULL);
	assert_problems(&problems, arm, 1);
	sl_free(&problems);
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_min_freq", "2000000\n");
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
}

/* qemu-user: uname() says aarch64, the kernel's sysctl still says x86_64. */
static void test_user_mode_emulation(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	struct fake_probe probe = { 0, 1 };
	static const char *const want[] = {
		"emulated (aarch64 program on a x86_64 kernel): not a performance figure"
	};
	json_t *facts = NULL;

	(void)state;
	o.probe = fake_probe_fn;
	o.probe_ctx = &probe;
	o.arch = "aarch64";
	put("/proc/sys/kernel/arch", "x86_64\n");
	host_check_opts(2, &o, &problems, &facts);
	assert_problems(&problems, want, 1);
	assert_true(jget_bool(facts, "emulated", 0));
	assert_string_equal(jget_str(facts, "kernel_architecture", ""), "x86_64");
	assert_int_equal(probe.calls, 0); /* no clock probe of an emulator */
	json_decref(facts);
	sl_free(&problems);
	/* the same machine: native */
	o.arch = "x86_64";
	assert_int_equal(host_check_opts(2, &o, &problems, &facts), 0);
	assert_false(jget_bool(facts, "emulated", 1));
	json_decref(facts);
	/* the tests' knob, no file: the same rule */
	o.arch = "aarch64";
	o.kernel_arch = "aarch64";
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
	sl_free(&problems);
}

static void test_hypervisor_flag_and_type(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	struct fake_probe probe = { 0, 1 };
	static const char *const want[] = { "running under a hypervisor" };
	char *type = NULL;

	(void)state;
	o.probe = fake_probe_fn;
	o.probe_ctx = &probe;
	assert_int_equal(host_virtualized(2, NULL), 0);
	put("/proc/cpuinfo", CPUINFO_HV);
	host_check_opts(2, &o, &problems, NULL);
	assert_problems(&problems, want, 1);
	assert_int_equal(probe.calls, 0); /* another problem: no steady probe */
	sl_free(&problems);
	/* the type file alone is enough */
	put("/proc/cpuinfo", CPUINFO_CLEAN);
	put("/sys/hypervisor/type", "xen\n");
	assert_int_equal(host_virtualized(2, &type), 1);
	assert_string_equal(type, "xen");
	free(type);
	host_check_opts(2, &o, &problems, NULL);
	assert_problems(&problems, want, 1);
	sl_free(&problems);
	/* "hypervisor" must be a whole flag, not part of one */
	put("/sys/hypervisor/type", "\n");
	put("/proc/cpuinfo", "processor\t: 2\nflags\t\t: fpu nohypervisorx\n");
	assert_int_equal(host_virtualized(2, NULL), 0);
}

static void test_steady_clock_fails_only_if_all_probes_fail(void **state)
{
	struct host_check_opts o = fixed_opts();
	struct strlist problems = STRLIST_INIT;
	struct fake_probe never = { 0, 0 }, second = { 0, 2 };
	static const char *const want[] = { "clock not steady (2.01\u20132.60 GHz)" };
	json_t *facts = NULL;

	(void)state;
	o.probe = fake_probe_fn;
	o.probe_ctx = &never;
	host_check_opts(2, &o, &problems, &facts);
	assert_int_equal(never.calls, 3);
	assert_problems(&problems, want, 1);
	assert_int_equal(json_array_size(json_object_get(facts, "steady_clock_probes")), 3);
	json_decref(facts);
	sl_free(&problems);
	o.probe_ctx = &second;
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 0);
	assert_int_equal(second.calls, 2);
	/* the probe count is a knob */
	never.calls = 0;
	o.probe_ctx = &never;
	o.steady_probes = 1;
	assert_int_equal(host_check_opts(2, &o, &problems, NULL), 1);
	assert_int_equal(never.calls, 1);
	sl_free(&problems);
}

static void test_probe_steadiness_rule(void **state)
{
	struct clock_probe p = { 2e9, 1.9e9, 2.1e9, 1e7, 21, "user-cycles" };

	(void)state;
	assert_true(host_probe_is_steady(&p)); /* exactly 0.5 % */
	p.iqr = 1.0001e7;
	assert_false(host_probe_is_steady(&p));
	p.median = 0;
	assert_false(host_probe_is_steady(&p));
}

/* NGCC_PERF_HOST_PROBE_SCALE: a factor from 0.01 to 10, nothing else. */
static void test_probe_scale_parse(void **state)
{
	double f = 7;

	(void)state;
	assert_int_equal(host_probe_scale_parse("0.1", &f), 0);
	assert_true(f == 0.1);
	assert_int_equal(host_probe_scale_parse("10", &f), 0);
	assert_true(f == 10);
	assert_int_equal(host_probe_scale_parse("0.01", &f), 0);
	assert_true(f == 0.01);
	static const char *const bad[] = { "", "0", "0.009", "10.5", "-1", "0.2x", "x", "nan", "1e9" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		f = 7;
		assert_int_equal(host_probe_scale_parse(bad[i], &f), -1);
		assert_true(f == 7);
	}
	assert_int_equal(host_probe_scaled_ms(5000), (int)lround(5000 * host_probe_scale()));
	assert_true(host_probe_scaled_ms(1) >= 1);
}

/* ---- environment block on the fake tree ----------------------------- */

static char *task_stat_line(int cpu)
{
	struct strbuf sb = STRBUF_INIT;
	int field;

	/* a command name with a space and a ')' must not shift the fields */
	sb_adds(&sb, "4242 (we ird) x) R");
	for (field = 4; field < 39; field++)
		sb_adds(&sb, " 0");
	sb_addf(&sb, " %d 0 0\n", cpu);
	return sb_detach(&sb);
}

static void test_env_block_from_tree(void **state)
{
	struct env_opts o = { 0, 0, 3 };
	struct counter c;
	json_t *env;
	char *stat = task_stat_line(2);

	(void)state;
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "schedutil\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_driver", "acpi-cpufreq\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_min_freq", "800000\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_max_freq", "3000000\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state0/name", "POLL\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state0/disable", "0\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state1/name", "C1\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state1/disable", "0\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state2/name", "C6\n");
	put("/sys/devices/system/cpu/cpu2/cpuidle/state2/disable", "1\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	put("/proc/sys/kernel/randomize_va_space", "2\n");
	put("/proc/sys/kernel/perf_event_paranoid", "-1\n");
	put("/proc/meminfo", "MemTotal:       16318712 kB\nMemFree: 1 kB\n");
	put("/proc/loadavg", "0.50 0.25 0.10 1/100 42\n");
	put("/etc/os-release", "NAME=\"Fake\"\nPRETTY_NAME=\"Fake Linux 1 (test)\"\n");
	put("/proc/4242/task/4242/stat", stat);
	put("/proc/4242/task/4243/stat", "4243 (idle) S 1 2 3\n");
	free(stat);
	counter_open(&c, 1);
	env = env_capture_opts(2, &c, &o);
	assert_string_equal(jget_str(env, "cpu_model", ""), "Fake CPU @ 3.00GHz");
	assert_string_equal(jget_str(env, "microcode", ""), "0xbb");
	assert_int_equal(jget_int(env, "cpu_number", -1), 2);
	assert_int_equal(jget_int(env, "logical_cpus_online", -1), 4);
	assert_false(jget_bool(env, "virtualized", 1));
	assert_int_equal(jget_int(env, "memory_total_kib", -1), 16318712);
	assert_string_equal(jget_str(env, "os", ""), "Fake Linux 1 (test)");
	assert_string_equal(jget_str(env, "perf_event_paranoid", ""), "-1");
	assert_string_equal(jget_str(env, "cpufreq_governor", ""), "schedutil");
	assert_string_equal(jget_str(env, "cpufreq_driver", ""), "acpi-cpufreq");
	assert_string_equal(jget_str(env, "cpufreq_min_khz", ""), "800000");
	assert_string_equal(jget_str(env, "cpufreq_max_khz", ""), "3000000");
	assert_true(json_is_null(json_object_get(env, "intel_pstate_no_turbo")));
	assert_true(json_is_null(json_object_get(env, "cpufreq_boost")));
	assert_string_equal(jget_str(env, "smt_control", ""), "on");
	assert_true(json_is_null(json_object_get(env, "core_clock_hz")));
	assert_true(json_is_null(json_object_get(env, "core_clock_mhz")));
	assert_string_equal(jget_str(env, "deepest_cstate", ""), "C1");
	assert_string_equal(jget_str(env, "thp", ""), "never");
	assert_string_equal(jget_str(env, "aslr", ""), "2");
	assert_int_equal(json_array_size(json_object_get(env, "load_average")), 3);
	assert_true(json_real_value(json_array_get(json_object_get(env, "load_average"), 1)) == 0.25);
	assert_int_equal(jget_int(env, "other_runnable_tasks_on_cpu", -1), 1);
	assert_string_equal(jget_str(json_object_get(env, "counter"), "name", ""), c.name);
	assert_int_equal(jget_int(json_object_get(env, "counter"), "overhead_brackets", 0), 3);
	/* with cpufreq the reference clock is the maximum */
	assert_true(env_reference_clock_hz(env) == 3e9);
	json_decref(env);
	counter_close(&c);
}

/* The real host, with a short probe: whatever counter it has, the clock
 * block must be filled from it and say which kind of ticks it counted. */
static void test_env_capture_real_host_short_probe(void **state)
{
	struct env_opts o = { 3, 5, 5 };
	struct counter c;
	json_t *env, *probe;
	const char *keys[] = {
		"hostname", "architecture", "cpu_model", "machine", "cpu_number",
		"logical_cpus_online", "virtualized", "microcode", "memory_total_kib", "os",
		"kernel", "compiler", "build_tool", "perf_event_paranoid", "cpufreq_governor",
		"cpufreq_driver", "cpufreq_min_khz", "cpufreq_max_khz", "intel_pstate_no_turbo",
		"cpufreq_boost", "smt_control", "core_clock_hz", "core_clock_mhz", "counter",
		"isolcpus", "nohz_full", "deepest_cstate", "thp", "aslr", "load_average",
	};
	size_t i;

	(void)state;
	counter_open(&c, 0);
	env = env_capture_opts(host_default_cpu(), &c, &o);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_non_null(json_object_get(env, keys[i]));
	probe = json_object_get(env, "core_clock_hz");
	if (c.kind == COUNTER_NONE) {
		assert_true(json_is_null(probe));
	} else {
		assert_true(jget_real(probe, "median", 0) > 0);
		assert_true(jget_real(probe, "min", 0) <= jget_real(probe, "median", 0));
		assert_true(jget_real(probe, "median", 0) <= jget_real(probe, "max", 0));
		assert_string_equal(jget_str(probe, "source", ""),
				    c.kind == COUNTER_PERF ? "user-cycles" : "reference-ticks");
		assert_int_equal(jget_int(env, "core_clock_mhz", 0) % 50, 0);
		assert_true(jget_int(env, "core_clock_mhz", 0) > 0);
	}
	json_decref(env);
	counter_close(&c);
}

/* ---- clock text, reference clock, equality -------------------------- */

static json_t *env_from(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	assert_non_null(j);
	return j;
}

static void assert_clock_text(const char *env_json, const char *want)
{
	json_t *env = env_from(env_json);
	char *text = env_clock_text(env);

	assert_string_equal(text, want);
	free(text);
	json_decref(env);
}

static void test_clock_text_forms(void **state)
{
	(void)state;
	/* the seed pages' row */
	assert_clock_text("{\"architecture\":\"x86_64\",\"cpufreq_governor\":\"performance\","
			  "\"cpufreq_max_khz\":\"2100000\",\"intel_pstate_no_turbo\":\"1\",\"smt_control\":\"off\"}",
			  "max 2.10 GHz, governor performance, turbo off, SMT off");
	assert_clock_text("{\"architecture\":\"x86_64\",\"cpufreq_governor\":null,\"cpufreq_max_khz\":null,"
			  "\"core_clock_hz\":{\"median\":2596152209.2},\"core_clock_mhz\":2600,"
			  "\"smt_control\":\"notsupported\"}",
			  "measured 2.60 GHz, set by firmware (no OS frequency scaling or boost), SMT none");
	assert_clock_text("{\"architecture\":\"aarch64\",\"cpufreq_governor\":\"userspace\","
			  "\"cpufreq_min_khz\":\"2000000\",\"cpufreq_max_khz\":\"2000000\","
			  "\"smt_control\":\"notimplemented\"}",
			  "fixed 2.00 GHz (governor userspace, minimum = maximum), boost off, SMT none");
	assert_clock_text("{\"architecture\":\"aarch64\",\"cpufreq_governor\":\"performance\","
			  "\"cpufreq_min_khz\":\"1000000\",\"cpufreq_max_khz\":\"2400000\",\"cpufreq_boost\":\"1\","
			  "\"smt_control\":\"on\"}",
			  "max 2.40 GHz, governor performance, turbo on, SMT on");
	assert_clock_text("{\"architecture\":\"x86_64\",\"cpufreq_governor\":\"powersave\","
			  "\"cpufreq_max_khz\":\"3500000\",\"intel_pstate_no_turbo\":\"0\"}",
			  "max 3.50 GHz, governor powersave, turbo on, SMT unknown");
	assert_clock_text("{\"architecture\":\"x86_64\",\"cpufreq_governor\":\"performance\","
			  "\"cpufreq_max_khz\":\"3500000\",\"smt_control\":\"forceoff\"}",
			  "max 3.50 GHz, governor performance, turbo unknown, SMT forceoff");
}

static void test_turbo_text(void **state)
{
	static const struct {
		const char *env, *want;
	} cases[] = {
		{ "{\"intel_pstate_no_turbo\":\"1\",\"cpufreq_boost\":\"1\"}", "off" },
		{ "{\"intel_pstate_no_turbo\":\"0\",\"cpufreq_boost\":\"0\"}", "off" },
		{ "{\"intel_pstate_no_turbo\":\"0\"}", "on" },
		{ "{\"cpufreq_boost\":\"1\"}", "on" },
		{ "{\"cpufreq_boost\":null}", "unknown" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *env = env_from(cases[i].env);
		assert_string_equal(env_turbo_text(env), cases[i].want);
		json_decref(env);
	}
}

static void test_reference_clock_and_mhz(void **state)
{
	json_t *env;

	(void)state;
	env = env_from("{\"cpufreq_max_khz\":\"2100000\",\"core_clock_hz\":{\"median\":2.5e9}}");
	assert_true(env_reference_clock_hz(env) == 2.1e9);
	json_decref(env);
	env = env_from("{\"cpufreq_max_khz\":null,\"core_clock_hz\":{\"median\":2.5e9}}");
	assert_true(env_reference_clock_hz(env) == 2.5e9);
	json_decref(env);
	env = env_from("{\"cpufreq_max_khz\":null,\"core_clock_hz\":null}");
	assert_true(env_reference_clock_hz(env) == 0);
	json_decref(env);
	assert_int_equal(env_clock_mhz(2596152209.0), 2600);
	assert_int_equal(env_clock_mhz(2124000000.0), 2100);
	assert_int_equal(env_clock_mhz(2126000000.0), 2150);
	assert_int_equal(env_clock_mhz(0), 0);
}

static const char *ENV_A =
	"{\"hostname\":\"h\",\"cpu_model\":\"M\",\"microcode\":\"0x1\",\"cpu_number\":3,"
	"\"cpufreq_governor\":\"performance\",\"cpufreq_min_khz\":\"800000\","
	"\"cpufreq_max_khz\":\"2100000\",\"intel_pstate_no_turbo\":\"1\",\"cpufreq_boost\":null,"
	"\"smt_control\":\"off\",\"perf_event_paranoid\":\"1\",\"core_clock_mhz\":2100,"
	"\"kernel\":\"6.1\",\"compiler\":\"gcc 12\",\"load_average\":[0.1,0.2,0.3],"
	"\"counter\":{\"name\":\"perf-user-cycles\",\"hz\":2.1e9,\"overhead_ns_median\":30}}";

static void test_env_equal(void **state)
{
	json_t *a = env_from(ENV_A), *b = env_from(ENV_A);
	struct strlist diffs = STRLIST_INIT;

	(void)state;
	/* unrelated facts and counter rates may change */
	json_object_set_new(b, "load_average", json_null());
	json_object_set_new(json_object_get(b, "counter"), "hz", json_real(2.0e9));
	json_object_set_new(json_object_get(b, "counter"), "overhead_ns_median", json_real(31));
	assert_int_equal(env_equal(a, b, 1, &diffs), 1);
	assert_int_equal(diffs.n, 0);
	/* a missing key and null are the same */
	json_object_del(b, "cpufreq_boost");
	assert_int_equal(env_equal(a, b, 1, &diffs), 1);
	/* R10's acceptance example */
	json_object_set_new(b, "cpufreq_governor", json_string("powersave"));
	assert_int_equal(env_equal(a, b, 1, &diffs), 0);
	assert_int_equal(diffs.n, 1);
	assert_string_equal(diffs.items[0], "cpufreq_governor: performance -> powersave");
	sl_free(&diffs);
	json_decref(b);
	/* the CPU number counts only on the same CPU */
	b = env_from(ENV_A);
	json_object_set_new(b, "cpu_number", json_integer(5));
	assert_int_equal(env_equal(a, b, 0, &diffs), 1);
	assert_int_equal(env_equal(a, b, 1, &diffs), 0);
	assert_string_equal(diffs.items[0], "cpu_number: 3 -> 5");
	sl_free(&diffs);
	/* counter, clock and null-vs-value differences are all named */
	json_object_set_new(json_object_get(b, "counter"), "name", json_string("tsc-fenced"));
	json_object_set_new(b, "core_clock_mhz", json_integer(2150));
	json_object_set_new(b, "microcode", json_null());
	assert_int_equal(env_equal(a, b, 0, &diffs), 0);
	assert_int_equal(diffs.n, 3);
	assert_true(sl_contains(&diffs, "counter: perf-user-cycles -> tsc-fenced"));
	assert_true(sl_contains(&diffs, "core_clock_mhz: 2100 -> 2150"));
	assert_true(sl_contains(&diffs, "microcode: 0x1 -> null"));
	/* diffs may be NULL */
	assert_int_equal(env_equal(a, b, 0, NULL), 0);
	sl_free(&diffs);
	json_decref(a);
	json_decref(b);
}

/* ---- override evidence ---------------------------------------------- */

static void test_override_parsing(void **state)
{
	struct host_override o = HOST_OVERRIDE_INIT;

	(void)state;
	assert_int_equal(host_override_parse_arg(&o, "--allow-unfixed-hostX"), 0);
	assert_int_equal(host_override_parse_arg(&o, "--cpu"), 0);
	assert_false(o.allowed);
	assert_int_equal(host_override_parse_arg(&o, "--allow-unfixed-host"), 1);
	assert_true(o.allowed);
	assert_string_equal(o.reason, "not given");
	assert_int_equal(host_override_parse_arg(&o, "--allow-unfixed-host=CI VM without PMU"), 1);
	assert_string_equal(o.reason, "CI VM without PMU");
	assert_int_equal(host_override_parse_arg(&o, "--allow-unfixed-host="), 1);
	assert_string_equal(o.reason, "not given");
	host_override_set(&o, "dev laptop");
	assert_string_equal(o.reason, "dev laptop");
	host_override_free(&o);
	assert_false(o.allowed);
	assert_null(o.reason);
}

static char *compact(const json_t *j)
{
	return json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static void test_host_state_and_override_entry(void **state)
{
	struct host_override o = HOST_OVERRIDE_INIT;
	struct strlist problems = STRLIST_INIT;
	json_t *j;
	char *s;
	const char *utc;

	(void)state;
	j = host_state_json(&problems, &o);
	s = compact(j);
	assert_string_equal(s, "{\"unfixed\":false,\"problems\":[],\"override_reason\":null}");
	free(s);
	json_decref(j);
	sl_push(&problems, "hardware cycle counter unavailable");
	sl_push(&problems, "running under a hypervisor");
	host_override_parse_arg(&o, "--allow-unfixed-host=VM");
	j = host_state_json(&problems, &o);
	s = compact(j);
	assert_string_equal(s, "{\"unfixed\":true,\"problems\":[\"hardware cycle counter unavailable\","
			       "\"running under a hypervisor\"],\"override_reason\":\"VM\"}");
	free(s);
	json_decref(j);
	j = host_override_entry("measure", 1, "2/4", &o, &problems);
	utc = jget_str(j, "utc", "");
	assert_int_equal(strlen(utc), 20);
	assert_int_equal(utc[19], 'Z');
	json_object_del(j, "utc");
	s = compact(j);
	assert_string_equal(s, "{\"phase\":\"measure\",\"cpu\":1,\"shard\":\"2/4\",\"reason\":\"VM\","
			       "\"problems\":[\"hardware cycle counter unavailable\",\"running under a hypervisor\"]}");
	free(s);
	json_decref(j);
	host_override_set(&o, NULL);
	j = host_override_entry("calibrate", 0, NULL, &o, &problems);
	assert_true(json_is_null(json_object_get(j, "shard")));
	assert_string_equal(jget_str(j, "reason", ""), "not given");
	json_decref(j);
	host_override_free(&o);
	sl_free(&problems);
}

static void test_gate_refuses_without_override(void **state)
{
	struct host_override o = HOST_OVERRIDE_INIT;
	struct strlist problems = STRLIST_INIT;

	(void)state;
	assert_int_equal(host_gate("measure", 1, &problems, &o), EXIT_OK);
	sl_push(&problems, "governor is powersave");
	assert_int_equal(host_gate("measure", 1, &problems, &o), EXIT_USAGE);
	assert_int_equal(host_gate("measure", 1, &problems, NULL), EXIT_USAGE);
	host_override_set(&o, "dev box");
	assert_int_equal(host_gate("measure", 1, &problems, &o), EXIT_OK);
	host_override_free(&o);
	sl_free(&problems);
}

/* ---- helpers -------------------------------------------------------- */

static void test_cpulists(void **state)
{
	(void)state;
	assert_int_equal(cpulist_contains("0-3,8", 8), 1);
	assert_int_equal(cpulist_contains("0-3,8", 5), 0);
	assert_int_equal(cpulist_contains("0-3,8", 0), 1);
	assert_int_equal(cpulist_contains("2", 2), 1);
	assert_int_equal(cpulist_count("0-3,8,10-11\n"), 7);
	assert_int_equal(cpulist_count(""), 0);
	assert_int_equal(cpulist_count("a"), -1);
	assert_int_equal(cpulist_count("3-1"), -1);
	assert_int_equal(cpulist_count("1,"), -1);
}

static void test_lines_and_commands(void **state)
{
	char *s;

	(void)state;
	put("/sys/x/padded", "  value with spaces  \nsecond line\n");
	s = hostfs_line("/sys/x/padded");
	assert_string_equal(s, "value with spaces");
	free(s);
	assert_null(hostfs_line("/sys/x/absent"));
	assert_true(hostfs_exists("/sys/x"));
	s = first_line_of_command("cc", "--version");
	assert_non_null(s);
	assert_null(strchr(s, '\n'));
	free(s);
	assert_null(first_line_of_command("ngcc-no-such-program-xyz", "--version"));
	assert_true(host_default_cpu() >= 0);
}

int main(void)
{
#define TREE(t) cmocka_unit_test_setup_teardown(t, setup_tree, teardown_tree)
	const struct CMUnitTest tests[] = {
		TREE(test_every_tree_problem),
		TREE(test_fixed_tree_has_no_problem),
		TREE(test_architecture_and_pinned_clock),
		TREE(test_user_mode_emulation),
		TREE(test_hypervisor_flag_and_type),
		TREE(test_steady_clock_fails_only_if_all_probes_fail),
		cmocka_unit_test(test_probe_steadiness_rule),
		cmocka_unit_test(test_probe_scale_parse),
		TREE(test_env_block_from_tree),
		cmocka_unit_test(test_env_capture_real_host_short_probe),
		cmocka_unit_test(test_clock_text_forms),
		cmocka_unit_test(test_turbo_text),
		cmocka_unit_test(test_reference_clock_and_mhz),
		cmocka_unit_test(test_env_equal),
		cmocka_unit_test(test_override_parsing),
		cmocka_unit_test(test_host_state_and_override_entry),
		cmocka_unit_test(test_gate_refuses_without_override),
		cmocka_unit_test(test_cpulists),
		TREE(test_lines_and_commands),
	};
#undef TREE

	return cmocka_run_group_tests(tests, NULL, NULL);
}
