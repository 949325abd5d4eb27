/*
 * env.c — the environment block stored at the start and end of a campaign
 * and in every record (docs/method.md §3), with the clock probe's result
 * (§6.4, host/clock.h), the reference clock, the report's clock text
 * (docs/report-format.md §5.2) and the R10 environment equality.  sysfs
 * values stay strings (or null) so that nothing is lost by parsing them.
 */
#include "host/env.h"

#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "evidence/json.h"
#include "host/counter_unit.h"
#include "host/hostcheck.h"
#include "host/hostfs.h"
#include "host/probescale.h"
#include "method/toolchain.h"

/* ---- small readers -------------------------------------------------- */

static void set_owned_str(json_t *o, const char *key, char *s)
{
	json_object_set_new(o, key, jstr_or_null(s));
	free(s);
}

static json_t *cpu_model_json(int cpu)
{
	char *model = cpuinfo_field(cpu, "model name"), *impl, *part;
	json_t *j;

	if (!model) {
		/* AArch64 kernels give implementer and part codes instead. */
		impl = cpuinfo_field(cpu, "CPU implementer");
		part = cpuinfo_field(cpu, "CPU part");
		if (impl && part)
			model = xasprintf("implementer %s part %s", impl, part);
		free(impl);
		free(part);
	}
	if (!model)
		model = cpuinfo_field(cpu, "Hardware");
	j = jstr_or_null(model);
	free(model);
	return j;
}

static char *microcode_of(int cpu)
{
	char *v = hostfs_line("/sys/devices/system/cpu/cpu%d/microcode/version", cpu);

	return v ? v : cpuinfo_field(cpu, "microcode");
}

static json_t *memtotal_kib_json(void)
{
	char *data = hostfs_read("/proc/meminfo"), *p;
	json_t *j = json_null();

	if (data && (p = strstr(data, "MemTotal:"))) {
		json_decref(j);
		j = json_integer(strtoll(p + strlen("MemTotal:"), NULL, 10));
	}
	free(data);
	return j;
}

static json_t *os_pretty_name_json(void)
{
	char *data = hostfs_read("/etc/os-release"), *line, *save = NULL, *v;
	json_t *j = NULL;
	size_t n;

	if (!data)
		return json_null();
	for (line = strtok_r(data, "\n", &save); line && !j; line = strtok_r(NULL, "\n", &save)) {
		if (!str_starts_with(line, "PRETTY_NAME="))
			continue;
		v = str_trim(line + strlen("PRETTY_NAME="));
		n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		j = json_string(v);
	}
	free(data);
	return j ? j : json_null();
}

/* Tool versions do not change while we run: ask each once. */
static const char *cached_version(int which)
{
	static char *line[1];
	static int asked[1];

	if (!asked[which]) {
		asked[which] = 1;
		line[which] = first_line_of_command(toolchain_cc(), "--version");
	}
	return line[which];
}

/* "always [madvise] never" → "madvise" */
static char *thp_mode(void)
{
	char *s = hostfs_line("/sys/kernel/mm/transparent_hugepage/enabled"), *a, *b, *m;

	if (!s || !(a = strchr(s, '[')) || !(b = strchr(a, ']')))
		return s;
	m = xstrndup(a + 1, (size_t)(b - a - 1));
	free(s);
	return m;
}

/* Name of the deepest idle state the CPU may enter, NULL if unreadable. */
static char *deepest_cstate(int cpu)
{
	char *best = NULL, *name, *disabled;
	int k;

	for (k = 0; hostfs_exists("/sys/devices/system/cpu/cpu%d/cpuidle/state%d", cpu, k); k++) {
		disabled = hostfs_line("/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, k);
		name = hostfs_line("/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, k);
		if (name && !(disabled && !strcmp(disabled, "1"))) {
			free(best);
			best = name;
			name = NULL;
		}
		free(name);
		free(disabled);
	}
	return best;
}

static json_t *loadavg_json(void)
{
	char *s = hostfs_line("/proc/loadavg");
	double l1, l5, l15;
	json_t *j;

	if (!s || sscanf(s, "%lf %lf %lf", &l1, &l5, &l15) != 3) {
		free(s);
		return json_null();
	}
	free(s);
	j = json_array();
	json_array_append_new(j, json_real(l1));
	json_array_append_new(j, json_real(l5));
	json_array_append_new(j, json_real(l15));
	return j;
}

/* Task state and last CPU from /proc/<pid>/task/<tid>/stat; the command
 * name may hold spaces and parentheses, so parse after the last ')'. */
static int task_runnable_on(const char *stat_path, int cpu)
{
	char *s = hostfs_read(stat_path), *p, *save = NULL, *tok;
	int field = 3, hit = 0, is_running = 0;

	if (!s || !(p = strrchr(s, ')'))) {
		free(s);
		return 0;
	}
	for (tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3)
			is_running = !strcmp(tok, "R");
		if (field == 39) {
			hit = is_running && atoi(tok) == cpu;
			break;
		}
	}
	free(s);
	return hit;
}

static int tasks_of_pid_on(const char *pid, int cpu)
{
	char *rel = xasprintf("/proc/%s/task", pid), *dir = hostfs_path(rel), *stat;
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		stat = xasprintf("%s/%s/stat", rel, e->d_name);
		n += task_runnable_on(stat, cpu);
		free(stat);
	}
	if (d)
		closedir(d);
	free(rel);
	free(dir);
	return n;
}

