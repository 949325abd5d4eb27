/*
 * hostcheck.h — the host checks of docs/method.md §3 (is this CPU fit to measure
 * on?), the refusal rule of the measuring phases and the evidence of the
 * --allow-unfixed-host override.
 */
#ifndef NGCC_HOST_HOSTCHECK_H
#define NGCC_HOST_HOSTCHECK_H

#include <jansson.h>

#include "host/clock.h"
#include "util/util.h"

/* Problem strings, exactly as docs/method.md §3's table words them. */
#define HOST_PROBLEM_ARCH "no guide configuration"
#define HOST_PROBLEM_COUNTER "hardware cycle counter unavailable"
#define HOST_PROBLEM_TURBO "turbo/boost is enabled"
#define HOST_PROBLEM_GOVERNOR_FMT "governor is %s"
#define HOST_PROBLEM_NOT_PINNED "clock not pinned"
#define HOST_PROBLEM_SMT "shares its core (SMT on)"
#define HOST_PROBLEM_HYBRID "not a performance core"
#define HOST_PROBLEM_AFFINITY_FMT "CPU %d cannot be used"
#define HOST_PROBLEM_STEADY_FMT "clock not steady (%.2f\u2013%.2f GHz)"
#define HOST_PROBLEM_HYPERVISOR "running under a hypervisor"
#define HOST_PROBLEM_EMULATED_FMT "emulated (%s program on a %s kernel): not a performance figure"

#define HOST_REFUSAL "refusing to measure on an unfixed host"

/* The highest-numbered CPU this process may use (docs/method.md §3), or -1. */
int host_default_cpu(void);

/* User-mode emulation: "aarch64 program on a x86_64 kernel" when uname()
 * (which the emulator answers) and the kernel's own kernel.arch sysctl name
 * different machines; NULL when they agree or the sysctl is missing.
 * kernel_arch: the sysctl's value to use (tests), NULL to read it. */
char *host_emulation(const char *arch, const char *kernel_arch);

/* Hypervisor CPU flag or a /sys/hypervisor type.  *type (may be NULL)
 * gets the hypervisor type string when known (caller frees). */
int host_virtualized(int cpu, char **type);

/* Knobs for tests; HOST_CHECK_OPTS_DEFAULT is what the CLI uses. */
struct host_check_opts {
	const char *arch;        /* NULL: uname() */
	const char *kernel_arch; /* NULL: /proc/sys/kernel/arch */
	int counter_opens;       /* -1: try it; 0/1: pretend */
	int affinity_ok;         /* -1: try it; 0/1: pretend */
	int steady_probes;       /* up to this many probes ... */
	unsigned steady_spacing_ms; /* ... this far apart */
	int probe_windows, probe_window_ms;
	/* Replaces the real clock probe (tests); NULL: the real one. */
	int (*probe)(void *ctx, int cpu, struct clock_probe *out);
	void *probe_ctx;
};
#define HOST_CHECK_OPTS_DEFAULT { NULL, NULL, -1, -1, 3, 5000, CLOCK_PROBE_WINDOWS, \
				  CLOCK_PROBE_WINDOW_MS, NULL, NULL }

/* Run every check for CPU `cpu`; problems get the table's wording.  facts
 * (optional) receives what was looked at.  Returns the problem count. */
int host_check(int cpu, struct strlist *problems, json_t **facts);
int host_check_opts(int cpu, const struct host_check_opts *o,
		    struct strlist *problems, json_t **facts);

/* The steady-clock rule on one probe: IQR ≤ 0.5 % of the median. */
int host_probe_is_steady(const struct clock_probe *p);

/* --allow-unfixed-host[=REASON] */
#define HOST_OVERRIDE_OPTION "allow-unfixed-host"
#define HOST_OVERRIDE_NO_REASON "not given"
struct host_override {
	int allowed;
	char *reason; /* owned; "not given" when the option had none */
};
#define HOST_OVERRIDE_INIT { 0, NULL }
/* From getopt_long's optarg of the option (NULL when there was no "="). */
void host_override_set(struct host_override *o, const char *optarg_or_null);
/* From one argv word: 1 if it is the option (and o is set), else 0. */
int host_override_parse_arg(struct host_override *o, const char *arg);
void host_override_free(struct host_override *o);

/* Record's `host` object: {unfixed, problems, override_reason}. */
json_t *host_state_json(const struct strlist *problems, const struct host_override *o);
/* campaign.json host_overrides entry: {phase, utc, cpu, shard, reason,
 * problems}; shard NULL → null. */
json_t *host_override_entry(const char *phase, int cpu, const char *shard,
			    const struct host_override *o, const struct strlist *problems);

/* The refusal rule for a measuring phase: with problems and no override,
 * print them, HOST_REFUSAL and what to do, and return EXIT_USAGE; with
 * the override, warn and return EXIT_OK; without problems EXIT_OK. */
int host_gate(const char *phase, int cpu, const struct strlist *problems,
	      const struct host_override *o);

#endif
