/*
 * cmd_measure.c — `ngcc-perf measure --run DIR [ID...] [options]`: time
 * every operation of every measurable instance (method §2.5), calibrating
 * first what has no complete calibration, resuming what is already done.
 */
#include "campaign/engine.h"
#include "campaign/memory.h"
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

static void measure_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] measure --run DIR [ID...] [options]\n"
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
		"Then the memory pass (method §8) runs bin/ngcc-perf-memory once per\n"
		"operation with a complete record: operation peak RSS, stack peak,\n"
		"heap peak and allocations per call in memory/<ID>/<label>__<op>.json\n"
		"(resumed the same way).\n"
		"\n"
		"Options:\n"
		"%s"
		"  --no-memory-pass     time only; recorded as options.memory_pass false\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every record complete; 1 some record failed; 2 usage or refusal\n"
		"(unfixed host, changed environment, other planning values, stale\n"
		"records, another worker on the run); 3 bad workspace input; 4 system\n"
		"error.  A benchmark CPU in use by another run is waited for.\n",
		engine_options_help);
}

int cmd_measure(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	struct engine e;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	int memory_pass = !memory_strip_option(&argc, argv);
	int rc = engine_parse_cli(argc, argv, &o, measure_usage);
	if (rc) {
		engine_opts_free(&o);
		return rc < 0 ? EXIT_OK : rc;
	}
	rc = engine_begin(&e, &o, "measure");
	/* The benchmark CPU is now off this process's affinity: the memory
	 * pass must be told which one it was. */
	if (o.cpu < 0)
		o.cpu = e.cpu;
	if (rc == EXIT_OK) {
		rc = engine_measure(&e);
		engine_end(&e, rc);
	}
	engine_free(&e);
	/* The pass takes the run and CPU locks again itself. */
	if (rc == EXIT_OK || rc == EXIT_FAILED) {
		memory_record_option(&o, memory_pass);
		int mrc = memory_pass ? memory_phase(&o) : EXIT_OK;
		if (mrc > rc)
			rc = mrc;
	}
	engine_opts_free(&o);
	return rc;
}