/* Runnable tasks, other than ours, last seen on cpu: a cheap hint that
 * something else competes for the benchmark CPU. */
static json_t *other_runnable_on_cpu_json(int cpu)
{
	char *proc = hostfs_path("/proc"), self[32];
	DIR *d = opendir(proc);
	struct dirent *e;
	int n = 0;

	free(proc);
	if (!d)
		return json_null();
	snprintf(self, sizeof(self), "%d", (int)getpid());
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strcmp(e->d_name, self))
			continue;
		n += tasks_of_pid_on(e->d_name, cpu);
	}
	closedir(d);
	return json_integer(n);
}

/* ---- the block ------------------------------------------------------ */

static json_t *counter_json(const struct counter *c, const struct env_opts *o)
{
	struct counter copy = *c;
	double ticks = 0, ns = 0;
	json_t *j = json_object();

	if (o->overhead_brackets > 0)
		counter_overhead(&copy, o->overhead_brackets, &ticks, &ns);
	json_object_set_new(j, "name", json_string(c->name));
	json_object_set_new(j, "hz", c->kind == COUNTER_NONE ? json_null() : json_real(c->hz));
	json_object_set_new(j, "resolution", json_real(c->resolution));
	json_object_set_new(j, "reference_ticks",
			    json_boolean(c->kind == COUNTER_TSC || c->kind == COUNTER_CNTVCT));
	json_object_set_new(j, "why_fallback", jstr_or_null(c->why_fallback));
	json_object_set_new(j, "overhead_brackets", json_integer(o->overhead_brackets));
	json_object_set_new(j, "overhead_ticks_median",
			    c->kind == COUNTER_NONE || o->overhead_brackets < 1 ? json_null() : json_real(ticks));
	json_object_set_new(j, "overhead_ns_median",
			    o->overhead_brackets < 1 ? json_null() : json_real(ns));
	json_object_set_new(j, "raw_source", json_string(counter_raw_source()));
	counter_unit_json(c, j);
	return j;
}

static void add_clock(json_t *env, int cpu, const struct counter *c, const struct env_opts *o)
{
	struct clock_probe p;
	json_t *j;

	if (o->probe_windows < 1 ||
	    clock_probe_on_cpu(cpu, c, o->probe_windows, o->probe_window_ms, &p) < 0) {
		json_object_set_new(env, "core_clock_hz", json_null());
		json_object_set_new(env, "core_clock_mhz", json_null());
		return;
	}
	j = json_object();
	json_object_set_new(j, "median", json_real(p.median));
	json_object_set_new(j, "min", json_real(p.min));
	json_object_set_new(j, "max", json_real(p.max));
	json_object_set_new(j, "iqr", json_real(p.iqr));
	json_object_set_new(j, "windows", json_integer(p.windows));
	json_object_set_new(j, "window_ms", json_integer(o->probe_window_ms));
	/* Without a hardware counter this is the TSC/cntvct rate, not the
	 * core clock: say so next to the number. */
	json_object_set_new(j, "source", json_string(p.source));
	json_object_set_new(env, "core_clock_hz", j);
	json_object_set_new(env, "core_clock_mhz", json_integer(env_clock_mhz(p.median)));
}

