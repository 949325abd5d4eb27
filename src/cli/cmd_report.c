/*
 * cmd_report.c — `ngcc-perf report --run DIR [--out DIR] [--system ID] [--force]`:
 * render the Markdown pages (docs/report-format.md §5–§9) from a run directory's
 * evidence and the workspace's build/ and catalogs, and write them
 * atomically under the output folder (by default the run's own
 * <run>/reports/), with the run's size_audit.json
 * (report/report_write.h, shared with `campaign`).  Rendering is a pure
 * function of the loaded data (src/report/report.h), so the same data
 * gives the same bytes.
 */
#include "cli/cli.h"
#include "report/report_write.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] report --run DIR [--out DIR] [--system ID] [--force]\n"
		"\n"
		"Render the Markdown pages of one run: index.md, symmetric-survey.md,\n"
		"size-audit.md, <SYS>/index.md (summary), <SYS>/method.md and one\n"
		"<SYS>/<ID>.md per candidate.  Reads the run's campaign.json, records/ and\n"
		"profile/, the workspace's build/<ID>/build.json and KAT logs, and the\n"
		"optional workspace catalogs (systems.csv, survey.conf, external_sizes.csv,\n"
		"security_targets.csv, summary_notes.csv, kat_issues.csv, size_notes.csv,\n"
		"report.json).  Pages are written atomically; their paths are printed.\n"
		"They go under the run, <run>/reports/, unless --out names a folder; a\n"
		"folder holding the pages of another run (its .ngcc-perf-report file names\n"
		"the run) or other files is refused unless --force is given.\n"
		"The run's size audit (API, observed and catalog lengths) is written to\n"
		"<run>/size_audit.json.\n"
		"\n"
		"Options:\n"
		"  --run DIR      run directory (relative paths are taken from the workspace)\n"
		"  --out DIR      output folder (default: <run>/reports)\n"
		"  --system ID    system id (default: the systems.csv row whose Hostname is\n"
		"                 the campaign's host, else the campaign's system id)\n"
		"  --force        replace the pages of another run in --out (or write\n"
		"                 over files that are not pages of ngcc-perf)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit: 0 pages written; 2 usage, or the output folder holds the pages of\n"
		"another run or other files (without --force); 3 missing or corrupt run\n"
		"data or a bad external_sizes.csv; 4 cannot write a page.\n");
}

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "system", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *run_arg = NULL, *out_arg = NULL, *system = NULL;
	int c, force = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': run_arg = optarg; break;
		case 'o': out_arg = optarg; break;
		case 's': system = optarg; break;
		case 'f': force = 1; break;
		case 'h': report_usage(stdout); return EXIT_OK;
		default: report_usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc || !run_arg) {
		ngcc_error("report needs --run DIR (and no other arguments); see 'ngcc-perf report --help'");
		return EXIT_USAGE;
	}
	char *run = ws_resolve(ctx, run_arg);
	char *out = out_arg ? ws_resolve(ctx, out_arg) : NULL;
	int rc = report_write_run(ctx->workspace, run, out, system, force, stdout, NULL);
	free(out);
	free(run);
	return rc;
}
