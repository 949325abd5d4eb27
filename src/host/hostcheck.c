/*
 * hostcheck.c — docs/method.md §3: every row of the host-check table for one
 * benchmark CPU, the refusal rule and the override evidence.  Problems use
 * the table's wording exactly: they end up in records and on pages.
 */
#include "host/hostcheck.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evidence/json.h"
#include "host/counter.h"
#include "host/hostfs.h"
#include "host/probescale.h"

/* Steady when IQR ≤ 0.5 % of the median (docs/method.md §3). */
#define STEADY_IQR_FRACTION 0.005

int host_default_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && (p = strstr(p, word))) {
		int starts = p == list || p[-1] == ' ' || p[-1] == '\t';
		int ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\t';
		if (starts && ends)
			return 1;
		p += n;
	}
	return 0;
}

int host_virtualized(int cpu, char **type)
{
	char *flags = cpuinfo_field(cpu, "flags");
	char *hv = hostfs_line("/sys/hypervisor/type");
	int flag = flags && has_word(flags, "hypervisor");
	int typed = hv && *hv;

	free(flags);
	if (type)
		*type = typed ? hv : NULL;
	if (!type || !typed)
		free(hv);
	return flag || typed;
}

int host_probe_is_steady(const struct clock_probe *p)
{
	return p->median > 0 && p->iqr <= STEADY_IQR_FRACTION * p->median;
}

/* ---- one function per table row ------------------------------------ */

static void check_arch(const char *arch, struct strlist *problems)
{
	if (strcmp(arch, "x86_64") && strcmp(arch, "aarch64"))
		sl_push(problems, HOST_PROBLEM_ARCH);
}

/* User-mode emulation (qemu-user run through binfmt_misc): uname() answers
 * with the emulated machine, but the kernel's own sysctl kernel.arch (Linux
 * 6.1 and later) still names the real one.  Every figure measured so is the
 * emulator's, not the machine's.  Without the sysctl nothing is claimed. */
static char *kernel_arch_of(const char *given)
{
	return given ? xstrdup(given) : hostfs_line("/proc/sys/kernel/arch");
}

char *host_emulation(const char *arch, const char *kernel_arch)
{
	struct utsname u;
	char *k = kernel_arch_of(kernel_arch), *what = NULL;

	if (!arch)
		arch = uname(&u) == 0 ? u.machine : NULL;
	if (arch && k && *k && strcmp(k, arch))
		what = xasprintf("%s program on a %s kernel", arch, k);
	free(k);
	return what;
}

static void check_emulation(const char *arch, const char *kernel_arch, struct strlist *problems,
			    json_t *facts)
{
	char *k = kernel_arch_of(kernel_arch);
	char *emulated = host_emulation(arch, k);

	json_object_set_new(facts, "kernel_architecture", jstr_or_null(k));
	json_object_set_new(facts, "emulated", json_boolean(emulated != NULL));
	if (emulated)
		sl_push_owned(problems, xasprintf(HOST_PROBLEM_EMULATED_FMT, arch, k));
	free(emulated);
	free(k);
}

static void check_counter(const struct host_check_opts *o, struct strlist *problems, json_t *facts)
{
	struct counter c;
	int opens = o->counter_opens;

	if (opens < 0) {
		counter_open(&c, 0);
		opens = c.kind == COUNTER_PERF;
		json_object_set_new(facts, "counter", json_string(c.name));
		json_object_set_new(facts, "counter_why_fallback", jstr_or_null(c.why_fallback));
		counter_close(&c);
	}
	json_object_set_new(facts, "hardware_counter_opens", json_boolean(opens));
	if (!opens)
		sl_push(problems, HOST_PROBLEM_COUNTER);
}

static int is(const char *s, const char *value)
{
	return s && !strcmp(s, value);
}

static void check_turbo(struct strlist *problems, json_t *facts)
{
	char *no_turbo = hostfs_line("/sys/devices/system/cpu/intel_pstate/no_turbo");
	char *boost = hostfs_line("/sys/devices/system/cpu/cpufreq/boost");
	int disabled = is(no_turbo, "1") || is(boost, "0");
	int enabled = is(no_turbo, "0") || is(boost, "1");

	/* Neither knob present: the OS cannot boost, nothing to refuse. */
	if (enabled && !disabled)
		sl_push(problems, HOST_PROBLEM_TURBO);
	json_object_set_new(facts, "intel_pstate_no_turbo", jstr_or_null(no_turbo));
	json_object_set_new(facts, "cpufreq_boost", jstr_or_null(boost));
	free(no_turbo);
	free(boost);
}

/* Governor and, on aarch64, the pinned clock.  Returns 1 if cpufreq is
 * present for the CPU. */