static void add_identity(json_t *env, int cpu)
{
	struct utsname u;
	char host[256];
	char *online = hostfs_line("/sys/devices/system/cpu/online");
	int have_uname = uname(&u) == 0, count = online ? cpulist_count(online) : -1;

	host[0] = '\0';
	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	json_object_set_new(env, "hostname", *host ? json_string(host) : json_null());
	json_object_set_new(env, "architecture", have_uname ? json_string(u.machine) : json_null());
	json_object_set_new(env, "cpu_model", cpu_model_json(cpu));
	if (have_uname && !strcmp(u.machine, "aarch64"))
		set_owned_str(env, "machine", hostfs_line("/sys/firmware/devicetree/base/model"));
	else
		json_object_set_new(env, "machine", json_null());
	json_object_set_new(env, "cpu_number", json_integer(cpu));
	json_object_set_new(env, "logical_cpus_online", count >= 0 ? json_integer(count) : json_null());
	json_object_set_new(env, "virtualized", json_boolean(host_virtualized(cpu, NULL)));
	set_owned_str(env, "microcode", microcode_of(cpu));
	json_object_set_new(env, "memory_total_kib", memtotal_kib_json());
	json_object_set_new(env, "os", os_pretty_name_json());
	json_object_set_new(env, "kernel", have_uname ? json_string(u.release) : json_null());
	json_object_set_new(env, "compiler", jstr_or_null(cached_version(0)));
	/* Candidates are compiled by `ngcc-perf build` itself, which runs the
	 * compiler directly: no Makefile or CMake file of theirs is used. */
	json_object_set_new(env, "build_tool",
			    json_string("ngcc-perf " NGCC_VERSION " (direct compiler invocation)"));
	free(online);
}

static void add_frequency_knobs(json_t *env, int cpu)
{
	set_owned_str(env, "perf_event_paranoid", hostfs_line("/proc/sys/kernel/perf_event_paranoid"));
	set_owned_str(env, "cpufreq_governor",
		      hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu));
	set_owned_str(env, "cpufreq_driver",
		      hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu));
	set_owned_str(env, "cpufreq_min_khz",
		      hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_min_freq", cpu));
	set_owned_str(env, "cpufreq_max_khz",
		      hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_max_freq", cpu));
	set_owned_str(env, "intel_pstate_no_turbo", hostfs_line("/sys/devices/system/cpu/intel_pstate/no_turbo"));
	set_owned_str(env, "cpufreq_boost", hostfs_line("/sys/devices/system/cpu/cpufreq/boost"));
	set_owned_str(env, "smt_control", hostfs_line("/sys/devices/system/cpu/smt/control"));
}

/* Recorded, never refused (docs/method.md §3, R15). */
static void add_recorded_facts(json_t *env, int cpu)
{
	set_owned_str(env, "isolcpus", hostfs_line("/sys/devices/system/cpu/isolated"));
	set_owned_str(env, "nohz_full", hostfs_line("/sys/devices/system/cpu/nohz_full"));
	set_owned_str(env, "irq_default_affinity", hostfs_line("/proc/irq/default_smp_affinity"));
	set_owned_str(env, "deepest_cstate", deepest_cstate(cpu));
	set_owned_str(env, "thp", thp_mode());
	set_owned_str(env, "aslr", hostfs_line("/proc/sys/kernel/randomize_va_space"));
	json_object_set_new(env, "load_average", loadavg_json());
	json_object_set_new(env, "other_runnable_tasks_on_cpu", other_runnable_on_cpu_json(cpu));
}

json_t *env_capture_opts(int cpu, const struct counter *c, const struct env_opts *o)
{
	struct counter local;
	json_t *env = json_object();

	if (!c) {
		counter_open(&local, 0);
		c = &local;
	}
	add_identity(env, cpu);
	add_frequency_knobs(env, cpu);
	add_clock(env, cpu, c, o);
	json_object_set_new(env, "counter", counter_json(c, o));
	add_recorded_facts(env, cpu);
	if (c == &local)
		counter_close(&local);
	return env;
}

json_t *env_capture(int cpu, const struct counter *c)
{
	struct env_opts o = ENV_OPTS_DEFAULT;
	o.probe_window_ms = host_probe_scaled_ms(o.probe_window_ms);

	return env_capture_opts(cpu, c, &o);
}

/* ---- derived texts -------------------------------------------------- */

long env_clock_mhz(double hz)
{
	return 50 * lround(hz / 50e6);
}

static double khz_of(const json_t *env, const char *key)
{
	const char *s = jget_str(env, key, NULL);

	return s ? strtod(s, NULL) : 0;
}

double env_reference_clock_hz(const json_t *env)
{
	double khz = khz_of(env, "cpufreq_max_khz");
	const json_t *probe = json_object_get(env, "core_clock_hz");

	if (khz > 0)
		return khz * 1000;
	if (json_is_number(probe))
		return json_number_value(probe);
	return jget_real(probe, "median", 0);
}

const char *env_smt_text(const json_t *env)
{
	const char *s = jget_str(env, "smt_control", NULL);

	if (!s)
		return "unknown";
	if (!strcmp(s, "notsupported") || !strcmp(s, "notimplemented"))
		return "none";
	return s;
}

static int str_is(const json_t *env, const char *key, const char *value)
{
	const char *s = jget_str(env, key, NULL);

	return s && !strcmp(s, value);
}

const char *env_turbo_text(const json_t *env)
{
	if (str_is(env, "intel_pstate_no_turbo", "1") || str_is(env, "cpufreq_boost", "0"))
		return "off";
	if (str_is(env, "cpufreq_boost", "1") || str_is(env, "intel_pstate_no_turbo", "0"))
		return "on";
	return "unknown";
}

static int has_cpufreq(const json_t *env)
{
	return jget_str(env, "cpufreq_governor", NULL) || jget_str(env, "cpufreq_max_khz", NULL);
}

char *env_clock_text(const json_t *env)
{
	const char *gov = jget_str(env, "cpufreq_governor", NULL);
	const char *arch = jget_str(env, "architecture", "");
	const char *min = jget_str(env, "cpufreq_min_khz", NULL);
	const char *max = jget_str(env, "cpufreq_max_khz", NULL);
	long mhz = (long)jget_int(env, "core_clock_mhz", 0);

	if (!has_cpufreq(env) && mhz > 0)
		return xasprintf("measured %.2f GHz, set by firmware (no OS frequency scaling or boost), SMT %s",
				 mhz / 1000.0, env_smt_text(env));
	if (!strcmp(arch, "aarch64") && gov && min && max && !strcmp(min, max))
		return xasprintf("fixed %.2f GHz (governor %s, minimum = maximum), boost %s, SMT %s",
				 strtod(max, NULL) / 1e6, gov,
				 str_is(env, "cpufreq_boost", "1") ? "on" : "off", env_smt_text(env));
	if (!max)
		return xasprintf("max unknown, governor %s, turbo %s, SMT %s", gov ? gov : "none",
				 env_turbo_text(env), env_smt_text(env));
	return xasprintf("max %.2f GHz, governor %s, turbo %s, SMT %s", strtod(max, NULL) / 1e6,
			 gov ? gov : "none", env_turbo_text(env), env_smt_text(env));
}

/* ---- equality (R10) ------------------------------------------------- */

static const char *const r10_keys[] = {
	"hostname", "cpu_model", "microcode", "cpufreq_governor", "cpufreq_min_khz",
	"cpufreq_max_khz", "intel_pstate_no_turbo", "cpufreq_boost", "smt_control",
	"perf_event_paranoid", "core_clock_mhz", "kernel", "compiler",
};

static char *value_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return xstrdup("null");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	{
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
		char *out = xstrdup(s ? s : "?");
		free(s);
		return out;
	}
}

