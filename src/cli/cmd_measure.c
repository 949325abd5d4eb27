/*
 * cmd_measure.c — `ngcc-perf measure --run DIR [SELECTOR...] [options]`: the
 * options of timing every operation (docs/method.md §2.5) and the memory pass
 * after it (campaign/engine.h, campaign/memory.h).
 */
#include "campaign/engine.h"
#include "campaign/memory.h"
#include "campaign/repeat.h"
#include "campaign/sampling.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"

#include <stdio.h>

static void measure_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] measure --run DIR [SELECTOR...] [options]\n"
		"\n"
		"Time every operation of every built instance whose KAT status is\n"
		"measurable (PASS; MISMATCH, NOKAT, PARTIAL, CRYPTOFAIL, TIMEOUT and\n"
		"OVERFLOW are timed and marked kat_not_passed), cheapest first, each in\n"
		"its own driver processes pinned to the benchmark CPU, and write\n"
		"records/<ID>/<label>__<op>.json in the run directory.  Operations\n"
		"without a complete calibration are calibrated first.  Rerunning the\n"
		"same command resumes: complete records whose inputs are unchanged are\n"
		"kept, others are redone (at most 3 attempts; old files go to attempts/).\n"
		"Refuses (exit 2) on a host that fails `ngcc-perf check-host`.\n"
		"Then the input-pool pass (docs/method.md §14.2) times each operation\n"
		"under 10 ms on 16 inputs of its own (--input-pool) into\n"
		"pool/<ID>/<label>__<op>.json; the sampling pass (§14 R11) runs the\n"
		"driver once more per operation whose cold or mean call took under\n"
		"10 ms: 1000 samples of a batch of calls each, kept with their robust\n"
		"statistics in samples/<ID>/<label>__<op>.json; and the memory pass (§8)\n"
		"runs ngcc-perf-memory once per operation with a complete record:\n"
		"operation peak RSS, stack peak, heap peak and allocations per call in\n"
		"memory/<ID>/<label>__<op>.json (all resumed the same way).\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"%s"
		"  --no-memory-pass     time only; recorded as options.memory_pass false\n"
		"  --repeat             then time a fixed sample of the units again (about\n"
		"                       5 %%, at least one per candidate) into repeat/\n"
		"  --no-sampling        no per-call sampling pass; recorded as\n"
		"                       options.sampling false\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every record complete; 1 some record failed; 2 usage or refusal\n"
		"(unfixed host, changed environment, other planning values, stale\n"
		"records, another worker on the run); 3 bad workspace input or nothing\n"
		"to measure; 4 system error; 130 interrupted (Ctrl-C): rerun to resume.\n"
		"A benchmark CPU in use by another run is waited for (its holder is named).\n"
		"Progress: one line per unit on stderr (live on a terminal), with an ETA.\n",
		selector_help, engine_options_help);
}

int cmd_measure(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	int memory_pass = !memory_strip_option(&argc, argv);
	int repeat = repeat_strip_option(&argc, argv, REPEAT_OPTION);
	o.no_sampling = sampling_strip_option(&argc, argv);
	int rc = engine_parse_cli(argc, argv, &o, measure_usage);
	if (!rc) {
		rc = measure_command(&o, memory_pass);
		if (repeat && rc <= EXIT_FAILED) {
			int r = repeat_phase(&o);
			rc = r > rc ? r : rc;
		}
	}
	else if (rc < 0)
		rc = EXIT_OK;
	engine_opts_free(&o);
	return rc;
}
