/*
 * cmd_campaign.c — `ngcc-perf campaign PACKAGE|ID... --run DIR [options]`:
 * the options of the whole chain (pipeline/campaign.h).
 */
#include "campaign/memory.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"
#include "pipeline/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void campaign_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] campaign PACKAGE|ID... --run DIR [options]\n"
		"\n"
		"Run the whole pipeline for the given submission packages (paths; added\n"
		"as candidates unless already present) or candidate ids: add, build,\n"
		"kat, check (with --check), calibrate, measure, the memory pass, profile\n"
		"and report.\n"
		"Instances whose KAT did not pass are still timed and marked\n"
		"kat_not_passed; BUILDFAIL, LOADFAIL and CRASH instances are not timed.\n"
		"Rerunning the same command resumes.\n"
		"The host is checked first: an unfixed host is refused (exit 2) unless\n"
		"--allow-unfixed-host is given.  The pages (and <run>/size_audit.json)\n"
		"are written as by `ngcc-perf report`; their location is printed.\n"
		"\n"
		"Options (as for measure):\n"
		"%s"
		"  --out DIR            folder of the pages (default: <workspace>/reports)\n"
		"  --no-memory-pass     skip the memory pass (docs/method.md §8) after measure\n"
		"  --check              run `ngcc-perf check` after kat (correctness,\n"
		"                       sanitizers, valgrind, constant time); its records\n"
		"                       go on the pages\n"
		"  --check-rounds N     round trips of the functional checks (default 1000)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every phase succeeded (all KATs PASS, every record and profile\n"
		"complete, pages written); 1 some check failed, record or profile failed\n"
		"or an instance was not timed; 2 usage or refusal; 3 bad input; 4 system\n"
		"error; 130 interrupted while measuring (Ctrl-C): rerun to resume.\n",
		engine_options_help);
}

/* Remove `--check` and `--check-rounds N` (ours) from argv into r.  0, or
 * -1 on a bad value. */
static int take_check_options(int *argc, char **argv, struct campaign_request *r)
{
	int w = 1, rc = 0;
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[w++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--check")) {
			r->check = 1;
		} else if (!strcmp(argv[i], "--check-rounds") && i + 1 < *argc) {
			char *end;
			r->check_rounds = strtol(argv[++i], &end, 10);
			if (*end || end == argv[i] || r->check_rounds < 1) {
				ngcc_error("--check-rounds %s: expected a positive whole number", argv[i]);
				rc = -1;
			}
		} else {
			argv[w++] = argv[i];
		}
	}
	*argc = w;
	argv[w] = NULL;
	return rc;
}

/* Remove `--out DIR` / `--out=DIR` (ours, not the engine's) from argv. */
static const char *take_out_option(int *argc, char **argv)
{
	const char *out = NULL;
	int w = 1;
	for (int r = 1; r < *argc; r++) {
		if (!strcmp(argv[r], "--")) {
			while (r < *argc)
				argv[w++] = argv[r++];
			break;
		}
		if (!strcmp(argv[r], "--out") && r + 1 < *argc)
			out = argv[++r];
		else if (str_starts_with(argv[r], "--out="))
			out = argv[r] + 6;
		else
			argv[w++] = argv[r];
	}
	*argc = w;
	argv[w] = NULL;
	return out;
}

int cmd_campaign(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct campaign_request r;
	memset(&r, 0, sizeof r);
	engine_opts_init(&r.o, ctx->workspace, ctx->tty);
	const char *pages_out = take_out_option(&argc, argv);
	r.memory_pass = !memory_strip_option(&argc, argv);
	if (take_check_options(&argc, argv, &r)) {
		engine_opts_free(&r.o);
		return EXIT_USAGE;
	}
	int rc = engine_parse_cli(argc, argv, &r.o, campaign_usage);
	if (rc) {
		engine_opts_free(&r.o);
		return rc < 0 ? EXIT_OK : rc;
	}
	/* engine_parse_cli put the operands in o.ids; they may be packages. */
	for (size_t i = 0; i < r.o.ids.n; i++)
		sl_push(&r.args, r.o.ids.items[i]);
	sl_free(&r.o.ids);
	if (!r.args.n || !r.o.run) {
		ngcc_error("campaign needs at least one PACKAGE or ID and --run DIR");
		campaign_usage(stderr);
		rc = EXIT_USAGE;
	} else {
		char *out = pages_out ? ws_resolve(ctx, pages_out) : ws_path(ctx, "reports");
		r.pages_out = out;
		rc = campaign_run(&r);
		free(out);
	}
	sl_free(&r.args);
	engine_opts_free(&r.o);
	return rc;
}
