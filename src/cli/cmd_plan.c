/*
 * cmd_plan.c — `ngcc-perf plan [SELECTOR...] [--run DIR] [--prior DATASET]...
 * [options]`: how long the measuring phases will take (docs/method.md §2, §4).
 */
#include "campaign/inspect.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"
#include "util/numparse.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

/* More rows than any campaign has operations. */
#define PLAN_TOP_MAX 1000000

static void plan_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] plan [SELECTOR...] [--run DIR] [--prior DATASET]... [options]\n"
		"\n"
		"Estimate the wall time of the measuring phases (calibrate, measure, the\n"
		"memory pass, profile) per instance and operation, and in total on 1..N\n"
		"benchmark CPUs with the greedy shard assignment of `--shard`; name the\n"
		"instances that alone exceed a balanced shard (candidates for --defer)\n"
		"and the most expensive operations.  t1 and S come from the run's\n"
		"calibrations (`ngcc-perf calibrate --run DIR` makes them quickly), else\n"
		"from prior datasets' records, else the instance counts 60 s.  Work the\n"
		"run already holds costs nothing.  Build and KAT are not included.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"  --run DIR            use this run's calibrations, planning and progress\n"
		"  --prior DATASET      published dataset or run with earlier records (repeatable)\n"
		"  --cpus N             totals on 1..N CPUs (default: the CPUs allowed here)\n"
		"  --defer REGEX        count matching instances as one worker of their own\n"
		"  --trials N, --trial-target S, --op-budget S   planning, as for measure\n"
		"                       (a run's own planning constants win)\n"
		"  --no-memory-pass     measure without the memory pass\n"
		"  --no-profile         no profile phase\n"
		"  --no-sampling        measure without the per-call sampling pass (R11)\n"
		"  --op OP              only this operation (repeatable)\n"
		"  --top N              most expensive operations listed (default 15)\n"
		"  --json               one ngcc-perf/plan/1 JSON document instead of the table\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 estimated; 2 usage error; 3 nothing built to plan for, or an\n"
		"unreadable run or prior.\n", selector_help);
}

int cmd_plan(int argc, char **argv, const struct cli_ctx *ctx)
{
	enum { OPT_JSON = 2000, OPT_CPUS, OPT_NO_MEMORY, OPT_NO_PROFILE, OPT_NO_SAMPLING, OPT_TOP };
	static const struct option opts[] = {
		ENGINE_LONG_OPTIONS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "no-memory-pass", no_argument, NULL, OPT_NO_MEMORY },
		{ "no-profile", no_argument, NULL, OPT_NO_PROFILE },
		{ "no-sampling", no_argument, NULL, OPT_NO_SAMPLING },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct engine_opts o;
	struct inspect_opts io = { 0, 0, 1, 1, 1, 15 };
	int c, rc = EXIT_OK;
	long long top = 15;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	while (!rc && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			io.json = 1;
			break;
		case OPT_CPUS:
			if (parse_whole_int(optarg, 1, 4096, &io.max_cpus)) {
				ngcc_error("plan: --cpus takes a number of CPUs from 1 to 4096, not '%s'", optarg);
				rc = EXIT_USAGE;
			}
			break;
		case OPT_NO_MEMORY:
			io.memory_pass = 0;
			break;
		case OPT_NO_PROFILE:
			io.profile = 0;
			break;
		case OPT_NO_SAMPLING:
			io.sampling = 0;
			break;
		case OPT_TOP:
			if (parse_whole(optarg, 0, PLAN_TOP_MAX, &top)) {
				ngcc_error("plan: --top takes a number from 0 to %d, not '%s'", PLAN_TOP_MAX,
					   optarg);
				rc = EXIT_USAGE;
			}
			io.top = (size_t)top;
			break;
		case 'h':
			plan_usage(stdout);
			engine_opts_free(&o);
			return EXIT_OK;
		default: {
			int r = engine_opt(&o, c, optarg);
			if (r <= 0) {
				if (!r)
					plan_usage(stderr);
				rc = EXIT_USAGE;
			}
		}
		}
	}
	for (int i = optind; i < argc && !rc; i++)
		sl_push(&o.ids, argv[i]);
	if (!rc)
		rc = inspect_plan(&o, &io);
	engine_opts_free(&o);
	return rc;
}