static int same_value(const json_t *x, const json_t *y)
{
	int xnull = !x || json_is_null(x), ynull = !y || json_is_null(y);

	if (xnull || ynull)
		return xnull && ynull;
	return json_equal((json_t *)x, (json_t *)y);
}

static int compare_key(const char *key, const json_t *x, const json_t *y, struct strlist *diffs)
{
	char *a, *b;

	if (same_value(x, y))
		return 1;
	if (diffs) {
		a = value_text(x);
		b = value_text(y);
		sl_push_owned(diffs, xasprintf("%s: %s -> %s", key, a, b));
		free(a);
		free(b);
	}
	return 0;
}

int env_equal(const json_t *a, const json_t *b, int same_cpu, struct strlist *diffs)
{
	size_t i;
	int equal = 1;

	for (i = 0; i < sizeof(r10_keys) / sizeof(r10_keys[0]); i++)
		equal &= compare_key(r10_keys[i], json_object_get(a, r10_keys[i]),
				     json_object_get(b, r10_keys[i]), diffs);
	/* The counter object also holds measured rates and overheads; only
	 * which counter it is must stay the same. */
	equal &= compare_key("counter", json_object_get(json_object_get(a, "counter"), "name"),
			     json_object_get(json_object_get(b, "counter"), "name"), diffs);
	if (same_cpu)
		equal &= compare_key("cpu_number", json_object_get(a, "cpu_number"),
				     json_object_get(b, "cpu_number"), diffs);
	return equal;
}