static int check_cpufreq(int cpu, const char *arch, struct strlist *problems, json_t *facts)
{
	const char *dir = "/sys/devices/system/cpu/cpu%d/cpufreq";
	char *gov = hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	char *min = hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_min_freq", cpu);
	char *max = hostfs_line("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_max_freq", cpu);
	int present = gov || hostfs_exists(dir, cpu);

	if (gov && strcmp(gov, "performance"))
		sl_push_owned(problems, xasprintf(HOST_PROBLEM_GOVERNOR_FMT, gov));
	if (!strcmp(arch, "aarch64") && gov && !(min && max && !strcmp(min, max)))
		sl_push(problems, HOST_PROBLEM_NOT_PINNED);
	json_object_set_new(facts, "cpufreq", json_boolean(present));
	json_object_set_new(facts, "cpufreq_governor", jstr_or_null(gov));
	json_object_set_new(facts, "cpufreq_min_khz", jstr_or_null(min));
	json_object_set_new(facts, "cpufreq_max_khz", jstr_or_null(max));
	free(gov);
	free(min);
	free(max);
	return present;
}

static void check_smt(int cpu, struct strlist *problems, json_t *facts)
{
	char *siblings = hostfs_line("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	char *alone = xasprintf("%d", cpu);

	if (siblings && strcmp(siblings, alone))
		sl_push(problems, HOST_PROBLEM_SMT);
	json_object_set_new(facts, "thread_siblings_list", jstr_or_null(siblings));
	free(siblings);
	free(alone);
}

static void check_hybrid(int cpu, struct strlist *problems, json_t *facts)
{
	char *pcores = hostfs_line("/sys/devices/cpu_core/cpus");

	if (pcores && cpulist_contains(pcores, cpu) != 1)
		sl_push(problems, HOST_PROBLEM_HYBRID);
	json_object_set_new(facts, "performance_core_cpus", jstr_or_null(pcores));
	free(pcores);
}

/* Pin a throw-away child, so our own affinity is untouched. */
static int can_pin_to(int cpu)
{
	cpu_set_t one;
	pid_t pid;
	int status;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return 0;
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		_exit(sched_setaffinity(0, sizeof(one), &one) == 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void check_affinity(int cpu, const struct host_check_opts *o, struct strlist *problems,
			   json_t *facts)
{
	int ok = o->affinity_ok >= 0 ? o->affinity_ok : can_pin_to(cpu);

	if (!ok)
		sl_push_owned(problems, xasprintf(HOST_PROBLEM_AFFINITY_FMT, cpu));
	json_object_set_new(facts, "affinity_ok", json_boolean(ok));
}

/* ---- steady clock --------------------------------------------------- */

static int real_probe(void *ctx, int cpu, struct clock_probe *out)
{
	const struct host_check_opts *o = ctx;
	struct counter c;
	int rc;

	counter_open(&c, 0);
	rc = clock_probe_on_cpu(cpu, &c, o->probe_windows, o->probe_window_ms, out);
	counter_close(&c);
	return rc;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static json_t *probe_json(const struct clock_probe *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "median_hz", json_real(p->median));
	json_object_set_new(j, "min_hz", json_real(p->min));
	json_object_set_new(j, "max_hz", json_real(p->max));
	json_object_set_new(j, "iqr_hz", json_real(p->iqr));
	json_object_set_new(j, "steady", json_boolean(host_probe_is_steady(p)));
	return j;
}

/* Up to o->steady_probes probes, spaced; fails only if every probe does. */
static void check_steady_clock(int cpu, const struct host_check_opts *o, struct strlist *problems,
			       json_t *facts)
{
	json_t *probes = json_array();
	struct clock_probe p;
	double lo = 0, hi = 0;
	int i, steady = 0, probed = 0;

	for (i = 0; i < o->steady_probes && !steady; i++) {
		if (i > 0)
			sleep_ms(o->steady_spacing_ms);
		if ((o->probe ? o->probe(o->probe_ctx, cpu, &p)
			      : real_probe((void *)o, cpu, &p)) < 0)
			break;
		lo = probed ? (p.min < lo ? p.min : lo) : p.min;
		hi = probed ? (p.max > hi ? p.max : hi) : p.max;
		probed++;
		steady = host_probe_is_steady(&p);
		json_array_append_new(probes, probe_json(&p));
	}
	json_object_set_new(facts, "steady_clock_probes", probes);
	if (probed && !steady)
		sl_push_owned(problems, xasprintf(HOST_PROBLEM_STEADY_FMT, lo / 1e9, hi / 1e9));
}

/* ---- the whole table ------------------------------------------------ */

int host_check_opts(int cpu, const struct host_check_opts *o, struct strlist *problems,
		    json_t **facts_out)
{
	json_t *facts = json_object();
	struct utsname u;
	const char *arch = o->arch;
	char *hv_type = NULL;
	int cpufreq, virtualized;
	size_t before = problems->n;

	if (!arch)
		arch = uname(&u) == 0 ? u.machine : "unknown";
	json_object_set_new(facts, "cpu", json_integer(cpu));
	json_object_set_new(facts, "architecture", json_string(arch));
	check_arch(arch, problems);
	check_emulation(arch, o->kernel_arch, problems, facts);
	check_counter(o, problems, facts);
	check_turbo(problems, facts);
	cpufreq = check_cpufreq(cpu, arch, problems, facts);
	check_smt(cpu, problems, facts);
	check_hybrid(cpu, problems, facts);
	check_affinity(cpu, o, problems, facts);
	virtualized = host_virtualized(cpu, &hv_type);
	json_object_set_new(facts, "hypervisor", json_boolean(virtualized));
	json_object_set_new(facts, "hypervisor_type", jstr_or_null(hv_type));
	free(hv_type);
	/* Probing only makes sense on an otherwise fixed host whose clock
	 * no OS knob can pin. */
	if (!cpufreq && problems->n == before && !virtualized)
		check_steady_clock(cpu, o, problems, facts);
	else
		json_object_set_new(facts, "steady_clock_probes", json_null());
	if (virtualized)
		sl_push(problems, HOST_PROBLEM_HYPERVISOR);
	if (facts_out)
		*facts_out = facts;
	else
		json_decref(facts);
	return (int)(problems->n - before);
}

int host_check(int cpu, struct strlist *problems, json_t **facts)
{
	struct host_check_opts o = HOST_CHECK_OPTS_DEFAULT;
	o.probe_window_ms = host_probe_scaled_ms(o.probe_window_ms);
	o.steady_spacing_ms = (unsigned)host_probe_scaled_ms((int)o.steady_spacing_ms);

	return host_check_opts(cpu, &o, problems, facts);
}

/* ---- override and refusal ------------------------------------------ */

void host_override_set(struct host_override *o, const char *optarg_or_null)
{
	free(o->reason);
	o->allowed = 1;
	o->reason = xstrdup(optarg_or_null && *optarg_or_null ? optarg_or_null
							      : HOST_OVERRIDE_NO_REASON);
}

int host_override_parse_arg(struct host_override *o, const char *arg)
{
	const char *opt = "--" HOST_OVERRIDE_OPTION;
	size_t n = strlen(opt);

	if (strncmp(arg, opt, n))
		return 0;
	if (arg[n] == '\0') {
		host_override_set(o, NULL);
		return 1;
	}
	if (arg[n] != '=')
		return 0;
	host_override_set(o, arg + n + 1);
	return 1;
}

void host_override_free(struct host_override *o)
{
	free(o->reason);
	o->reason = NULL;
	o->allowed = 0;
}

static json_t *problems_json(const struct strlist *problems)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; problems && i < problems->n; i++)
		json_array_append_new(a, json_string(problems->items[i]));
	return a;
}

json_t *host_state_json(const struct strlist *problems, const struct host_override *o)
{
	json_t *j = json_object();
	int unfixed = problems && problems->n > 0;

	json_object_set_new(j, "unfixed", json_boolean(unfixed));
	json_object_set_new(j, "problems", problems_json(problems));
	json_object_set_new(j, "override_reason",
			    unfixed && o && o->allowed ? jstr_or_null(o->reason) : json_null());
	return j;
}

json_t *host_override_entry(const char *phase, int cpu, const char *shard,
			    const struct host_override *o, const struct strlist *problems)
{
	json_t *j = json_object();
	char utc[32];

	utc_now_iso(utc);
	json_object_set_new(j, "phase", json_string(phase));
	json_object_set_new(j, "utc", json_string(utc));
	json_object_set_new(j, "cpu", json_integer(cpu));
	json_object_set_new(j, "shard", jstr_or_null(shard));
	json_object_set_new(j, "reason", json_string(o && o->reason ? o->reason : HOST_OVERRIDE_NO_REASON));
	json_object_set_new(j, "problems", problems_json(problems));
	return j;
}

static char *joined(const struct strlist *problems)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < problems->n; i++) {
		if (i)
			sb_adds(&sb, "; ");
		sb_adds(&sb, problems->items[i]);
	}
	return sb_detach(&sb);
}

int host_gate(const char *phase, int cpu, const struct strlist *problems,
	      const struct host_override *o)
{
	char *list;
	size_t i;

	if (!problems || problems->n == 0)
		return EXIT_OK;
	list = joined(problems);
	if (o && o->allowed) {
		ngcc_warning("%s on CPU %d: host not fixed: %s (override: %s); the records will be marked unfixed",
			     phase, cpu, list, o->reason ? o->reason : HOST_OVERRIDE_NO_REASON);
		free(list);
		return EXIT_OK;
	}
	for (i = 0; i < problems->n; i++)
		fprintf(stderr, "HOST: %s\n", problems->items[i]);
	ngcc_error("%s: %s (CPU %d: %s); fix the host (see `ngcc-perf check-host --cpu %d`) "
		   "or pass --allow-unfixed-host=REASON on a machine that can never be fixed",
		   phase, HOST_REFUSAL, cpu, list, cpu);
	free(list);
	return EXIT_USAGE;
}
