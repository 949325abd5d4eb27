/*
 * cmd_build.c — `ngcc-perf build [SELECTOR...] [-j N]`: the options of `build`
 * (build/batch.h).
 */
#include "build/batch.h"
#include "cli/cli.h"
#include "util/numparse.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void build_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] build [SELECTOR...] [-j N]\n"
		"\n"
		"Compile every enabled instance of the named candidates (default: all\n"
		"candidates in the workspace) into build/<ID>/lib<label>.so, with our ABI\n"
		"shim and, when the package lacks drng.c/auxfunc.c, our ICCS runtime.\n"
		"Instances are built with the guide flags; one that fails is rebuilt\n"
		"with the harness-default flags.  Nothing from the package is executed.\n"
		"Writes build/<ID>/build.json and build/<ID>/<label>.build.log.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"  -j, --jobs N   run N compiler processes at once (default: online CPUs)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit: 0 all built; 1 an instance failed to build (BUILDFAIL);\n"
		"2 usage; 3 missing or invalid candidate.conf; 4 system error.\n",
		selector_help);
}

static int parse_jobs(const char *s, int *jobs)
{
	return parse_whole_int(s, 1, 1024, jobs);
}

int cmd_build(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct build_request r = { ctx->workspace, STRLIST_INIT, 0, ctx->tty };
	int c;

	while ((c = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (parse_jobs(optarg, &r.jobs)) {
				ngcc_error("-j wants a number of jobs from 1 to 1024, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			build_usage(stdout);
			return EXIT_OK;
		default:
			build_usage(stderr);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++)
		sl_push(&r.ids, argv[i]);
	int rc = build_candidates(&r);
	sl_free(&r.ids);
	return rc;
}
