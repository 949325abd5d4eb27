/*
 * cmd_check_host.c — `ngcc-perf check-host [--cpu N] [--json]`: the options
 * of the host check (host/show.h).
 */
#include "cli/cli.h"
#include "util/numparse.h"
#include "host/show.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static void check_host_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf check-host [--cpu N] [--json]\n"
		"\n"
		"Check whether benchmark CPU N is fit to measure on (docs/method.md \u00a73): a\n"
		"user-mode hardware cycle counter, no turbo/boost, governor performance,\n"
		"no SMT sibling, a performance core, pinnable, a steady clock, no\n"
		"hypervisor.  Prints the environment, `HOST: <problem>` lines, each with\n"
		"a `to fix:` line, what to do (fix, or --allow-unfixed-host=REASON on the\n"
		"measuring commands), then `host ready` or `<n> problem(s)`.  Writes\n"
		"nothing.\n"
		"\n"
		"Options:\n"
		"  --cpu N    benchmark CPU (default: the highest-numbered CPU this\n"
		"             process may use)\n"
		"  --json     print the environment block, the checks and the problems\n"
		"             as JSON instead\n"
		"  -h, --help show this help\n"
		"\n"
		"Exit codes: 0 host ready, 1 problems found, 2 usage error.\n");
}

static int parse_cpu(const char *s, int *cpu)
{
	return parse_whole_int(s, 0, INT_MAX, cpu);
}

int cmd_check_host(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, cpu = -1, as_json = 0;

	(void)ctx;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (parse_cpu(optarg, &cpu) < 0) {
				ngcc_error("check-host: --cpu '%s' is not a CPU number; give a non-negative integer", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			as_json = 1;
			break;
		case 'h':
			check_host_usage(stdout);
			return EXIT_OK;
		default:
			check_host_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		ngcc_error("check-host: unexpected argument '%s'; see 'ngcc-perf check-host --help'", argv[optind]);
		return EXIT_USAGE;
	}
	return host_check_show(cpu, as_json);
}
