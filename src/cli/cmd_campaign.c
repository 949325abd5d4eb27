/*
 * cmd_campaign.c — `ngcc-perf campaign PACKAGE|ID... --run DIR [options]`:
 * the options of the whole chain (pipeline/campaign.h).
 */
#include "campaign/memory.h"
#include "campaign/repeat.h"
#include "campaign/sampling.h"
#include "cli/cli.h"
#include "util/numparse.h"
#include "cli/engine_cli.h"
#include "kat/gate.h"
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
		"kat, check (with --check), calibrate, measure with its input-pool pass,\n"
		"the sampling and memory passes, profile and report.\n"
		"Instances whose KAT did not pass are still timed and marked\n"
		"kat_not_passed; BUILDFAIL, LOADFAIL and CRASH instances are not timed.\n"
		"Rerunning the same command resumes.\n"
		"The host is checked first: an unfixed host is refused (exit 2) unless\n"
		"--allow-unfixed-host is given.  The pages (and <run>/size_audit.json)\n"
		"are written as by `ngcc-perf report`; their location is printed.\n"
		"\n"
		"Options (as for measure):\n"
		"%s"
		"  --out DIR            folder of the pages (default: <run>/reports; one\n"
		"                       holding another run's pages is refused)\n"
		"  --no-memory-pass     skip the memory pass (docs/method.md §8) after measure\n"
		"  --no-repeat          skip timing a fixed sample of the units again at the\n"
		"                       end (about 5 %%, at least one per candidate, into\n"
		"                       repeat/; the method page shows the variation)\n"
		"  --no-sampling        skip the per-call sampling pass (docs/method.md §14\n"
		"                       R11; on by default for operations under 10 ms)\n"
		"  --check              run `ngcc-perf check` after kat (correctness,\n"
		"                       sanitizers, valgrind, constant time); its records\n"
		"                       go on the pages\n"
		"  --check-rounds N     round trips of the functional checks (default 1000)\n"
		"  --skip-kat-file TAG  do not run this hash KAT file (as `kat --skip-kat-file`;\n"
		"                       the instance is PARTIAL at best)\n"
		"  --baseline           include the ICCS baseline (candidate iccs, as\n"
		"                       `ngcc-perf baseline`) even without a hash candidate\n"
		"  --no-baseline        leave it out even with hash candidates (it is\n"
		"                       included by default when a hash candidate is)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every phase succeeded (all KATs PASS, every record and profile\n"
		"complete, pages written); 1 some check failed, record or profile failed\n"
		"or an instance was not timed; 2 usage or refusal; 3 bad input; 4 system\n"
		"error; 130 interrupted while measuring (Ctrl-C): rerun to resume.\n",
		engine_options_help);
}

/* `--skip-kat-file TAG` into req; EXIT_USAGE for an unknown tag. */
static int take_skip_file(const char *skip, struct campaign_request *req)
{
	struct kat_gate_opts k;
	kat_gate_opts_init(&k, "", 0);
	int bad = kat_gate_skip_file(&k, skip);
	kat_gate_opts_free(&k);
	if (bad) {
		ngcc_error("--skip-kat-file %s: expected KAT_2_12, KAT_2_23, KAT_2_33 or KAT_Loop",
			   skip);
		return EXIT_USAGE;
	}
	sl_push(&req->skip_kat_files, skip);
	return 0;
}

/* `--check-rounds N` into req; EXIT_USAGE for a bad value. */
static int take_check_rounds(const char *v, struct campaign_request *req)
{
	long long n;
	if (parse_whole(v, 1, 1000000000, &n)) {
		ngcc_error("--check-rounds %s: expected a whole number from 1 to 1000000000", v);
		return EXIT_USAGE;
	}
	req->check_rounds = (long)n;
	return 0;
}

/* Remove campaign's own options (not the engine's) from argv: `--out
 * DIR`, `--check`, `--check-rounds N`, `--skip-kat-file TAG` (repeatable),
 * `--baseline`, `--no-baseline`.  0, or EXIT_USAGE for a bad value
 * (printed). */
static int take_own_options(int *argc, char **argv, const char **out,
			    struct campaign_request *req)
{
	int w = 1, rc = 0;
	for (int r = 1; r < *argc; r++) {
		int bad = 0;
		if (!strcmp(argv[r], "--")) {
			while (r < *argc)
				argv[w++] = argv[r++];
			break;
		}
		if (!strcmp(argv[r], "--out") && r + 1 < *argc)
			*out = argv[++r];
		else if (str_starts_with(argv[r], "--out="))
			*out = argv[r] + 6;
		else if (!strcmp(argv[r], "--check"))
			req->check = 1;
		else if (!strcmp(argv[r], "--check-rounds") && r + 1 < *argc)
			bad = take_check_rounds(argv[++r], req);
		else if (!strcmp(argv[r], "--skip-kat-file") && r + 1 < *argc)
			bad = take_skip_file(argv[++r], req);
		else if (str_starts_with(argv[r], "--skip-kat-file="))
			bad = take_skip_file(argv[r] + 16, req);
		else if (!strcmp(argv[r], "--baseline"))
			req->baseline = 1;
		else if (!strcmp(argv[r], "--no-baseline"))
			req->baseline = 0;
		else
			argv[w++] = argv[r];
		if (bad)
			rc = bad;
	}
	*argc = w;
	argv[w] = NULL;
	return rc;
}

int cmd_campaign(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct campaign_request r;
	memset(&r, 0, sizeof r);
	engine_opts_init(&r.o, ctx->workspace, ctx->tty);
	const char *pages_out = NULL;
	r.baseline = -1;
	int rc = take_own_options(&argc, argv, &pages_out, &r);
	r.memory_pass = !memory_strip_option(&argc, argv);
	r.no_repeat = repeat_strip_option(&argc, argv, REPEAT_NO_OPTION);
	r.o.no_sampling = sampling_strip_option(&argc, argv);
	if (!rc)
		rc = engine_parse_cli(argc, argv, &r.o, campaign_usage);
	if (rc) {
		engine_opts_free(&r.o);
		sl_free(&r.skip_kat_files);
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
		char *out = pages_out ? ws_resolve(ctx, pages_out) : NULL;
		r.pages_out = out;
		rc = campaign_run(&r);
		free(out);
	}
	sl_free(&r.args);
	sl_free(&r.skip_kat_files);
	engine_opts_free(&r.o);
	return rc;
}
