/*
 * cmd_status.c — `ngcc-perf status --run DIR [--json]`: every unit of work
 * of a run directory and its state (docs/method.md §11.2, §13).
 */
#include "campaign/inspect.h"
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>

static void status_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] status --run DIR [--json | --figures]\n"
		"\n"
		"List every unit of work (instance x operation) the run directory is\n"
		"responsible for — its candidates, or its shard's share of them, or for\n"
		"a merged run every shard's (a shard not merged in leaves its units\n"
		"pending) — with the state of its timing record\n"
		"(complete; pending; failed, with the cause and the attempts made, to\n"
		"be retried by the next measure; failed for good after 3 attempts;\n"
		"stale, of another library; deferred; not timed, with the reason; not\n"
		"selected, left out by instance selectors or --op of every phase),\n"
		"its memory and profile records, the totals, what the phases selected\n"
		"and an estimate of the work left.  Nothing is measured and no lock is\n"
		"taken.  A record that is a symbolic link is never read: its unit shows\n"
		"as failed (corrupt).\n"
		"\n"
		"Options:\n"
		"  --run DIR     the run directory (relative to the workspace)\n"
		"  --json        one ngcc-perf/status/1 JSON document instead of the table\n"
		"  --figures     the results table instead: per complete timing record the\n"
		"                mean ± sd, median, CV, ops/s and the unit (cycles of the\n"
		"                named counter, or ns of the monotonic clock), as measure\n"
		"                and campaign print it when they end (exit 0, or 3 when the\n"
		"                run has no complete record)\n"
		"  -h, --help    show this help\n"
		"\n"
		"Exit: 0 settled (every selected unit complete, failed for good, deferred\n"
		"or not timed: a sharded campaign goes on to its report); 1 work is left;\n"
		"2 usage error; 3 DIR is not a run directory, or no unit is its.\n");
}

int cmd_status(int argc, char **argv, const struct cli_ctx *ctx)
{
	enum { OPT_JSON = 256, OPT_FIGURES };
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "figures", no_argument, NULL, OPT_FIGURES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct engine_opts o;
	struct inspect_opts io = { 0 };
	int c, figures = 0;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o.run = optarg;
			break;
		case OPT_JSON:
			io.json = 1;
			break;
		case OPT_FIGURES:
			figures = 1;
			break;
		case 'h':
			status_usage(stdout);
			engine_opts_free(&o);
			return EXIT_OK;
		default:
			status_usage(stderr);
			engine_opts_free(&o);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		ngcc_error("status takes no operands (the run directory says what it covers)");
		engine_opts_free(&o);
		return EXIT_USAGE;
	}
	int rc = figures ? inspect_figures(&o) : inspect_status(&o, &io);
	engine_opts_free(&o);
	return rc;
}
