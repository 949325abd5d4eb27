/*
 * cmd_site.c — `ngcc-perf site --dataset DIR [--out DIR]`: the static HTML
 * site (report-format §10–§11) from the Markdown pages of `report`, with
 * charts, per-table CSVs and the data/<SYS>/ downloads.  The output is a
 * pure function of the data, so two builds are byte-identical; every local
 * link is checked before the command succeeds.
 */
#include "cli/cli.h"
#include "model/dataset.h"
#include "report/report.h"
#include "site/site.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		"Exit: 0 site written; 1 written but a local link does not resolve;\n"
		"2 usage or refused --out; 3 missing or corrupt data; 4 cannot write.\n");
}

/* A run directory: one system read with the workspace's build/ and
 * catalogs, like `report --run`. */
static int render_run(const char *dir, const char *system, const struct cli_ctx *ctx,
		      struct site_files *site, char **err)
{
	struct dataset ds;
	memset(&ds, 0, sizeof ds);
	int rc = dataset_load_run(&ds, ctx->workspace, dir, system, err);
	if (!rc) {
		struct site_system sys = { &ds, dir, ctx->workspace };
		rc = site_render(&sys, &ds, 1, site, err);
	}
	dataset_free(&ds);
	return rc;
}

static int write_and_check(const struct site_files *site, const char *out)
{
	char *err = NULL;
	int rc = site_write(site, out, &err);
	if (rc) {
		ngcc_error("%s", err);
		free(err);
		return rc;
	}
	struct strlist problems = STRLIST_INIT;
	size_t bad = site_check_links(site, &problems);
	for (size_t i = 0; i < problems.n; i++)
		ngcc_error("dangling link in %s/%s", out, problems.items[i]);
	if (bad) {
		ngcc_error("%zu local link(s) do not resolve; the site in %s is incomplete",
			   bad, out);
		rc = EXIT_FAILED;
	}
	sl_free(&problems);
	printf("site: %zu file(s) in %s\n", site->n, out);
	return rc;
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
	char *camp = path_join(dir, "campaign.json");
	char *out = out_arg ? ws_resolve(ctx, out_arg)
		: path_is_file(camp) ? ws_path(ctx, "site") : path_join(dir, "site");
	struct site_files site = { NULL, 0 };
	char *err = NULL;
	int rc;
	if (!path_is_dir(dir)) {
		ngcc_error("%s: dataset folder not found; give --dataset a published dataset or "
			   "a run directory", dir);
		rc = EXIT_INPUT;
	} else if (path_is_file(camp) ? render_run(dir, system, ctx, &site, &err)
		   : site_render_published(dir, &site, &err)) {
		ngcc_error("%s; give --dataset the folder that 'ngcc-perf measure --run' or "
			   "'publish' wrote", err ? err : dir);
		rc = EXIT_INPUT;
	} else {
		rc = write_and_check(&site, out);
	}
	site_files_free(&site);
	free(err);
	free(camp);
	free(out);
	free(dir);
	return rc;
}
