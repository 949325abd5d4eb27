/*
 * cmd_merge.c — `ngcc-perf merge RUN... --into RUN [--replace]`: join the
 * run directories of one system's shards into one run (docs/method.md §13).
 */
#include "campaign/merge.h"
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void merge_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] merge RUN... --into RUN [--replace]\n"
		"\n"
		"Join the run directories of one system's shards (`measure --shard k/n`,\n"
		"and the deferred worker's) into one run directory that reports,\n"
		"publishes and validates like a single run.  Every evidence file is\n"
		"copied under the same path; campaign.json is joined (earliest start,\n"
		"latest end, every shard's host checks, overrides, phases, background\n"
		"probes and CPUs).  Refused, with the offending files named: runs of\n"
		"different systems or environments, a mix of fixed and unfixed host\n"
		"states, different planning constants or measuring options, shards of\n"
		"different assignments or the same shard twice, one instance measured\n"
		"from different libraries, and the same evidence file in two runs.\n"
		"Paths are taken from the workspace (-C) when relative.\n"
		"\n"
		"Shard folders are untrusted input: a symbolic link or special file in\n"
		"one, a shard number out of range or a system_id that cannot be a\n"
		"folder name in its campaign.json is refused with its path (exit 3).\n"
		"What a merge killed between its two renames left (RUN.merge.old.<pid>,\n"
		"RUN.merge.tmp.<pid>) is restored or removed by the next merge into RUN.\n"
		"\n"
		"Options:\n"
		"  --into RUN     the merged run directory: new, or empty\n"
		"  --replace      RUN may be an earlier merge, replaced once the new one\n"
		"                 is complete (never a run that was not merged)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit: 0 merged; 2 usage error or refusal (nothing written); 3 a RUN\n"
		"is not a readable run directory, or holds a link, a special file or\n"
		"a campaign.json that fails its check (nothing written); 4 system error.\n");
}

int cmd_merge(int argc, char **argv, const struct cli_ctx *ctx)
{
	enum { OPT_INTO = 256, OPT_REPLACE };
	static const struct option opts[] = {
		{ "into", required_argument, NULL, OPT_INTO },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *into = NULL;
	int replace = 0, c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_INTO:
			into = optarg;
			break;
		case OPT_REPLACE:
			replace = 1;
			break;
		case 'h':
			merge_usage(stdout);
			return EXIT_OK;
		default:
			merge_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!into || optind >= argc) {
		ngcc_error("merge: give the shards' run directories and --into RUN");
		merge_usage(stderr);
		return EXIT_USAGE;
	}
	size_t n = (size_t)(argc - optind);
	char **runs = xcalloc(n, sizeof *runs);
	for (size_t i = 0; i < n; i++)
		runs[i] = ws_resolve(ctx, argv[optind + (int)i]);
	char *dest = ws_resolve(ctx, into);
	int rc = run_merge((const char *const *)runs, n, dest, replace);
	for (size_t i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	free(dest);
	return rc;
}
