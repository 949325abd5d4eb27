/*
 * cmd_calibrate.c — `ngcc-perf calibrate --run DIR [SELECTOR...] [options]`:
 * the options of calibrating every operation (docs/method.md §2.4,
 * campaign/engine.h), giving t1 and S for planning.  `measure` calibrates
 * by itself; this command exists to look at the plan inputs first.
 */
#include "campaign/engine.h"
#include "cli/cli.h"
#include "cli/engine_cli.h"

#include <stdio.h>

static void calibrate_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] calibrate --run DIR [SELECTOR...] [options]\n"
		"\n"
		"Time one cold call of every operation of every measurable instance, each\n"
		"in its own driver process (trials 1, iterations 1, no warm-up, hard\n"
		"timeout 6 h), and write calibrate/<ID>/<label>__<op>.json with t1 (the\n"
		"call's seconds) and S (process wall time minus t1) in the run directory.\n"
		"Complete calibrations of unchanged libraries are kept.  Refuses (exit 2)\n"
		"on a host that fails `ngcc-perf check-host`.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"%s"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every operation calibrated; 1 some calibration failed; 2 usage\n"
		"or refusal; 3 bad workspace input or nothing to calibrate; 4 system\n"
		"error; 130 interrupted (Ctrl-C): rerun to resume.\n",
		selector_help, engine_options_help);
}

int cmd_calibrate(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	int rc = engine_parse_cli(argc, argv, &o, calibrate_usage);
	if (!rc)
		rc = calibrate_phase(&o);
	else if (rc < 0)
		rc = EXIT_OK;
	engine_opts_free(&o);
	return rc;
}
