/*
 * show.c — what `check-host` prints (docs/method.md §3): the environment summary,
 * one `HOST: <problem>` line per problem, then `host ready` or
 * `<n> problem(s)`; or the same as one JSON document.  Writes nothing; the
 * measuring phases run the same checks and store them.
 */
#include "host/show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "host/counter_unit.h"
#include "host/env.h"
#include "host/hostcheck.h"
#include "method/format.h"

static const char *or_text(const char *s, const char *fallback)
{
	return s && *s ? s : fallback;
}

static void print_row(const char *item, const char *value)
{
	printf("%-16s %s\n", item, value);
}

static void print_counter(const json_t *env)
{
	const json_t *c = json_object_get(env, "counter");
	const char *name = jget_str(c, "name", "none");
	const char *why = jget_str(c, "why_fallback", NULL);
	char *line;

	if (!strcmp(name, "none"))
		line = xasprintf("none: cycles are not measured (%s)", or_text(why, "no counter"));
	else {
		/* The same words as the method page: ticks (or cycles) and their
		 * time at the counter's rate, then the clock reads inside. */
		int ticks = jget_bool(c, "reference_ticks", 0);
		char *unit = counter_unit_text(c);
		char *paren = unit ? xasprintf(" (%s)", unit)
				   : xstrdup(ticks ? " (reference ticks, not core cycles)" : "");
		char *bracket = fmt_bracket_overhead(jget_real(c, "overhead_ticks_median", 0),
						     ticks ? "ticks" : "cycles", jget_real(c, "hz", 0),
						     jget_real(c, "overhead_ns_median", -1));
		line = xasprintf("%s at %.2f GHz%s, empty bracket (median) %s%s%s",
				 name, jget_real(c, "hz", 0) / 1e9, paren, bracket,
				 why ? "; fallback because " : "", why ? why : "");
		free(unit);
		free(paren);
		free(bracket);
	}
	print_row("counter", line);
	free(line);
}

static void print_clock(const json_t *env)
{
	const json_t *probe = json_object_get(env, "core_clock_hz");
	char *text = env_clock_text(env);
	const char *source = jget_str(probe, "source", NULL);
	char *line;

	if (source && !strcmp(source, "reference-ticks"))
		line = xasprintf("%s [probe measured reference ticks per second: no hardware cycle counter]", text);
	else if (source && !strcmp(source, "pinned-clock-cycles"))
		line = xasprintf("%s [probe measured cntvct_el0 ticks converted at the pinned clock: "
				 "not an independent measure of the core clock]", text);
	else
		line = xstrdup(text);
	print_row("clock", line);
	free(line);
	free(text);
}

static void print_load(const json_t *env)
{
	const json_t *la = json_object_get(env, "load_average");
	long long others = jget_int(env, "other_runnable_tasks_on_cpu", -1);
	char *line;

	if (json_array_size(la) == 3)
		line = xasprintf("%.2f %.2f %.2f", json_number_value(json_array_get(la, 0)),
				 json_number_value(json_array_get(la, 1)),
				 json_number_value(json_array_get(la, 2)));
	else
		line = xstrdup("unknown");
	print_row("load average", line);
	free(line);
	if (others >= 0) {
		line = xasprintf("%lld", others);
		print_row("other runnable", line);
		free(line);
	}
}

static void print_summary(const json_t *env, const json_t *facts)
{
	char *cpu = xasprintf("%lld (%lld logical CPUs online)", jget_int(env, "cpu_number", -1),
			      jget_int(env, "logical_cpus_online", 0));
	const char *hv = jget_str(facts, "hypervisor_type", NULL);
	char *virt = jget_bool(env, "virtualized", 0)
		? xasprintf("yes%s%s", hv ? ", " : " (hypervisor CPU flag)", hv ? hv : "")
		: xstrdup("no");

	print_row("architecture", or_text(jget_str(env, "architecture", NULL), "unknown"));
	print_row("CPU model", or_text(jget_str(env, "cpu_model", NULL), "unknown"));
	if (jget_str(env, "machine", NULL))
		print_row("machine", jget_str(env, "machine", NULL));
	print_row("CPU number", cpu);
	print_counter(env);
	print_row("governor", or_text(jget_str(env, "cpufreq_governor", NULL), "none (no cpufreq)"));
	print_row("turbo", env_turbo_text(env));
	print_row("SMT", env_smt_text(env));
	print_clock(env);
	print_row("virtualised", virt);
	if (jget_bool(facts, "emulated", 0)) {
		char *emu = xasprintf("yes: user-mode emulation, the kernel is %s",
				      jget_str(facts, "kernel_architecture", "?"));
		print_row("emulated", emu);
		free(emu);
	}
	print_row("isolcpus", or_text(jget_str(env, "isolcpus", NULL), "none"));
	print_row("nohz_full", or_text(jget_str(env, "nohz_full", NULL), "none"));
	print_load(env);
	free(cpu);
	free(virt);
}

