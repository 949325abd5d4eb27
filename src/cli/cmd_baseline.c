/*
 * cmd_baseline.c — `ngcc-perf baseline --run DIR [options]`: the ICCS
 * baseline (docs/method.md §10.7, campaign/baseline.h).
 */
#include "campaign/baseline.h"
#include "campaign/memory.h"
#include "campaign/sampling.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"

#include <stdio.h>

static void baseline_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] baseline --run DIR [options]\n"
		"\n"
		"Measure the ICCS auxiliary functions themselves, so that hash functions\n"
		"can be read as multiples of pseudoXOF: sm3hash at 256 bits, pseudohash at\n"
		"512, 768 and 1024, and pseudoXOF at 256 and at every digest width of a\n"
		"hash candidate in the workspace.  Writes the candidate `iccs`\n"
		"(candidates/iccs/, one hash instance per function and width, for\n"
		"ngcc-perf's runtime and for every package copy of auxfunc.c that differs\n"
		"from it, labelled <function>-<bits>.<ID>), builds it, self-tests every\n"
		"instance against OpenSSL's SM3 and HMAC (its KAT status; a failure is\n"
		"shown as \"self-test <STATUS>\"), then measures it like a hash at the\n"
		"eight message lengths, with the memory pass.  Run it again after adding\n"
		"a hash candidate with a new digest width.\n"
		"Refuses (exit 2) on a host that fails `ngcc-perf check-host`.\n"
		"\n"
		"Prints one `BASELINE <label> <whose copy>` line per instance, then the\n"
		"BUILD, RESULT (self-test) and measure lines.\n"
		"\n"
		"Options:\n"
		"%s"
		"  --no-memory-pass     time only\n"
		"  --no-sampling        no per-call sampling pass (docs/method.md §14 R11)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every instance built, passed its self-test and was measured;\n"
		"1 some did not; 2 usage or refusal; 3 bad workspace input; 4 system\n"
		"error.\n",
		engine_options_help);
}

int cmd_baseline(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	int memory_pass = !memory_strip_option(&argc, argv);
	o.no_sampling = sampling_strip_option(&argc, argv);
	int rc = engine_parse_cli(argc, argv, &o, baseline_usage);
	if (!rc && o.ids.n) {
		ngcc_error("baseline takes no candidate ids (it measures the candidate iccs it writes)");
		rc = EXIT_USAGE;
	} else if (!rc && !o.run) {
		ngcc_error("baseline needs --run DIR");
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = baseline_command(&o, memory_pass);
	else if (rc < 0)
		rc = EXIT_OK;
	engine_opts_free(&o);
	return rc;
}
