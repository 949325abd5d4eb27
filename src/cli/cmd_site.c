/*
 * cmd_site.c — `ngcc-perf site --dataset DIR [--out DIR]`: the options of
 * the static HTML site (site/site.h).
 */
#include "cli/cli.h"
#include "site/site.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void site_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] site --dataset DIR [--out DIR] [--system ID]\n"
		"\n"
		"Write the static HTML site: every report page as HTML (one template, no\n"
		"JavaScript, relative links so it works from file:// and under any base\n"
		"URL), per-category summary pages, SVG charts, a CSV file per table, and\n"
		"data/<SYS>/ with the evidence, summary.csv, profiles.csv, sizes.csv,\n"
		"dataset.json, schema/ and SHA256SUMS.  No clock is read: rebuilding from\n"
		"the same data gives the same bytes.\n"
		"\n"
		"--dataset DIR is either a published dataset (DIR/data/<SYS>/ for each\n"
		"system, catalogs in DIR) or a run directory of 'ngcc-perf measure' (it\n"
		"holds campaign.json); a run directory is read with the workspace's\n"
		"build/ and catalogs, like 'ngcc-perf report --run'.\n"
		"\n"
		"Options:\n"
		"  --dataset DIR  published dataset or run directory (relative paths are\n"
		"                 taken from the workspace)\n"
		"  --out DIR      output folder (default: DIR/site for a dataset,\n"
		"                 <workspace>/site for a run); a previous site there is\n"
		"                 replaced, any other non-empty folder is refused\n"
		"  --system ID    system id of a run directory (default as for report)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Prints the number of files and where the index page (index.html) is.\n"
		"\n"
		"Exit: 0 site written; 1 written but a local link does not resolve;\n"
		"2 usage or refused --out; 3 missing or corrupt data; 4 cannot write.\n");
}

int cmd_site(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "dataset", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "system", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ds_arg = NULL, *out_arg = NULL, *system = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': ds_arg = optarg; break;
		case 'o': out_arg = optarg; break;
		case 's': system = optarg; break;
		case 'h': site_usage(stdout); return EXIT_OK;
		default: site_usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc || !ds_arg) {
		ngcc_error("site needs --dataset DIR (and no other arguments); see "
			   "'ngcc-perf site --help'");
		return EXIT_USAGE;
	}
	char *dir = ws_resolve(ctx, ds_arg);
	char *out = out_arg ? ws_resolve(ctx, out_arg) : NULL;
	struct site_request r = { ctx->workspace, dir, out, system };
	int rc = site_make(&r);
	free(out);
	free(dir);
	return rc;
}
