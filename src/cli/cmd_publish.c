/*
 * cmd_publish.c — `ngcc-perf publish --run DIR --dataset DIR
 * [--publish-unfixed] [--defer REGEX]` (docs/method.md §2 "Report/publish").
 */
#include "cli/cli.h"
#include "dataset/publish.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void publish_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] publish --run DIR --dataset DIR [options]\n"
		"\n"
		"Copy the evidence of a run into a self-contained dataset and render its\n"
		"pages: <dataset>/data/<SYS>/ gets campaign.json, the measured candidates'\n"
		"build.json entries merged into one build.json, records/, profile/,\n"
		"memory/, samples/, pool/ (as present), the KAT logs as\n"
		"kat/<cand>/<label>.log (rechecks as katcheck/<cand>/<label>.log) and\n"
		"publish.json; the workspace catalogs (systems.csv, survey.conf, ...,\n"
		"report.json) go to the dataset's top and the Markdown pages to\n"
		"<dataset>/reports/.  Calibrations, attempts and build logs are not\n"
		"published.  Paths are made relative; if an absolute path remains,\n"
		"nothing is published.  The new dataset replaces an existing one only\n"
		"when complete; other systems' data/<X>/ in it are kept.\n"
		"Relative paths are taken from the workspace (-C).\n"
		"\n"
		"Options:\n"
		"  --run DIR            the run directory (required)\n"
		"  --dataset DIR        the dataset folder (required; created)\n"
		"  --publish-unfixed    also publish records measured on an unfixed host\n"
		"                       (pages then carry the unfixed-host notice)\n"
		"  --defer REGEX        leave out instances whose <cand>/<label> matches\n"
		"                       this extended regular expression anywhere\n"
		"  --allow-partial      publish a run whose measuring phases were all given\n"
		"                       instance selectors or --op that left units of its\n"
		"                       candidates out (refused otherwise; a warning names\n"
		"                       what is missing)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 published; 2 usage error or refusal (records from an unfixed\n"
		"host without --publish-unfixed, a run with unselected units without\n"
		"--allow-partial, a dataset folder that is not a dataset);\n"
		"3 bad input (no campaign.json, corrupt evidence, an absolute path that\n"
		"would be published); 4 system error.\n");
}

int cmd_publish(int argc, char **argv, const struct cli_ctx *ctx)
{
	enum { OPT_RUN = 256, OPT_DATASET, OPT_UNFIXED, OPT_DEFER, OPT_PARTIAL };
	static const struct option opts[] = {
		{ "run", required_argument, NULL, OPT_RUN },
		{ "dataset", required_argument, NULL, OPT_DATASET },
		{ "publish-unfixed", no_argument, NULL, OPT_UNFIXED },
		{ "defer", required_argument, NULL, OPT_DEFER },
		{ "allow-partial", no_argument, NULL, OPT_PARTIAL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *run = NULL, *dataset = NULL;
	struct publish_opts o = { 0 };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_RUN:
			run = optarg;
			break;
		case OPT_DATASET:
			dataset = optarg;
			break;
		case OPT_UNFIXED:
			o.publish_unfixed = 1;
			break;
		case OPT_DEFER:
			o.defer = optarg;
			break;
		case OPT_PARTIAL:
			o.allow_partial = 1;
			break;
		case 'h':
			publish_usage(stdout);
			return EXIT_OK;
		default:
			publish_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || !run || !dataset) {
		if (optind < argc)
			ngcc_error("publish: unexpected argument '%s'", argv[optind]);
		else
			ngcc_error("publish: --run DIR and --dataset DIR are required");
		publish_usage(stderr);
		return EXIT_USAGE;
	}
	char *run_abs = ws_resolve(ctx, run), *ds_abs = ws_resolve(ctx, dataset);
	char *run_norm = path_absolute(run_abs), *ds_norm = path_absolute(ds_abs);
	o.workspace = ctx->workspace;
	o.run = run_norm;
	o.dataset = ds_norm;
	o.out = stdout;
	int rc = publish_dataset(&o);
	free(run_abs);
	free(ds_abs);
	free(run_norm);
	free(ds_norm);
	return rc;
}
