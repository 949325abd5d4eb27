/*
 * cmd_validate.c — `ngcc-perf validate DATASET [--publish-unfixed]`
 * (docs/method.md §12).
 */
#include "cli/cli.h"
#include "dataset/validate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void validate_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] validate DATASET [--publish-unfixed]\n"
		"\n"
		"Check a published dataset from its files alone: system ids, schema\n"
		"versions and relative paths; KAT logs against their SHA-256 and\n"
		"build.json's status; records against build.json, their plan and raw\n"
		"trials (every statistic recomputed, doubles to 1e-12 relative) and\n"
		"each other's environment; profile shares recomputed from the raw\n"
		"calls; and every page under reports/ (and site/ when present)\n"
		"regenerated in memory and compared byte for byte.  Prints one `PROBLEM <path>: <what>` line per\n"
		"problem, the line `dataset sha256 <prefix>` with the digest the site's\n"
		"footer shows (the site is rendered in memory for it), then\n"
		"`<n> timing record(s), <m> profile(s), <k> KAT log(s),\n"
		"<p> problem(s); report check: ok|<q> mismatch(es)`.\n"
		"DATASET is taken from the workspace (-C) when relative.\n"
		"\n"
		"Options:\n"
		"  --publish-unfixed    accept records measured on an unfixed host even\n"
		"                       when publish.json does not say they were allowed\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 no problem; 1 problems or page mismatches; 2 usage error;\n"
		"3 DATASET is not a dataset.\n");
}

int cmd_validate(int argc, char **argv, const struct cli_ctx *ctx)
{
	enum { OPT_UNFIXED = 256 };
	static const struct option opts[] = {
		{ "publish-unfixed", no_argument, NULL, OPT_UNFIXED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct validate_opts o = { 0, stdout };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_UNFIXED:
			o.publish_unfixed = 1;
			break;
		case 'h':
			validate_usage(stdout);
			return EXIT_OK;
		default:
			validate_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		ngcc_error("validate: give exactly one DATASET folder");
		validate_usage(stderr);
		return EXIT_USAGE;
	}
	char *dataset = ws_resolve(ctx, argv[optind]);
	char *norm = path_absolute(dataset);
	int rc = validate_dataset(norm, &o, NULL);
	free(norm);
	free(dataset);
	return rc;
}
