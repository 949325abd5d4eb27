/*
 * cmd_report.c — `ngcc-perf report [SELECTOR…] --run DIR [--op OP]… [--out DIR]
 * [--system ID] [--force]`:
 * render the Markdown pages (docs/report-format.md §5–§9) from a run directory's
 * evidence and the workspace's build/ and catalogs, and write them
 * atomically under the output folder (by default the run's own
 * <run>/reports/), with the run's size_audit.json
 * (report/report_write.h, shared with `campaign`).  Rendering is a pure
 * function of the loaded data (src/report/report.h), so the same data
 * gives the same bytes.
 */
#include "build/select.h"
#include "cli/cli.h"
#include "report/report_write.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] report [SELECTOR...] --run DIR [--op OP]...\n"
		"                                [--out DIR] [--system ID] [--force]\n"
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
		"Selectors render a part of the run: ID, ID/LABEL, a LABEL one candidate\n"
		"has, or shell-style globs of them ('kem-*', 'kem-1/*-128'), and --op the\n"
		"records and profiles of those operations only; the pages then describe\n"
		"what was selected (the size audit is still of the whole run).\n"
		"\n"
		"Options:\n"
		"  --run DIR      run directory (relative paths are taken from the workspace)\n"
		"  --op OP        only this operation (repeatable; globs)\n"
		"  --out DIR      output folder (default: <run>/reports)\n"
		"  --system ID    system id (default: the systems.csv row whose Hostname is\n"
		"                 the campaign's host, else the campaign's system id)\n"
		"  --force        replace the pages of another run in --out (or write\n"
		"                 over files that are not pages of ngcc-perf)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit: 0 pages written; 2 usage (an --op that names no operation), or\n"
		"the output folder holds the pages of another run or other files\n"
		"(without --force); 3 missing or corrupt run data, a bad\n"
		"external_sizes.csv, or a selector that matches nothing; 4 cannot write\n"
		"a page.\n");
}

static int parse_report(int argc, char **argv, const char **run, const char **out,
			const char **system, int *force, struct selection *sel)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "system", required_argument, NULL, 's' },
		{ "op", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	/* optind is 0 here (main's full reset), so options and selectors may
	 * come in any order, as in the other phases */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': *run = optarg; break;
		case 'o': *out = optarg; break;
		case 's': *system = optarg; break;
		case 'p': selection_add_op(sel, optarg); break;
		case 'f': *force = 1; break;
		case 'h': report_usage(stdout); return EXIT_OK;
		default: report_usage(stderr); return EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++)
		selection_add(sel, argv[optind]);
	if (!*run) {
		ngcc_error("report needs --run DIR; see 'ngcc-perf report --help'");
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *run_arg = NULL, *out_arg = NULL, *system = NULL;
	int force = 0;
	struct selection sel;
	selection_init(&sel);
	int rc = parse_report(argc, argv, &run_arg, &out_arg, &system, &force, &sel);
	if (rc < 0 && !selection_is_all(&sel)) {
		int bad = selection_resolve(&sel, ctx->workspace);
		rc = bad ? bad : -1;
	}
	if (rc < 0) {
		char *run = ws_resolve(ctx, run_arg);
		char *out = out_arg ? ws_resolve(ctx, out_arg) : NULL;
		rc = report_write_run(ctx->workspace, run, out, system, force, &sel, stdout, NULL);
		free(out);
		free(run);
	}
	selection_free(&sel);
	return rc;
}