/* What to do about each problem of hostcheck.h, by the start of its
 * wording (the formats' fixed part). */
static const struct {
	const char *problem;
	const char *fix;
} remedies[] = {
	{ HOST_PROBLEM_ARCH, "ngcc-perf has the guide's flags for x86_64 and aarch64 only: measure on one of those" },
	{ HOST_PROBLEM_COUNTER, "on bare metal (or a VM that exposes the PMU), let user mode count cycles: "
	  "sysctl kernel.perf_event_paranoid=2 (or lower), as root" },
	{ HOST_PROBLEM_TURBO, "as root: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (Intel), "
	  "or echo 0 > /sys/devices/system/cpu/cpufreq/boost" },
	{ "governor is ", "as root: cpupower -c <CPU> frequency-set -g performance (or write performance "
	  "to /sys/devices/system/cpu/cpu<CPU>/cpufreq/scaling_governor)" },
	{ HOST_PROBLEM_NOT_PINNED, "as root: set scaling_min_freq to scaling_max_freq in "
	  "/sys/devices/system/cpu/cpu<CPU>/cpufreq/" },
	{ HOST_PROBLEM_SMT, "as root: echo off > /sys/devices/system/cpu/smt/control, or take a CPU "
	  "whose sibling is offline with --cpu N" },
	{ HOST_PROBLEM_HYBRID, "take a performance core with --cpu N" },
	{ "CPU ", "take a CPU this process may run on with --cpu N (taskset -p $$ lists them)" },
	{ "clock not steady", "stop the other load on the machine and fix the frequency (governor "
	  "performance, no turbo), then check again" },
	{ HOST_PROBLEM_HYPERVISOR, "measure on bare metal: a virtual machine cannot be fixed" },
};

static const char *remedy(const char *problem)
{
	for (size_t i = 0; i < sizeof remedies / sizeof remedies[0]; i++)
		if (!strncmp(problem, remedies[i].problem, strlen(remedies[i].problem)))
			return remedies[i].fix;
	return NULL;
}

static void print_problems(const struct strlist *problems)
{
	for (size_t i = 0; i < problems->n; i++) {
		const char *fix = remedy(problems->items[i]);
		printf("HOST: %s\n", problems->items[i]);
		if (fix)
			printf("  to fix: %s\n", fix);
	}
	printf("measure refuses this host: fix the problems above and run check-host again, or "
	       "measure anyway with --allow-unfixed-host=REASON (the reason and the problems go "
	       "into every record and onto the pages; publish then needs --publish-unfixed)\n");
	printf("%zu problem(s)\n", problems->n);
}

static void print_json(int cpu, json_t *env, json_t *facts, const struct strlist *problems)
{
	json_t *out = json_object(), *list = json_array();
	char *text;
	size_t i;

	for (i = 0; i < problems->n; i++)
		json_array_append_new(list, json_string(problems->items[i]));
	json_object_set_new(out, "schema", evidence_schema("check-host", 1));
	json_object_set_new(out, "cpu", json_integer(cpu));
	json_object_set_new(out, "environment", json_incref(env));
	json_object_set_new(out, "checks", json_incref(facts));
	json_object_set_new(out, "problems", list);
	json_object_set_new(out, "host_ready", json_boolean(problems->n == 0));
	text = evidence_dumps(out);
	fputs(text, stdout);
	free(text);
	json_decref(out);
}

int host_check_show(int cpu, int as_json)
{
	struct strlist problems = STRLIST_INIT;
	json_t *env, *facts = NULL;
	size_t i;

	if (cpu < 0 && (cpu = host_default_cpu()) < 0) {
		ngcc_error("check-host: cannot read this process's CPU affinity; give --cpu N");
		return EXIT_SYSTEM;
	}
	host_check(cpu, &problems, &facts);
	env = env_capture(cpu, NULL);
	if (as_json) {
		print_json(cpu, env, facts, &problems);
	} else {
		print_summary(env, facts);
		if (problems.n)
			print_problems(&problems);
		else
			printf("host ready\n");
	}
	json_decref(env);
	json_decref(facts);
	i = problems.n;
	sl_free(&problems);
	return i ? EXIT_FAILED : EXIT_OK;
}
