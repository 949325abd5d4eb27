/*
 * cmd_profile.c — `ngcc-perf profile [SELECTOR...] --run DIR [options]`: the share
 * of each operation spent in the ICCS hash helpers and the DRNG, measured
 * on an instrumented relink of every reference instance, and the automatic
 * symmetric-primitive survey (docs/method.md §10; campaign/profile.h).
 */
#include "campaign/profile.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"

#include <stdio.h>

static void profile_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] profile --run DIR [SELECTOR...] [options]\n"
		"\n"
		"For every measurable reference instance of the given candidates (default:\n"
		"all built), relink build/<ID>/instrumented/lib<label>.so with link-time\n"
		"wrappers around pseudohash, pseudoXOF, sm3hash and get_random_number (the\n"
		"timed library is not touched), run each operation in its own\n"
		"ngcc-perf-profile process pinned to the benchmark CPU with the timing\n"
		"driver's inputs, and write profile/<ID>/<label>__<op>.json in the run\n"
		"directory: shares of time, calls per operation, the wrappers' overhead and\n"
		"a cross-check against the timing record.  The candidate's own objects are\n"
		"scanned for private Keccak/SHA-2/SHA-3/SM3/AES/SM4/ChaCha code reachable\n"
		"from its API; profile/<ID>/survey.json gets the verdict (ICCS-only,\n"
		"bypass, mixed, instance-dependent), overridden by a line `ID; verdict;\n"
		"notes` of the workspace's survey.conf.  Operations without a calibration\n"
		"are calibrated first.  Rerunning resumes.  Refuses (exit 2) on a host that\n"
		"fails `ngcc-perf check-host` unless --allow-unfixed-host is given.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"%s"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every profile complete; 1 some profile or relink failed; 2 usage\n"
		"or refusal; 3 bad workspace input or nothing to profile; 4 system error;\n"
		"130 interrupted (Ctrl-C): rerun to resume.\n",
		selector_help, engine_options_help);
}

int cmd_profile(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	int rc = engine_parse_cli(argc, argv, &o, profile_usage);
	if (!rc)
		rc = profile_phase(&o);
	else if (rc < 0)
		rc = EXIT_OK;
	engine_opts_free(&o);
	return rc;
}
